// argv → options with no network (gh's TestNewCmd… layer): the program with an App that records
// what a verb would be run with instead of running it. test/commands/argv.test.ts checks every
// verb's samples with it; a noun's test checks its own verbs' flags and aliases.
import type { Command } from 'commander';
import { expect } from 'vitest';
import type { Globals } from '../src/common/globals.js';
import { buildProgram, loadCommands } from '../src/cli/program.js';
import type { App } from '../src/verbs/declare.js';

export interface Recorded {
  verb: string;
  opts: unknown;
  globals: Globals;
}

/** The program with an App that records what a verb would be run with, instead of running it. */
export async function recordingProgram(): Promise<{ program: Command; recorded: Recorded[] }> {
  const recorded: Recorded[] = [];
  const app: App = {
    async run(command, opts) {
      const names: string[] = [];
      let root = command;
      for (; root.parent; root = root.parent) names.unshift(root.name());
      recorded.push({ verb: names.join(' '), opts: opts(), globals: root.opts<Globals>() });
    },
    loadAll: (p) => loadCommands(p, app, 'all'),
  };
  const program = buildProgram('0.0.0-test', { writeOut: () => {}, writeErr: () => {}, onUsageError: () => {} });
  await app.loadAll(program);
  return { program, recorded };
}

/** The verb and options argv selects. */
export async function optionsOf(argv: string[]): Promise<Recorded> {
  const { program, recorded } = await recordingProgram();
  await program.parseAsync(argv, { from: 'user' });
  expect(recorded, argv.join(' ')).toHaveLength(1);
  return recorded[0] as Recorded;
}
