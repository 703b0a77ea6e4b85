// The user's cache folder, where wsctl keeps the ids it remembers (src/ids/store.ts says the same)
// and the compiled code of the program (Node's compile cache and src/boot/code-cache.ts).
import { dirname, join } from 'node:path';
import { mkdirSync } from 'node:fs';

export function cacheFolder(env: Record<string, string | undefined>): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.cache'), 'wsctl');
}

/**
 * Makes dir and those above it, 0700, one level at a time: a recursive mkdir never returns under
 * /proc. Throws when it cannot.
 */
export function makeFolders(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw error;
    makeFolders(dirname(dir));
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    }
  }
}
