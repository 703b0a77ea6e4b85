import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, started first (a fresh clone has no timings cached to order by):
 * a long file started last would run alone at the end. Most of their time is child processes
 * and timers, so other files run beside them.
 */
const LONGEST_FIRST = [
  'test/config/concurrency.test.ts',
  'test/commands/follow.test.ts',
  'test/jq-limits.test.ts',
  'test/terminal/terminal.test.ts',
  'test/examples.test.ts',
  'test/config/keyring.test.ts',
  'test/terminal/widths.test.ts',
  'test/reliability/terminal.test.ts',
];

/**
 * Files whose cases race a signal against the process's own work, started last, when the fewest
 * files run beside them (test/jq-ctrl-c.test.ts says why).
 */
const LAST = ['test/jq-ctrl-c.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const path = relative(this.ctx.config.root, file.moduleId);
      if (LAST.includes(path)) return LONGEST_FIRST.length + 1;
      const at = LONGEST_FIRST.indexOf(path);
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// The folder the workers of one run share (test/helpers.ts: storms and timed checks).
process.env.WSCTL_TEST_SHARED ??= join(tmpdir(), `wsctl-tests-${process.pid}-${Date.now()}`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A worker runs file after file without loading the test helpers and wsctl's modules again:
    // ~20% less CPU for the whole suite. Each file's leftovers go after it (test/cleanup-setup.ts).
    isolate: false,
    // Vitest's default is one worker fewer than the cores: one file at a time on two cores, while
    // most files wait on the processes they start or on timers. With the workers' modules loaded
    // once (isolate off), a worker more than the cores keeps them busy: on two cores, 3 workers ran
    // the suite in 218 s against 268 s for 2 (Node 20), the repeat in 176 against 204 s (Node 24).
    maxWorkers: Math.max(3, availableParallelism()),
    sequence: { sequencer: LongestFirst },
    setupFiles: ['test/cleanup-setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    // In-process runs must never reach a developer's own keyring: tests that want a Secret
    // Service start their own in dbus-run-session (test/config/keyring.test.ts).
    // Processes started with the worker's environment keep their caches (remembered ids, compiled
    // code) in the run's folder, never in the tester's ~/.cache.
    env: {
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/wsctl-tests',
      WSCTL_TEST_SHARED: process.env.WSCTL_TEST_SHARED,
      XDG_CACHE_HOME: join(process.env.WSCTL_TEST_SHARED, 'cache'),
    },
  },
});
