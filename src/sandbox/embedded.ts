// `--sandbox`: the sandbox started inside this process on an ephemeral loopback port, with its
// state in <config dir>/sandbox.json.
// The state path is all that loads with the commands: the sandbox itself only with --sandbox.
import { join } from 'node:path';

export function sandboxStatePath(configDir: string): string {
  return join(configDir, 'sandbox.json');
}

export async function startEmbeddedSandbox(configDir: string): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const [{ FileStore, RESET_HINT }, { startSandboxServer }] = await Promise.all([import('./store.js'), import('./server.js')]);
  const store = new FileStore(sandboxStatePath(configDir), RESET_HINT);
  const state = await store.read();
  const server = await startSandboxServer({ store });
  return { url: server.url, apiKey: state.bootstrap_key, close: server.close };
}
