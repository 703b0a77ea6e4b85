// wsctl's own code cache of the program (dist/wsctl.cjs): V8's code of it, made at the exit of the
// first run with every function that run compiled, kept in the user's cache folder. Node's compile
// cache (module.enableCompileCache, Node 22+) keeps only what V8 compiled before the file ran,
// which is little of a bundle whose functions compile as they are first called: `keys list --json`
// on Node 24 is measured faster with this cache than with Node's alone (BENCHMARKS.md). One file per
// Node version, architecture and build of the program; V8 checks its own version, flags and the
// source's length, and rejects a cache it cannot take, which is then made again. A cache that
// cannot be read or written costs time, never the command.
import { closeSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Script } from 'node:vm';

/** The cache file's name: this Node, this architecture, this build of the program. */
export function cacheName(programId: string, nodeVersion = process.version, arch = process.arch): string {
  return `program-${nodeVersion}-${arch}-${programId}.v8`;
}

/**
 * Runs the CommonJS file `file`, whose text is `source`, from V8's code of it in `folder` (made
 * there at exit when there was none V8 would take) and gives its exports. Without a folder, the
 * file is compiled as usual.
 */
export function runWithCodeCache(file: string, source: string, folder: string | undefined, programId: string): unknown {
  const cacheFile = folder === undefined ? undefined : join(folder, cacheName(programId));
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile !== undefined) cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  // Loaded here, not imported: the answers given without the program do not pay for node:vm and node:module.
  const { Script } = process.getBuiltinModule('node:vm');
  const Module = process.getBuiltinModule('node:module');
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected))
    process.once('exit', () => keep(script, cacheFile));
  const module = { exports: {} };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** Writes V8's code of the script, atomically, and removes the caches of other builds on this Node. */
function keep(script: Script, cacheFile: string): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    // Opened first: where nothing can be written, V8 is not asked to serialise its code.
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeFileSync(fd, script.createCachedData());
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, cacheFile);
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // nothing written
    }
    return;
  }
  const folder = dirname(cacheFile);
  const mine = `program-${process.version}-${process.arch}-`;
  try {
    for (const name of readdirSync(folder)) {
      // An upgrade's cache replaces the one before it; round four's caches (code-cache-*) go too.
      const stale = (name.startsWith(mine) && name.endsWith('.v8') && join(folder, name) !== cacheFile) || name.startsWith('code-cache-');
      if (stale) unlinkSync(join(folder, name));
    }
  } catch {
    // gone meanwhile, or not ours to remove
  }
}
