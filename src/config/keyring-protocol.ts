// What keyring.ts and the store's own process (keyring-child.ts) say to each other, one JSON line each.

export interface StoreRequest {
  id: number;
  op: 'get' | 'set' | 'delete';
  service: string;
  account: string;
  /** set: the key; sent through the pipe, never on a command line that `ps` shows. */
  secret?: string;
}

export type StoreAnswer =
  | { id: number; value: string | boolean | null }
  /** unloaded: the native module itself could not be loaded. */
  | { id: number; error: string; unloaded?: boolean };
