// With WSCTL_NO_TRICKS=1 (the suite's second run in CI), every process the tests start gets the
// switch too, even those given an environment of their own: the run then proves that the speed
// tricks change nothing users see. A test that sets WSCTL_NO_TRICKS itself keeps its own value.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tricksOn } from '../bin/booleans.cjs';

// A worker runs many files (vitest.config.ts: isolate off), and this file before each: wrapped once.
const WRAPPED = Symbol.for('wsctl.tests.switchPassedOn');
const worker = globalThis as { [WRAPPED]?: boolean };
if (!tricksOn() && !worker[WRAPPED]) {
  worker[WRAPPED] = true;
  const childProcess = createRequire(import.meta.url)('node:child_process') as Record<string, (...args: unknown[]) => unknown>;
  const withSwitch = (options: unknown) => {
    if (!options || typeof options !== 'object' || !('env' in options) || !options.env) return options;
    const env = options.env as Record<string, string | undefined>;
    return 'WSCTL_NO_TRICKS' in env ? options : { ...options, env: { ...env, WSCTL_NO_TRICKS: '1' } };
  };
  for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork']) {
    const original = childProcess[name]!;
    // (file, args?, options?, callback?): options is the first plain object after the file.
    childProcess[name] = (...args: unknown[]) => {
      const at = args.findIndex((a, i) => i > 0 && a !== null && typeof a === 'object' && !Array.isArray(a));
      if (at > 0) args[at] = withSwitch(args[at]);
      return original(...args);
    };
  }
  syncBuiltinESMExports();
}
