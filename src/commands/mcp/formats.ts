// The syntax of a client's file, loaded with the verb that edits it: jsonc-parser for most,
// toml-eslint-parser for Codex's config.toml.
import type { ConfigFormat } from './client-file.js';
import { type ClientName, isToml } from './clients.js';

export async function formatOf(client: ClientName): Promise<ConfigFormat> {
  return isToml(client) ? (await import('./toml-file.js')).toml : (await import('./client-file.js')).jsonc;
}
