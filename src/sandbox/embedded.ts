// `--sandbox`: the sandbox started inside this process on an ephemeral loopback port, with its
// state in <config dir>/sandbox.json.
// The state path is all that loads with the commands: the sandbox itself only with --sandbox.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cannotWrite } from '../config/index.js';

export function sandboxStatePath(configDir: string): string {
  return join(configDir, 'sandbox.json');
}

export async function startEmbeddedSandbox(
  configDir: string,
  dryRun = false,
): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const [{ FileStore, MemoryStore, RESET_HINT }, { startSandboxServer }] = await Promise.all([import('./store.js'), import('./server.js')]);
  const path = sandboxStatePath(configDir);
  // A dry run sends nothing and needs only an address: it does not seed a state file that is not there.
  const store = dryRun && !existsSync(path) ? new MemoryStore() : new FileStore(path, RESET_HINT);
  const state = await inConfigDir(configDir, () => store.read());
  const server = await startSandboxServer({ store });
  return { url: server.url, apiKey: state.bootstrap_key, close: server.close };
}

/** Work on a file in the config folder: a folder that cannot be written is one line naming it (exit 1), not an errno. */
export async function inConfigDir<T>(configDir: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw cannotWrite(configDir, error);
  }
}
