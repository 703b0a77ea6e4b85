// The shape of the sandbox's state: what seed.ts makes, store.ts keeps and the routes change.

export interface StoredKey {
  id: string;
  name: string;
  key: string;
  key_prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export interface StoredConnection {
  app_slug: string;
  pd_conn_id: string;
  permission: string;
  account_identifier: string;
  account_name: string;
}

export interface StoredConversation {
  conversation: Record<string, unknown> & { id: string };
  messages: Record<string, unknown>[];
  state?: string;
}

export interface SandboxState {
  version: 1;
  bootstrap_key: string;
  keys: StoredKey[];
  conversations: Record<string, StoredConversation>;
  numbers: Record<string, unknown>[];
  addresses: string[];
  prompts: Record<string, unknown>[];
  connections: StoredConnection[];
  settings: Record<string, unknown>;
  byok: Record<string, unknown>[];
  devices: { id: string; name: string; platform: string; last_seen_at: string }[];
  personas: Record<string, { name: string; published: { id: string; created_at: string }[] }>;
  publications: { id: string; conversation_id: string; created_at: string }[];
  websites: { name: string; path: string; local_port: number; variant: string; display_name: string | null }[];
  pages: Record<string, { title: string }>;
  imports: { filename: string; page_id: string }[];
  uploads: Record<string, { content_type: string; data: string }>;
}
