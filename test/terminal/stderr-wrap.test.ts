// What stderr shows on a sized terminal (cli.md §3): errors, warnings and [y/N] questions wrap at
// its width between words, never inside an id, a URL, a path or a `command`; piped, they stay one
// line. The root help's notes wrap at the real width too.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { crashed, runPty, tooWide } from './pty.js';

const WIDTHS = [60, 80, 200];
const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
/** The lines that hold the message, joined as one: what a pipe gets. */
const joined = (text: string) => lines(text).join(' ');

describe.concurrent('stderr on a sized terminal', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it.each(WIDTHS)('a usage error wraps at %i columns between words, its suggestion and `command` whole', async (cols) => {
    const args = ['site', 'create', 'x', '--variant', 'blgo'];
    const piped = await runBin(args, { env: sb.env });
    expect(piped.stderr.split('\n')).toHaveLength(2); // one line and its newline
    const r = await runPty(args, { cols, env: sb.env });
    expect(r.code).toBe(2);
    expect(crashed(r.output)).toBe(false);
    expect(tooWide(r.text, cols)).toEqual([]);
    // The same words, broken only where a space was.
    expect(joined(r.text)).toBe(piped.stderr.trimEnd());
    expect(lines(r.text).some((l) => l.includes('`wsctl site create --help`'))).toBe(true);
    if (cols < piped.stderr.length) expect(lines(r.text).length).toBeGreaterThan(1);
  });

  it.each([60, 80])('a warning wraps at %i columns and never cuts the path it names', async (cols) => {
    const dir = join(tempDir(), 'a-long-folder-name');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{"profiles": {}}\n');
    chmodSync(join(dir, 'config.json'), 0o644);
    const r = await runPty(['profile', 'list'], { cols, env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(tooWide(r.text, cols)).toEqual([]);
    const warning = r.text.slice(r.text.indexOf('! '));
    expect(joined(warning)).toMatch(/is readable by others/);
    // The path is whole on one line (the first time it is named), and so is the chmod command.
    expect(lines(warning).some((l) => l.includes(join(dir, 'config.json')))).toBe(true);
    expect(joined(warning)).toContain(`\`chmod 600 ${join(dir, 'config.json')}; chmod 700 ${dir}\``);
  });

  it.each([60, 80])('a [y/N] question wraps at %i columns, its URL whole and [y/N] on its last line', async (cols) => {
    const r = await runPty(['conn', 'rm', 'gmail', 'pdc_gmail'], { cols, env: sb.env, steps: [['[y/N]', 'n\r']] });
    expect(r.code).toBe(2);
    expect(tooWide(r.text, cols)).toEqual([]);
    const question = lines(r.text.slice(0, r.text.indexOf('[y/N]') + 5));
    expect(question.length).toBeGreaterThan(1);
    expect(question.some((l) => l.includes(sb.url))).toBe(true);
    expect(question.at(-1)).toMatch(/\? \[y\/N\]$/);
  });

  it("the root help's notes wrap at the real width: one line each at 200 columns, within 60 at 60", async () => {
    const wide = await runPty(['--help'], { cols: 200 });
    expect(wide.text).toMatch(
      /^The examples in each command's help use the sandbox's ids \(conv_demo, dev_phone, …\): add --sandbox to try them\.$/m,
    );
    expect(wide.text).toMatch(
      /^Help topics: wsctl help environment, exit-codes, formatting or config\. Manual: man wsctl, man wsctl-keys-create, …$/m,
    );
    const narrow = await runPty(['--help'], { cols: 60 });
    expect(narrow.text.split('\n').filter((l) => stringWidth(l) > 60)).toEqual([]);
    expect(narrow.text).toContain('Help topics:');
  });
});
