// The switch of every speed trick (WSCTL_NO_TRICKS=1 turns them all off) and the V8 flags set
// at run time: the part of src/tricks/registry.ts that start-up loads, so it imports nothing but the one
// reader of boolean variables and the one reader of argv.
import { tricksOn as readSwitch } from '../../bin/booleans.cjs';
import { commandKind, servesCalls } from '../common/argv.js';

/** False with WSCTL_NO_TRICKS on, as the launcher and the build's stand-ins read it (once per process); context.ts refuses a value that is not a boolean. */
export const tricksOn = readSwitch();

/**
 * The V8 flags wsctl sets at run time, all here and set only here (by cli/run.ts once a command
 * runs, before any WebAssembly is compiled: --help does not pay for loading node:v8). Node
 * documents run-time V8 flags as unsupported: test/tricks.test.ts checks on the running Node
 * that each exists and takes effect.
 * - Liftoff only: V8 applies a flag's implications only at start-up, so tier-up is also turned
 *   off by name (on Node 24+ it stays on unless said).
 * - A steady young generation: see TRICKS.
 * The one other flag, --expose-gc, is set for an instant by takeCollector below.
 */
export const RUNTIME_FLAGS = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering', '--semi-space-growth-factor=1'] as const;

// On the process, not in this module: the entry bundle and the lazy chunks each hold a copy of it.
const FLAGS_SET = Symbol.for('wsctl.runtimeFlagsSet');

/**
 * V8's collector, which V8 gives to code only under --expose-gc: the flag is set for the moment of
 * taking it from a new context and unset in any case, so that the code cache made at exit is made
 * under the flags of every other run (V8 rejects a cache made under other flags). Undefined where
 * V8 does not give it: nothing is then collected by hand.
 */
export function takeCollector(): (() => void) | undefined {
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--expose-gc');
  try {
    const gc: unknown = process.getBuiltinModule('node:vm').runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

// For the launcher, which reads them from this file's bundle (dist/lazy/flags.cjs).
export { commandKind, servesCalls };

/** Sets the flags for the command argv runs, once per process; true when they are set (now or before). */
export function setRuntimeFlags(argv: readonly string[]): boolean {
  const process_ = globalThis as { [FLAGS_SET]?: boolean };
  if (!tricksOn) return false;
  if (process_[FLAGS_SET] === undefined) {
    process_[FLAGS_SET] = !servesCalls(argv);
    if (process_[FLAGS_SET]) {
      const v8 = process.getBuiltinModule('node:v8');
      for (const flag of RUNTIME_FLAGS) v8.setFlagsFromString(flag);
    }
  }
  return process_[FLAGS_SET];
}
