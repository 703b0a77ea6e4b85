import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { BIN, run, runBin, startSandbox, strip, tempDir, type TestSandbox } from '../helpers.js';
import { runPty } from '../terminal/pty.js';

describe('auth', () => {
  let sb: TestSandbox;
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    sb = await startSandbox();
    dir = sb.env.WSCTL_CONFIG_DIR;
    env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url };
  });
  const config = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

  it('login --with-key reads stdin, verifies with GET /api-keys/, and saves a 0600 file', async () => {
    const r = await run(['auth', 'login', '--with-key'], { env, stdin: `${sb.key}\nignored\n` });
    expect(r.code).toBe(0);
    expect(sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api-keys/']);
    expect(sb.requests[0]!.headers.authorization).toBe(`Bearer ${sb.key}`);
    expect(config()).toEqual({ current_profile: 'default', profiles: { default: { base_url: sb.url, api_key: sb.key } } });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(r.stdout).toContain(`Logged in to ${sb.url} as profile 'default'`);
    expect(r.stdout).not.toContain(sb.key);
    expect(r.stdout).toContain(`${sb.key.slice(0, 4)}…${sb.key.slice(-4)}`);
  });

  it('login --json prints profile, base_url and the masked key', async () => {
    const r = await run(['auth', 'login', '--with-key', '--profile', 'work', '--json'], { env, stdin: sb.key });
    expect(JSON.parse(r.stdout)).toEqual({ profile: 'work', base_url: sb.url, key: `${sb.key.slice(0, 4)}…${sb.key.slice(-4)}` });
  });

  it('a rejected key saves nothing and exits 4', async () => {
    const r = await run(['auth', 'login', '--with-key'], { env, stdin: 'wsk_wrongwrongwrong\n' });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('nothing was saved');
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('--no-verify saves without a request', async () => {
    const r = await run(['auth', 'login', '--with-key', '--no-verify'], { env, stdin: 'wsk_unverified_key_1234' });
    expect(r.code).toBe(0);
    expect(sb.requests).toHaveLength(0);
    expect(config().profiles.default.api_key).toBe('wsk_unverified_key_1234');
  });

  it('without --with-key and without a terminal it exits 2', async () => {
    const r = await run(['auth', 'login'], { env, stdin: sb.key });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-key');
  });

  it('on a terminal it asks with a hidden prompt', async () => {
    const r = await run(['auth', 'login'], { env, tty: true, stdinTTY: true, answers: [sb.key] });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['Paste your API key (input hidden): ']);
    expect(config().profiles.default.api_key).toBe(sb.key);
  });

  it('refuses a key with whitespace or newlines inside (exit 2)', async () => {
    for (const bad of ['wsk_abc def_123456', 'wsk_abc\tdef123456', '']) {
      const r = await run(['auth', 'login', '--with-key'], { env, stdin: bad });
      expect(r.code, JSON.stringify(bad)).toBe(2);
    }
    expect(sb.requests).toHaveLength(0);
  });

  it('login without a base URL exits 4 and says how to set one', async () => {
    const r = await run(['auth', 'login', '--with-key'], { env: { WSCTL_CONFIG_DIR: dir }, stdin: sb.key });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('--base-url');
  });

  it('status reports profile, base URL, key source, masked key and validity', async () => {
    await run(['auth', 'login', '--with-key'], { env, stdin: sb.key });
    const r = await run(['auth', 'status'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    const masked = `${sb.key.slice(0, 4)}…${sb.key.slice(-4)}`;
    expect(r.stdout).toBe(
      `profile\tdefault\nprofile_source\tcurrent\nbase_url\t${sb.url}\nkey_source\tprofile\nkey_storage\tfile\nkey\t${masked}\nvalid\ttrue\nagents\tfull\n`,
    );
    const json = await run(['auth', 'status', '--json'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_API_KEY: sb.key } });
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'default',
      profile_source: 'current',
      base_url: sb.url,
      key_source: 'env',
      key_storage: null,
      key: masked,
      valid: true,
      agents: 'full',
    });
    const tty = await run(['auth', 'status'], { env: { WSCTL_CONFIG_DIR: dir }, tty: true });
    expect(strip(tty.stdout)).toMatch(/^Key source: +profile$/m);
  });

  it('status exits 4 when there is no key or the key is rejected', async () => {
    const none = await run(['auth', 'status', '--json'], { env });
    expect(none.code).toBe(4);
    expect(JSON.parse(none.stdout)).toMatchObject({ key: null, valid: false });
    const bad = await run(['auth', 'status'], { env: { ...env, WSCTL_API_KEY: 'wsk_rejected_rejected' } });
    expect(bad.code).toBe(4);
    expect(bad.stdout).toContain('valid\tfalse');
    expect(bad.stderr).toContain('WSCTL_API_KEY');
    expect(bad.stderr).not.toContain('auth login');
    expect(bad.stdout).not.toContain('wsk_rejected_rejected');
  });

  it('logout forgets the key but keeps the base URL; --all forgets every key', async () => {
    await run(['auth', 'login', '--with-key'], { env, stdin: sb.key });
    await run(['auth', 'login', '--with-key', '--profile', 'work'], { env, stdin: sb.key });
    const r = await run(['auth', 'logout'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(config().profiles.default).toEqual({ base_url: sb.url });
    expect(config().profiles.work.api_key).toBe(sb.key);
    const all = await run(['auth', 'logout', '--all', '--json'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(JSON.parse(all.stdout)).toEqual({ logged_out: ['work'], left_in_credential_store: [] });
    expect(config().profiles.work).toEqual({ base_url: sb.url });
  });

  it('a first login on a terminal asks for the base URL, then the key; the new profile keeps that URL', async () => {
    const config = tempDir();
    const r = await runPty(['auth', 'login', '--profile', 'first', '--no-verify'], {
      cols: 80,
      env: { WSCTL_CONFIG_DIR: config, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
      steps: [
        ['Base URL', `${sb.url}\r`],
        ['API key', `${sb.key}\r`],
      ],
    });
    expect(r.code, r.text).toBe(0);
    expect(r.text.indexOf('Base URL of the service')).toBeGreaterThanOrEqual(0);
    expect(r.text.indexOf('Base URL of the service')).toBeLessThan(r.text.indexOf('Paste your API key'));
    expect(r.text).not.toContain(sb.key);
    expect(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.first).toEqual({ base_url: sb.url, api_key: sb.key });
  });

  it("off a terminal, a login with no base URL names --base-url; the README's example works as pasted", async () => {
    const config = tempDir();
    const bare = await runBin(['auth', 'login', '--with-key', '--profile', 'ci'], { env: { WSCTL_CONFIG_DIR: config }, stdin: sb.key });
    expect(bare.code).toBe(4);
    expect(bare.stderr).toBe(
      "Error: No base URL for profile 'ci': pass --base-url <url> (or set WSCTL_BASE_URL), e.g. `wsctl auth login --profile ci --base-url https://api.example.com`.\n",
    );
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    const example = /^echo "\$WS_KEY" \| wsctl auth login --with-key --profile ci (--base-url \S+)/m.exec(readme);
    expect(example, 'the README example names --base-url').not.toBeNull();
    const pasted = await runBin(['auth', 'login', '--with-key', '--profile', 'ci', '--base-url', sb.url, '--insecure-storage'], {
      env: { WSCTL_CONFIG_DIR: config },
      stdin: sb.key,
    });
    expect(pasted.code, pasted.stderr).toBe(0);
  });

  it.each([
    ['€', 'wsk_euro€sign_12345'],
    ['U+200B', 'wsk_zero\u200bwidth_12345'],
    ['U+00A0', 'wsk_nb\u00a0space_12345'],
  ])('a key with %s is refused at login (exit 2), nothing sent or saved', async (_what, bad) => {
    const r = await runBin(['auth', 'login', '--with-key'], { env: { ...env }, stdin: bad });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: The API key contains (?:characters other than printable ASCII|whitespace or control characters)/);
    expect(sb.requests).toHaveLength(0);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it.each([
    [
      '"api_key": {"x":1}',
      { profiles: { default: { base_url: 'http://127.0.0.1:1', api_key: { x: 1 } } } },
      '"api_key" of profile "default" is not a string',
    ],
    ['a base_url that is a number', { profiles: { default: { base_url: 42 } } }, '"base_url" of profile "default" is not a string'],
    ['an unknown key_storage', { profiles: { default: { key_storage: 'vault' } } }, '"key_storage" of profile "default" is not "keyring"'],
  ])('config with %s is reported like a file that cannot be parsed (exit 1, untouched)', async (_what, data, why) => {
    const folder = tempDir();
    const { writeFileSync } = await import('node:fs');
    const text = JSON.stringify(data);
    writeFileSync(join(folder, 'config.json'), text, { mode: 0o600 });
    for (const args of [
      ['auth', 'token'],
      ['profile', 'list'],
      ['auth', 'login', '--with-key', '--no-verify', '--base-url', sb.url],
    ]) {
      const r = await runBin(args, { env: { WSCTL_CONFIG_DIR: folder }, stdin: sb.key });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `Error: Config file ${join(folder, 'config.json')} is not valid (${why}). Fix or remove it; wsctl leaves it untouched.\n`,
      );
    }
    expect(readFileSync(join(folder, 'config.json'), 'utf8')).toBe(text);
  });

  describe('a stored key belongs to the base URL stored with it', () => {
    let other: TestSandbox;
    beforeEach(async () => {
      other = await startSandbox();
      await run(['auth', 'login', '--with-key', '--profile', 'prod', '--insecure-storage'], { env, stdin: sb.key });
      sb.requests.length = 0;
    });
    const refused = (profile: string, keyUrl: string, url: string) =>
      `Error: The key stored in profile '${profile}' belongs to ${keyUrl}, not to ${url}: it is not sent there. ` +
      `Log in for that URL (\`wsctl auth login --profile <name> --base-url ${url}\`), or set WSCTL_API_KEY to a key for it.\n`;

    it('WSCTL_BASE_URL or --base-url of another origin: nothing is sent, exit 4 naming both URLs and the ways on', async () => {
      const cases: [string[], Record<string, string>][] = [
        [['keys', 'list', '--profile', 'prod'], { WSCTL_BASE_URL: other.url }],
        [['keys', 'list', '--profile', 'prod', '--base-url', other.url], {}],
        [['device', 'rm', 'dev_phone', '--yes', '--profile', 'prod'], { WSCTL_BASE_URL: other.url }],
        [['auth', 'token', '--profile', 'prod'], { WSCTL_BASE_URL: other.url }],
      ];
      for (const [args, extra] of cases) {
        const r = await runBin(args, { env: { WSCTL_CONFIG_DIR: dir, ...extra } });
        expect([r.code, r.stdout, r.stderr], args.join(' ')).toEqual([4, '', refused('prod', sb.url, other.url)]);
      }
      // Another port or scheme of the same host is another origin too.
      const port = new URL(other.url).port;
      const https = await runBin(['keys', 'list', '--profile', 'prod'], {
        env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: `https://127.0.0.1:${port}` },
      });
      expect(https.code).toBe(4);
      expect([...other.requests, ...sb.requests]).toEqual([]);
    });

    it('status says why, with the key unread (exit 4)', async () => {
      const r = await runBin(['auth', 'status', '--profile', 'prod', '--json'], {
        env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: other.url },
      });
      expect(r.code).toBe(4);
      expect(JSON.parse(r.stdout)).toEqual({
        profile: 'prod',
        base_url: other.url,
        key_source: 'profile',
        key_storage: 'file',
        key: null,
        valid: false,
        agents: 'full',
        profile_source: 'flag',
      });
      expect(r.stderr).toContain(`belongs to ${sb.url}, not to ${other.url}`);
      expect([...other.requests, ...sb.requests]).toEqual([]);
    });

    it('--dry-run shows the request without the key, and says a real run stops', async () => {
      const r = await runBin(['--dry-run', 'keys', 'list', '--profile', 'prod'], {
        env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: other.url },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe(`GET ${other.url}/api-keys/`);
      expect(r.stdout).not.toMatch(/authorization/i);
      expect(r.stderr).toContain(`belongs to ${sb.url}, not to ${other.url}`);
      expect(r.stderr).toContain('exit 4');
    });

    it('the same origin (another path, a trailing slash) gets the key; a key from WSCTL_API_KEY goes to any base URL', async () => {
      const same = await runBin(['keys', 'list', '--profile', 'prod', '--base-url', `${sb.url}/`], { env: { WSCTL_CONFIG_DIR: dir } });
      expect(same.code, same.stderr).toBe(0);
      expect(sb.requests.at(-1)!.headers.authorization).toBe(`Bearer ${sb.key}`);
      const envKey = await runBin(['keys', 'list', '--profile', 'prod'], {
        env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: other.url, WSCTL_API_KEY: other.key },
      });
      expect(envKey.code, envKey.stderr).toBe(0);
      expect(other.requests.map((q) => q.headers.authorization)).toEqual([`Bearer ${other.key}`]);
    });
  });

  it.each(['~/.wsctl', '~', '~someone/cfg'])(
    'WSCTL_CONFIG_DIR=%s (no shell expanded the ~) is exit 2 naming the variable; no folder named ~ is made',
    async (value) => {
      const cwd = tempDir();
      const { spawnSync } = await import('node:child_process');
      const { readdirSync } = await import('node:fs');
      for (const args of [
        ['auth', 'login', '--with-key', '--no-verify', '--base-url', sb.url],
        ['profile', 'list'],
        ['--sandbox', 'keys', 'list'],
      ]) {
        const r = spawnSync(process.execPath, [BIN, ...args], {
          cwd,
          input: sb.key,
          encoding: 'utf8',
          // The cache folder apart (Node 20's code cache is kept there): nothing may be written in cwd.
          env: { PATH: process.env.PATH, HOME: cwd, XDG_CACHE_HOME: tempDir(), WSCTL_CONFIG_DIR: value },
        });
        expect(r.status, args.join(' ')).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(new RegExp(`^Error: Invalid WSCTL_CONFIG_DIR '${value}': a leading ~ is not expanded`));
      }
      expect(readdirSync(cwd)).toEqual([]);
    },
  );
});
