// wsctl's own code cache of what the boot file runs (the program, dist/wsctl.cjs, and the TAB
// answerer's file, dist/complete.cjs, which holds the modules the two share), and of the jq
// engine's file, which the program runs through requireBuilt when a filter needs it: V8's code of
// each file, made at the exit of the first run that ends well, with every function that run
// compiled, kept in the user's cache folder. Node's compile cache (module.enableCompileCache, Node
// 22+) keeps only what V8 compiled before the file ran, which is little of a bundle whose functions
// compile as they are first called: `keys list --json` on Node 24 is measured faster with this
// cache than with Node's alone (BENCHMARKS.md). One file per Node version, architecture, build and
// kind of run (the program's: one per noun, as ./index.ts says; the other files': one for each set
// of V8 flags, ./flags.ts); V8 checks its own version, flags and the source's length, and rejects a
// cache it cannot take, which is then made again. A cache that cannot be read or written costs
// time, never the command.
import { closeSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Script } from 'node:vm';

/** The start of the cache files' names of this file and kind of run on this Node and architecture; the build's id follows. */
function cachePrefix(file: string, kind: string, nodeVersion = process.version, arch = process.arch): string {
  return `${basename(file, '.cjs')}${kind && `-${kind}`}-${nodeVersion}-${arch}-`;
}

/** The cache file's name: this file of this build, this kind of run, this Node, this architecture. */
export function cacheName(file: string, buildId: string, kind = '', nodeVersion = process.version, arch = process.arch): string {
  return `${cachePrefix(file, kind, nodeVersion, arch)}${buildId}.v8`;
}

/**
 * Runs the CommonJS file `file` from V8's code of it in `folder` (made there at exit when there
 * was none V8 would take), as require() would, and gives its exports; require() then finds it
 * loaded. Without a folder, the file is compiled as usual. Throws when the file cannot be read.
 */
export function runWithCodeCache(file: string, folder: string | undefined, buildId: string, kind = ''): unknown {
  const loaded = require.cache[file];
  if (loaded) return loaded.exports;
  // ASCII (scripts/build.mjs checks): Latin-1 reads the same text, sooner than UTF-8.
  const source = readFileSync(file, 'latin1');
  const cacheFile = folder === undefined ? undefined : join(folder, cacheName(file, buildId, kind));
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
    // A run that failed went another way than its kind's runs go: it leaves the cache to the next.
    process.once('exit', (code) => code === 0 && keep(script, cacheFile, cachePrefix(file, kind)));
  const module = new Module(file);
  module.filename = file;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
  module.loaded = true;
  // What require() keeps of the files it loaded: the program's require('./complete.cjs') finds it here.
  require.cache[file] = module;
  return module.exports;
}

/** Where the boot file keeps the caches, the build's id, and the kind of the files the program loads later (./index.ts sets them, once). */
let caches: { folder: string | undefined; buildId: string; kind: string } | undefined;

export function useCodeCaches(folder: string | undefined, buildId: string, kind: string): void {
  caches = { folder, buildId, kind };
}

/**
 * Runs a file of the build that the program loads when first needed (the jq engine's,
 * dist/jq-worker.cjs) from its code cache, as require() would; run from the sources (the tests),
 * with require().
 */
export function requireBuilt(file: string): unknown {
  if (caches) return runWithCodeCache(file, caches.folder, caches.buildId, caches.kind);
  return process.getBuiltinModule('node:module').createRequire(file)(file);
}

/** Writes V8's code of the script, atomically, and removes the caches of other builds (names starting with `prefix`). */
function keep(script: Script, cacheFile: string, prefix: string): void {
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
  try {
    for (const name of readdirSync(folder)) {
      // An upgrade's cache replaces the one before it; round four's caches (code-cache-*) and the
      // first of this round's (program-*) go too.
      const stale =
        (name.startsWith(prefix) && name.endsWith('.v8') && join(folder, name) !== cacheFile) ||
        name.startsWith('code-cache-') ||
        name.startsWith('program-');
      if (stale) unlinkSync(join(folder, name));
    }
  } catch {
    // gone meanwhile, or not ours to remove
  }
}
