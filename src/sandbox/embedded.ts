// `--sandbox`: the sandbox started inside this process on an ephemeral loopback port, with its
// state in <config dir>/sandbox.json.
// The state path is all that loads with the commands: the sandbox itself only with --sandbox.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function sandboxStatePath(configDir: string): string {
  return join(configDir, 'sandbox.json');
}

export async function startEmbeddedSandbox(configDir: string, dryRun = false): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const [{ FileStore, MemoryStore, RESET_HINT }, { startSandboxServer }] = await Promise.all([import('./store.js'), import('./server.js')]);
  const path = sandboxStatePath(configDir);
  // A dry run sends nothing and needs only an address: it does not seed a state file that is not there.
  const store = dryRun && !existsSync(path) ? new MemoryStore() : new FileStore(path, RESET_HINT);
  const state = await store.read();
  const server = await startSandboxServer({ store });
  return { url: server.url, apiKey: state.bootstrap_key, close: server.close };
}
