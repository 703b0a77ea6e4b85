// Colour and escape sequences (cli.md §1 and §3): TERM=dumb gets none at all; CLICOLOR=0 turns
// colour off and CLICOLOR_FORCE forces it, with --no-color and NO_COLOR above everything.
import { beforeAll, describe, expect, it } from 'vitest';
import { colorWanted } from '../../src/terminal/index.js';
import { runBin, startSandbox, type TestSandbox } from '../helpers.js';
import { runPty } from './pty.js';

const COLOUR = /\x1b\[\d+(;\d+)*m/;

describe('colour and escape sequences', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('TERM=dumb: no colour, no bold, no spinner, no cursor movement, on any command', async () => {
    for (const args of [
      ['keys', 'list'],
      ['convo', 'show', 'conv_demo', '--no-pager'],
      ['settings'],
      ['device', 'rm', 'dev_laptop', '--yes'],
    ]) {
      const r = await runPty(args, { cols: 80, env: { ...sb.env, TERM: 'dumb' } });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.output, `${args.join(' ')}: ${JSON.stringify(r.output.slice(0, 120))}`).not.toContain('\x1b');
    }
    // The same command on an ordinary terminal does use them (the test can fail).
    const xterm = await runPty(['keys', 'list'], { cols: 80, env: sb.env });
    expect(xterm.output).toMatch(COLOUR);
  });

  it('CLICOLOR=0 turns colour off on a terminal; CLICOLOR_FORCE forces it piped; NO_COLOR and --no-color win', async () => {
    const off = await runPty(['keys', 'list'], { cols: 80, env: { ...sb.env, CLICOLOR: '0' } });
    expect(off.code).toBe(0);
    expect(off.output).not.toMatch(COLOUR);
    const forced = await runBin(['keys', 'create', 'ci'], { env: { ...sb.env, CLICOLOR_FORCE: '1' } });
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(COLOUR);
    const plainPipe = await runBin(['keys', 'create', 'ci'], { env: sb.env });
    expect(plainPipe.stderr).not.toMatch(COLOUR);
    for (const env of [{ CLICOLOR_FORCE: '1', NO_COLOR: '1' }, { CLICOLOR_FORCE: '0' }]) {
      const r = await runBin(['keys', 'create', 'ci'], { env: { ...sb.env, ...env } });
      expect(r.stderr, JSON.stringify(env)).not.toMatch(COLOUR);
    }
    const flag = await runBin(['keys', 'create', 'ci', '--no-color'], { env: { ...sb.env, CLICOLOR_FORCE: '1' } });
    expect(flag.stderr).not.toMatch(COLOUR);
  });

  it('the precedence, case by case', () => {
    const cases: [tty: boolean, env: Record<string, string>, flag: boolean, wanted: boolean][] = [
      [true, {}, false, true],
      [false, {}, false, false],
      [true, { TERM: 'dumb' }, false, false],
      [true, { CLICOLOR: '0' }, false, false],
      [true, { CLICOLOR: '1' }, false, true],
      [false, { CLICOLOR: '1' }, false, false],
      [false, { CLICOLOR_FORCE: '1' }, false, true],
      [false, { CLICOLOR_FORCE: 'yes' }, false, true],
      [false, { CLICOLOR_FORCE: '0' }, false, false],
      [false, { CLICOLOR_FORCE: '' }, false, false],
      [true, { CLICOLOR_FORCE: '1', CLICOLOR: '0' }, false, true],
      [true, { TERM: 'dumb', CLICOLOR_FORCE: '1' }, false, true],
      [false, { FORCE_COLOR: '1' }, false, true],
      [true, { FORCE_COLOR: '0' }, false, false],
      [true, { FORCE_COLOR: '0', CLICOLOR_FORCE: '1' }, false, true],
      [false, { CLICOLOR_FORCE: '1', NO_COLOR: '1' }, false, false],
      [false, { FORCE_COLOR: '1' }, true, false],
      [true, { NO_COLOR: '' }, false, true],
      [true, { CI: 'true' }, false, true],
      [false, { CI: 'true' }, false, false],
    ];
    for (const [tty, env, flag, wanted] of cases) expect(colorWanted(tty, env, flag), JSON.stringify([tty, env, flag])).toBe(wanted);
  });
});
