// The V8 flags wsctl sets, once, before the program is compiled, and never back, in the runs whose
// rows they buy 10% or more of (BENCHMARKS.md). Any flag set at run time costs every Node module
// loaded after it the code Node ships for it, which is then compiled again (Node 24: `node:http`
// 3.6 → 13-18 ms; `keys list --json` 0.95× its time without the flags), so other runs keep V8's
// defaults. V8 takes a code cache only under the flags it was made with: the flags follow from the
// run's kind (./index.ts), whose cache is its own. test/speed.test.ts checks on the running Node
// that each exists and takes effect, and that each kind's cache was made under its flags.
// - Liftoff only: V8's optimising tier-up of jq's WebAssembly, and of undici's parser on a large
//   transcript, costs time and memory (Node 20's tiers the parser up after one small response).
//   V8 applies a flag's implications only at start-up, so tier-up is also turned off by name (on
//   Node 24+ it stays on unless said).
// - A steady young generation: V8 doubles it at each busy scavenge; held at its start size, a
//   large transcript peaks lower.
export const LIFTOFF_ONLY: readonly string[] = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];
export const STEADY_YOUNG_GENERATION: readonly string[] = ['--semi-space-growth-factor=1'];

export interface V8Flags {
  /** What the caches of the files every kind of run takes say of these flags ('' for none). */
  name: string;
  flags: readonly string[];
}

/**
 * The flags of a kind of run (./index.ts's cacheKind): a transcript's (the `convo` noun) both, for
 * `--follow`'s peak needs Liftoff only as `convo show`'s needs the steady young generation; a run
 * of the jq engine (`-jq`) Liftoff only; on Node 20 every other run Liftoff only too. A path the
 * engine answers after all (a document the path cannot walk) runs without: slower, not wrong.
 */
export function v8FlagsFor(kind: string, nodeMajor = Number.parseInt(process.versions.node, 10)): V8Flags {
  if (kind === 'convo' || kind === 'convo-jq') return { name: 'liftoff-steady', flags: [...LIFTOFF_ONLY, ...STEADY_YOUNG_GENERATION] };
  if (kind.endsWith('-jq') || nodeMajor < 22) return { name: 'liftoff', flags: LIFTOFF_ONLY };
  return { name: '', flags: [] };
}

export function setV8Flags(flags: readonly string[]): void {
  if (flags.length === 0) return;
  // Loaded here, not imported: the answers given without the program do not pay for node:v8.
  const v8 = process.getBuiltinModule('node:v8');
  for (const flag of flags) v8.setFlagsFromString(flag);
}
