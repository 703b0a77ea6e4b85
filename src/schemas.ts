// Zod schemas of the service's resources (service-interface.md §2, §4). The client checks every
// response with them and the sandbox checks its own replies with them, so the two cannot drift.
// Every field the interface does not promise is nullish. Fields the schemas do not name are
// allowed, and kept: wsctl prints and uses the body as received, not zod's (stripped) copy.
// zod/mini: the same validation as zod's full build at a fraction of its load time.
import * as z from 'zod/mini';

const text = z.string();
const timestamp = z.string();
const maybe = <T extends z.ZodMiniType>(schema: T) => z.nullish(schema);

export const ApiKeyCreated = z.object({
  id: text,
  name: maybe(text),
  key: text,
  key_prefix: maybe(text),
  created_at: maybe(timestamp),
});

export const ApiKeyListing = z.object({
  id: text,
  name: maybe(text),
  key_prefix: maybe(text),
  created_at: maybe(timestamp),
  last_used_at: maybe(timestamp),
});

export const ApiKeyList = z.object({ keys: z.array(ApiKeyListing) });

export const MessagePart = z.object({
  part_kind: maybe(text),
  content: maybe(z.unknown()),
  tool_name: maybe(text),
  tool_call_id: maybe(text),
  args: maybe(z.unknown()),
  timestamp: maybe(timestamp),
});

export const Message = z.object({
  kind: maybe(text),
  parts: maybe(z.array(MessagePart)),
  timestamp: maybe(timestamp),
  model_name: maybe(text),
  persona_id: maybe(text),
  persona_name: maybe(text),
  persona_image: maybe(text),
  input_tokens: maybe(z.number()),
  output_tokens: maybe(z.number()),
  cache_read_tokens: maybe(z.number()),
  cache_write_tokens: maybe(z.number()),
  metadata: maybe(z.record(z.string(), z.unknown())),
});

export const ConversationDetail = z.object({
  id: text,
  user_id: maybe(text),
  host_id: maybe(text),
  title: maybe(text),
  type: maybe(text),
  created_at: maybe(timestamp),
  updated_at: maybe(timestamp),
  deleted_at: maybe(timestamp),
  metadata: maybe(z.record(z.string(), z.unknown())),
});

export const Conversation = z.object({
  conversation: ConversationDetail,
  messages: z.array(Message),
  // Tolerant: a state the interface does not list yet is shown as it comes.
  state: maybe(text),
});

export const NumberEntry = z.object({
  phone: text,
  name: maybe(text),
  description: maybe(text),
  is_owner: maybe(z.boolean()),
  conversation_id: maybe(text),
});

export const ConnectedApp = z.object({
  app_slug: text,
  permission: maybe(text),
  account_identifier: maybe(text),
  account_name: maybe(text),
});

export const Prompt = z.object({
  path: text,
  title: maybe(text),
  description: maybe(text),
});

export const Capabilities = z.object({
  text_agent: maybe(z.object({ numbers: maybe(z.array(NumberEntry)) })),
  email_agent: maybe(z.object({ addresses: maybe(z.array(text)) })),
  connected_apps: maybe(z.array(ConnectedApp)),
  prompts: maybe(z.array(Prompt)),
});

export const Settings = z.object({
  timezone: maybe(text),
  default_greeting_prompt: maybe(text),
  icon: maybe(text),
  language: maybe(text),
  phone_number: maybe(text),
  greeting_prompt: maybe(text),
  name: maybe(text),
  suggested_name: maybe(text),
  bio: maybe(text),
});

export const NotesImported = z.object({ filename: text });

export const Success = z.object({ success: z.boolean() });

export const ByokConfig = z.object({
  id: text,
  name: text,
  base_url: text,
  api_key: maybe(text),
  format: text,
  model_id: text,
  created_at: timestamp,
  updated_at: timestamp,
});

export const PublishedVersion = z.object({ id: text, created_at: maybe(timestamp) });

export const PublishedList = z.object({ published: z.array(PublishedVersion) });

export const Website = z.object({
  local_port: maybe(z.number()),
  path: maybe(text),
  name: maybe(text),
  entrypoint_output: maybe(text),
});

export const ToolError = z.object({
  message: maybe(text),
  kind: maybe(text),
  code: maybe(text),
});

export const WebsiteCreated = z.object({
  data: maybe(Website),
  error: maybe(ToolError),
});

export const ImageUploaded = z.object({ url: text });

/** The response schemas by name: api.ts loads this module only when a response arrives. */
export const responseSchemas = {
  ApiKeyCreated,
  ApiKeyList,
  Conversation,
  Capabilities,
  Settings,
  NotesImported,
  Success,
  ByokConfig,
  PublishedList,
  WebsiteCreated,
  ImageUploaded,
};

export type SchemaName = keyof typeof responseSchemas;
export type Response<N extends SchemaName> = z.infer<(typeof responseSchemas)[N]>;
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;
export type ApiKeyListing = z.infer<typeof ApiKeyListing>;
export type Conversation = z.infer<typeof Conversation>;
export type Message = z.infer<typeof Message>;
export type MessagePart = z.infer<typeof MessagePart>;
export type Capabilities = z.infer<typeof Capabilities>;
export type Settings = z.infer<typeof Settings>;
export type ByokConfig = z.infer<typeof ByokConfig>;
export type WebsiteCreated = z.infer<typeof WebsiteCreated>;
export type ToolError = z.infer<typeof ToolError>;
