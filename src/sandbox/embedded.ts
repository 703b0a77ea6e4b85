// `--sandbox`: the sandbox started inside this process on an ephemeral loopback port, with its
// state in <config dir>/sandbox.json.
import { join } from 'node:path';
import { startSandboxServer } from './server.js';
import { FileStore, RESET_HINT } from './store.js';

export function sandboxStatePath(configDir: string): string {
  return join(configDir, 'sandbox.json');
}

export async function startEmbeddedSandbox(configDir: string): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const store = new FileStore(sandboxStatePath(configDir), RESET_HINT);
  const state = await store.read();
  const server = await startSandboxServer({ store });
  return { url: server.url, apiKey: state.bootstrap_key, close: server.close };
}
