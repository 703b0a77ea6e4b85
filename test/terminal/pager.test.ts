// The pager of `convo show` on a sized terminal: one that cannot be started is skipped with one
// warning and the transcript printed directly; one that fails makes the command exit 1. The
// transcript is never lost with exit 0.
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { crashed, runPty } from './pty.js';

describe('the pager', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  const show = (env: Record<string, string>, cols = 80) =>
    runPty(['convo', 'show', 'conv_demo'], { cols, env: { ...sb.env, CI: '1', ...env } });
  const warnings = (text: string) => text.split('\n').filter((l) => l.startsWith('! '));

  /** A PATH holding only python (which runs the pty), as in a slim container without less. */
  function withoutLess(): string {
    const dir = tempDir();
    symlinkSync(execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim(), join(dir, 'python3'));
    return dir;
  }
  /** A file that is not a program. */
  function notExecutable(): string {
    const file = join(tempDir(), 'notes.txt');
    writeFileSync(file, 'vm\n', { mode: 0o644 });
    return file;
  }

  it.each([
    ['PAGER names a program that does not exist', () => ({ PAGER: 'nonexistent-pager' }), 'nonexistent-pager'],
    ['WSCTL_PAGER names a file that is not executable', () => ({ WSCTL_PAGER: `${notExecutable()} -R`, PAGER: 'less' }), 'notes.txt -R'],
    // No PAGER and no less on PATH: wsctl itself is started by its full path.
    ['less is not installed', () => ({ PATH: withoutLess() }), 'less -FRX'],
  ])('%s: one warning, the transcript printed directly, exit 0', async (_name, env, pager) => {
    // Wide enough for the warning to stay one line (it wraps at the terminal's width).
    const r = await show(env(), 200);
    expect(r.code, r.text).toBe(0);
    expect(warnings(r.text)).toHaveLength(1);
    expect(warnings(r.text)[0]).toMatch(
      new RegExp(
        `^! The pager '(.*/)?${pager.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' could not be started \\(not found\\): printing directly\\. Set WSCTL_PAGER, or pass --no-pager\\.$`,
      ),
    );
    expect(r.text).toContain('Plan the Lisbon team offsite');
    // The totals end the transcript (at 80 columns the count goes on a line of its own).
    expect(r.text).toMatch(/^Totals .*(\n +)?\(6 messages\)$/m);
    expect(r.text).not.toMatch(/not found$/m); // no shell complaint besides the warning
    expect(crashed(r.output)).toBe(false);
  });

  it.each([
    ['false', 'exited with status 1'],
    ['sh -c "exit 3"', 'exited with status 3'],
    ['head -c 20; exit 2', 'exited with status 2'],
  ])('PAGER=%s fails before taking the output: exit 1 naming it', async (pager, how) => {
    const r = await show({ PAGER: pager }, 200);
    expect(r.code, r.text).toBe(1);
    expect(r.text).toContain(
      `Error: The pager '${pager}' ${how}, so the output may not have been shown in full. Run again with --no-pager, or set WSCTL_PAGER.`,
    );
    expect(crashed(r.output)).toBe(false);
  });

  it('a pager that takes everything and exits 0 is a success', async () => {
    const r = await show({ PAGER: 'tail -n 1' });
    expect(r.code, r.text).toBe(0);
    expect(r.text.trim()).toMatch(/\(6 messages\)$/);
  });
});

describe('the pager on TERM=dumb', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('with no pager named, the transcript is printed directly (less would stop to warn)', async () => {
    // Were less started, it would wait at its warning; "q" then quits it with nothing shown.
    const r = await runPty(['convo', 'show', 'conv_demo'], {
      cols: 80,
      env: { ...sb.env, TERM: 'dumb', PAGER: undefined, WSCTL_PAGER: undefined },
      steps: [[1500, 'q']],
    });
    expect(r.code, r.text).toBe(0);
    expect(r.text).not.toContain('not fully functional');
    expect(r.text).toContain('Plan the Lisbon team offsite');
    expect(r.text).toMatch(/\(6 messages\)$/m);
  });

  it('a pager the user names is still used', async () => {
    const r = await runPty(['convo', 'show', 'conv_demo'], { cols: 80, env: { ...sb.env, TERM: 'dumb', PAGER: 'sed s/^/paged:/' } });
    expect(r.code, r.text).toBe(0);
    expect(r.text).toMatch(/^paged:.*Plan the Lisbon team offsite/m);
  });
});
