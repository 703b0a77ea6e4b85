// The V8 flags wsctl sets, once, before the program is compiled, and never back: V8 takes a code
// cache only under the flags it was made with, so every run sets the same ones. Each is here for a
// row it buys 10% or more of (BENCHMARKS.md); test/speed.test.ts checks on the running Node that
// each exists and takes effect.
// - Liftoff only: V8's optimising tier-up of undici's and jq's WebAssembly would hold the process
//   at its exit. V8 applies a flag's implications only at start-up, so tier-up is also turned off
//   by name (on Node 24+ it stays on unless said).
// - A steady young generation: V8 doubles it at each busy scavenge; held at its start size, a
//   large transcript peaks lower.
export const V8_FLAGS = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering', '--semi-space-growth-factor=1'] as const;

export function setV8Flags(): void {
  // Loaded here, not imported: the answers given without the program do not pay for node:v8.
  const v8 = process.getBuiltinModule('node:v8');
  for (const flag of V8_FLAGS) v8.setFlagsFromString(flag);
}
