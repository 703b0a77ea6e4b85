// The V8 flags wsctl sets, once, before the program is compiled, and never back, for the runs whose
// rows they buy 10% or more of (BENCHMARKS.md): a transcript's and a --jq filter's (on Node 20,
// every run's). Any flag set at
// run time costs every Node module loaded after it the code Node ships for it, which is then
// compiled again (Node 24: `node:http` 3.6 → 13-18 ms; `keys list --json` 0.95× its time without
// the flags), so other runs keep V8's defaults. V8 takes a code cache only under the flags it was
// made with: the flags follow from the run's kind (./index.ts), whose cache is its own.
// test/speed.test.ts checks on the running Node that each exists and takes effect.
// - Liftoff only: V8's optimising tier-up of jq's WebAssembly (and of undici's parser on a large
//   transcript) costs time and memory. V8 applies a flag's implications only at start-up, so
//   tier-up is also turned off by name (on Node 24+ it stays on unless said).
// - A steady young generation: V8 doubles it at each busy scavenge; held at its start size, a
//   large transcript peaks lower.
export const V8_FLAGS = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering', '--semi-space-growth-factor=1'] as const;

/**
 * Whether runs of this kind (./index.ts's cacheKind) get the flags: a transcript's, of the `convo`
 * noun, and a --jq filter's; on Node 20 every run, for its V8 optimises undici's parser after the
 * first small response (`keys list --json`: 88 ms and 42 MB more, held at the exit).
 */
export function takesV8Flags(kind: string, nodeMajor = Number.parseInt(process.versions.node, 10)): boolean {
  return nodeMajor < 22 || kind === 'convo' || kind.endsWith('-jq');
}

export function setV8Flags(): void {
  // Loaded here, not imported: the answers given without the program do not pay for node:v8.
  const v8 = process.getBuiltinModule('node:v8');
  for (const flag of V8_FLAGS) v8.setFlagsFromString(flag);
}
