// Every interactive path on a pseudo-terminal with a real window size (60, 80 and 200 columns):
// --dry-run, answers that come back at once, prompts answered both ways and interrupted,
// --no-input, and layout that never passes the terminal's width.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serviceCalls } from '../endpoints.js';
import { atOnce, REPEAT_RUN, startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { crashed, runPty, tooWide } from './pty.js';

// A repeat run of the suite (REPEAT_RUN) keeps the narrowest width, where layout breaks first.
const WIDTHS = REPEAT_RUN ? [60] : [60, 80, 200];

/** Every command that calls the service, with arguments that make a valid request (test/endpoints.ts). */
const SERVICE_COMMANDS = serviceCalls().map((c) => c.args);
/** Ptys at once: each command on its own terminal, mostly waiting for Node to start. */
const AT_ONCE = 4;

describe('on a sized terminal', () => {
  let sb: TestSandbox;
  let env: Record<string, string>;
  beforeAll(async () => {
    sb = await startSandbox();
    env = { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-test-0123456789abcdef' };
  });

  it.each(WIDTHS)(
    '--dry-run of every command that calls the service prints the request and exits 0 (%i columns)',
    async (cols) => {
      const cases = SERVICE_COMMANDS.flatMap((args) => [[], ['--json']].map((json) => [...args, '--dry-run', ...json]));
      const results = await atOnce(cases, AT_ONCE, (args) => runPty(args, { cols, env }));
      results.forEach((r, i) => {
        const args = cases[i]!.join(' ');
        expect(crashed(r.output), `${args}\n${r.text}`).toBe(false);
        expect(r.code, `${args}\n${r.text}`).toBe(0);
        expect(r.text).toMatch(args.endsWith('--json') ? /"method": "(GET|POST|PATCH|DELETE)"/ : /^(GET|POST|PATCH|DELETE) http/m);
      });
      expect(sb.requests).toHaveLength(0);
    },
    120_000,
  );

  it('answers that come back at once: 401, 404 and 422 end with one line and their exit code', async () => {
    const rejected = await runPty(['keys', 'list'], { cols: 80, env: { ...env, WSCTL_API_KEY: 'wsk_not_a_real_key_at_all' } });
    expect(rejected.code).toBe(4);
    expect(
      rejected.text
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('Error:')),
    ).toHaveLength(1);
    const missing = await runPty(['device', 'rm', 'dev_nope', '--yes'], { cols: 80, env });
    expect(missing.code).toBe(5);
    expect(missing.text).toMatch(/^Error: Device 'dev_nope' not found/m);
    const invalid = await runPty(['api', '/api-keys/', '-X', 'POST', '-f', 'nom=x'], { cols: 80, env });
    expect(invalid.code).toBe(2);
    for (const r of [rejected, missing, invalid]) expect(crashed(r.output)).toBe(false);
  });

  it.each(WIDTHS)('tables and help never pass %i columns', async (cols) => {
    sb.state.keys.push({
      id: 'key_long',
      name: 'a-name-that-is-much-longer-than-any-column-could-hold-41',
      key: 'wsk_longlonglong',
      key_prefix: 'wsk_long',
      created_at: new Date().toISOString(),
      last_used_at: null,
    });
    const cases = [
      ['keys', 'list'],
      ['caps'],
      ['settings'],
      ['persona', 'versions', 'persona_demo'],
      ['--help'],
      ['conn', '--help'],
      ['byok', 'add', '--help'],
    ];
    const results = await atOnce(cases, AT_ONCE, (args) => runPty(args, { cols, env }));
    for (const [i, r] of results.entries()) {
      const args = cases[i]!;
      expect(r.code, args.join(' ')).toBe(0);
      // Help examples are commands to paste: they stay whole.
      const wide = tooWide(r.text, cols).filter((line) => !line.trimStart().startsWith('$ '));
      expect(wide, `${args.join(' ')} at ${cols}`).toEqual([]);
    }
    const keys = results[0]!; // keys list, with key_long
    expect(keys.text).toMatch(/key_long +a-na/);
    expect(keys.text).toContain('wsk_long');
    if (cols < 100) expect(keys.text).toContain('…');
  });

  it('a 10 MB name renders at once and is cut to fit', async () => {
    sb.state.keys.push({
      id: 'key_huge',
      name: 'n'.repeat(10 * 1024 * 1024),
      key: 'wsk_hugehugehuge',
      key_prefix: 'wsk_huge',
      created_at: new Date().toISOString(),
      last_used_at: null,
    });
    const r = await runPty(['keys', 'list'], { cols: 80, env, timeoutS: 15 });
    expect(r.code).toBe(0);
    expect(r.text).toMatch(/key_huge +n+… +wsk_huge/);
    expect(tooWide(r.text, 80)).toEqual([]);
    sb.state.keys = sb.state.keys.filter((k) => k.id !== 'key_huge');
  });
});

describe('prompts on a terminal', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('the hidden key prompt edits like a shell: backspace, Ctrl-U, Ctrl-W, arrows and a paste', async () => {
    const dir = tempDir();
    const r = await runPty(['auth', 'login', '--no-verify', '--insecure-storage'], {
      cols: 80,
      env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url },
      steps: [
        ['input hidden', 'garbage typed first'],
        [50, '\x15'], // Ctrl-U: the whole line goes
        [50, 'wsk_paste'],
        [50, 'd_key extra'],
        [50, '\x17'], // Ctrl-W: "extra" goes, the space stays
        [50, '\x7f'], // Backspace: the space
        [50, '\x1b[D\x1b[C\x1b[A'], // arrows: ignored
        [50, '_XY\x7f\x7f\r'],
      ],
    });
    expect(r.code, r.text).toBe(0);
    expect(r.text).not.toContain('wsk_paste');
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.profiles.default.api_key).toBe('wsk_pasted_key_');
  });

  it('--with-key on a terminal asks with input hidden instead of echoing the key', async () => {
    const dir = tempDir();
    const r = await runPty(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage'], {
      cols: 80,
      env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url },
      steps: [['input hidden', 'wsk_secret_typed_here\r']],
    });
    expect(r.code).toBe(0);
    expect(r.text).not.toContain('wsk_secret_typed_here');
  });

  it('Ctrl-C at the key prompt exits 130 at once, on a fresh line', async () => {
    const started = Date.now();
    const r = await runPty(['auth', 'login'], {
      cols: 80,
      env: { WSCTL_CONFIG_DIR: tempDir(), WSCTL_BASE_URL: sb.url },
      steps: [['input hidden', 'wsk_half\x03']],
    });
    expect(r.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.text).toMatch(/input hidden\): \n/);
    expect(crashed(r.output)).toBe(false);
  });

  it('[y/N] answered y removes, n cancels (exit 2, no Error:), Ctrl-C exits 130', async () => {
    const env = sb.env;
    const yes = await runPty(['device', 'rm', 'dev_phone'], { cols: 80, env, steps: [['[y/N]', 'y\r']] });
    expect(yes.code).toBe(0);
    expect(yes.text).toMatch(
      /Remove device 'dev_phone' \((?:current |default )?profile '[^']+',\s+http:\/\/127\.0\.0\.1:\d+\)\? \[y\/N\] y/,
    );
    expect(yes.text).toContain("Removed device 'dev_phone'.");
    const no = await runPty(['pub', 'rm', 'pub_demo'], { cols: 80, env, steps: [['[y/N]', 'n\r']] });
    expect(no.code).toBe(2);
    expect(no.text).toMatch(/^Cancelled: nothing was sent\.$/m);
    expect(no.text).not.toContain('Error:');
    const interrupted = await runPty(['conn', 'rm', 'gmail', 'pdc_gmail'], { cols: 80, env, steps: [['[y/N]', '\x03']] });
    expect(interrupted.code).toBe(130);
    expect(sb.requests.filter((q) => q.method === 'DELETE').map((q) => q.path)).toEqual(['/devices/dev_phone']);
  });

  it('--no-input and WSCTL_NO_INPUT=1 never prompt: exit 2 naming what answers instead', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['device', 'rm', 'dev_laptop', '--no-input'], {}, /--yes/],
      [['device', 'rm', 'dev_laptop'], { WSCTL_NO_INPUT: '1' }, /--yes/],
      [['auth', 'login', '--no-input'], { WSCTL_BASE_URL: sb.url }, /--with-key/],
      // stdin is the terminal: reading the key there would echo it.
      [['auth', 'login', '--with-key', '--no-input'], { WSCTL_BASE_URL: sb.url }, /pipe the key in with --with-key/],
      [
        ['byok', 'add', '--name', 'x', '--provider-url', 'https://p.example', '--format', 'groq', '--model', 'm', '--no-input'],
        {},
        /--api-key-stdin.*WSCTL_BYOK_API_KEY/,
      ],
    ];
    const results = await atOnce(cases, AT_ONCE, ([args, extra]) =>
      runPty(args, { cols: 80, env: { ...sb.env, WSCTL_CONFIG_DIR: tempDir(), ...extra } }),
    );
    for (const [i, [args, , named]] of cases.entries()) {
      const r = results[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      // The message wraps at the terminal's width: read as one line.
      expect(r.text.replace(/\n/g, ' ')).toMatch(named);
      expect(r.text).not.toContain('[y/N]');
      expect(r.text).not.toContain('input hidden');
    }
  });
});
