// Commands end to end: the built bin/wsctl as a child process, as users and CI run it. Every verb's
// samples run this way in test/service.test.ts (exit 0, the endpoints it declares); here, what
// people read from these commands.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { visibleSubcommands } from '../src/common/visible.js';
import { BIN, noStackTrace, ROOT, runBin, startSandbox, tempDir, type TestSandbox } from './helpers.js';

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', name);

describe('bin/wsctl against a sandbox server', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  const humanOutput: [string[], RegExp][] = [
    [['keys', 'create', 'e2e'], /^id\tkey_/],
    [['keys', 'list'], /\te2e\t/],
    [['settings'], /^name\t\nsuggested_name\tAlex\n/],
    [['convo', 'show', 'conv_demo'], /^title\tPlan the Lisbon team offsite/],
    [['convo', 'show', 'conv_demo', '--markdown'], /^# Plan the Lisbon team offsite/],
    [['caps'], /^number\t\+14155550123/],
    [['notes', 'import', 'page_demo', '--to', 'x/y'], /^x\/y\/offsite-agenda\.md$/],
    [['conn', 'set-permission', 'notion', 'pdc_notion', 'read'], /^Set the permission/],
    [['persona', 'versions', 'persona_demo'], /^pv_demo_3\t/],
    [['persona', 'upload-avatar', fixture('avatar.png')], /^http:\/\/127\.0\.0\.1:\d+\/uploads\//],
    [['site', 'create', 'e2e-site', '--variant', 'blog'], /^name\te2e-site/],
    [['api', '/settings/'], /"timezone": "Europe\/Lisbon"/],
    [['device', 'rm', 'dev_laptop', '--yes'], /^Removed device 'dev_laptop'\.$/],
    [['pub', 'rm', 'pub_demo', '--yes'], /^Unpublished 'pub_demo'\.$/],
    [['conn', 'rm', 'notion', 'pdc_notion', '--yes'], /^Removed connection notion\/pdc_notion\.$/],
  ];

  it.each(humanOutput)('%j', async (args, expected) => {
    const r = await runBin(args, { env: sb.env });
    expect(r.stderr.includes('Error') ? r.stderr : '').toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(expected);
  });

  it('byok add with the key from stdin, masked', async () => {
    const r = await runBin(
      [
        'byok',
        'add',
        '--name',
        'e2e',
        '--provider-url',
        'https://api.openai.com/v1',
        '--format',
        'openai',
        '--model',
        'gpt-4.1',
        '--api-key-stdin',
      ],
      {
        env: sb.env,
        stdin: 'sk-e2e-0123456789abcdef\n',
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('api_key\tsk-e…cdef');
    expect(r.stdout).not.toContain('sk-e2e-0123456789abcdef');
  });

  it('byok add refuses a plain http:// provider URL to a remote host (exit 2, nothing sent), and takes loopback', async () => {
    const before = sb.requests.length;
    const add = (url: string) =>
      runBin(['byok', 'add', '--name', 'e2e', '--provider-url', url, '--format', 'openai', '--model', 'm'], {
        env: { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-e2e-0123456789abcdef' },
      });
    for (const url of ['http://llm.example.com/v1', 'http://10.0.0.5:8000/v1', 'http://[fd00::1]/v1']) {
      const r = await add(url);
      expect(r.code, url).toBe(2);
      expect(r.stderr, url).toContain('Refusing plain http://');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(sb.requests.length).toBe(before);
    for (const url of ['http://127.0.0.1:11434/v1', 'http://localhost:8000/v1', 'http://[::1]:8000'])
      expect((await add(url)).code, url).toBe(0);
  });

  it('conn set-permission refused: the message claims no set of permissions the interface does not give', async () => {
    const r = await runBin(['conn', 'set-permission', 'gmail', 'pdc_gmail', 'owner'], { env: sb.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("did not change the permission of gmail/pdc_gmail to 'owner'");
    expect(r.stderr).not.toMatch(/Permissions it knows|read, write, full/);
  });

  it('--json on every read command is one parseable document', async () => {
    for (const args of [
      ['keys', 'list'],
      ['settings'],
      ['caps'],
      ['convo', 'show', 'conv_demo'],
      ['persona', 'versions', 'persona_demo'],
    ]) {
      const r = await runBin([...args, '--json'], { env: sb.env });
      expect(r.code, args.join(' ')).toBe(0);
      expect(() => JSON.parse(r.stdout)).not.toThrow();
    }
  });

  it('auth login, status, logout and profile list, use, rm', async () => {
    const dir = tempDir();
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url };
    const login = await runBin(['auth', 'login', '--with-key', '--profile', 'e2e'], { env, stdin: `${sb.key}\n` });
    expect(login.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.e2e.api_key).toBe(sb.key);
    expect((await runBin(['auth', 'status', '--profile', 'e2e'], { env: { WSCTL_CONFIG_DIR: dir } })).stdout).toContain('valid\ttrue');
    expect((await runBin(['profile', 'list'], { env: { WSCTL_CONFIG_DIR: dir } })).stdout).toBe(`e2e\t${sb.url}\ttrue\ttrue\tfull\n`);
    expect((await runBin(['profile', 'use', 'e2e'], { env: { WSCTL_CONFIG_DIR: dir } })).code).toBe(0);
    expect((await runBin(['auth', 'logout'], { env: { WSCTL_CONFIG_DIR: dir } })).code).toBe(0);
    expect((await runBin(['auth', 'status'], { env: { WSCTL_CONFIG_DIR: dir } })).code).toBe(4);
    expect((await runBin(['profile', 'rm', 'e2e'], { env: { WSCTL_CONFIG_DIR: dir } })).code).toBe(0);
  });

  it('auth status with the service down shows the profile, URL and storage, says why, and exits 3 ("valid": null)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const env = { WSCTL_CONFIG_DIR: tempDir(), WSCTL_TIMEOUT: '2' };
    const login = await runBin(
      ['auth', 'login', '--profile', 'down', '--base-url', url, '--with-key', '--no-verify', '--insecure-storage'],
      { env, stdin: 'wsk_down_0123456789abcdef\n' },
    );
    expect(login.code, login.stderr).toBe(0);
    const piped = await runBin(['auth', 'status', '--profile', 'down'], { env });
    expect(piped.code).toBe(3);
    expect(piped.stdout).toContain('profile\tdown\n');
    expect(piped.stdout).toContain(`base_url\t${url}\n`);
    expect(piped.stdout).toContain('key_storage\tfile\n');
    expect(piped.stdout).toContain('key\twsk_…cdef\n');
    expect(piped.stderr).toMatch(/Could not check the key: Cannot reach/);
    const json = await runBin(['auth', 'status', '--profile', 'down', '--json'], { env });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      profile: 'down',
      base_url: url,
      key_source: 'profile',
      key_storage: 'file',
      key: 'wsk_…cdef',
      valid: null,
    });
  });

  it('usage errors exit 2 with one short line and no stack trace; with --json as a JSON document', async () => {
    const r = await runBin(['keys', 'list', '--bogus'], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("Unknown option '--bogus'");
    expect(r.stderr).toContain('wsctl keys list --help');
    const json = await runBin(['nope', '--json'], { env: sb.env });
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr).error.exit_code).toBe(2);
    expect(noStackTrace(json.stderr)).toBe(true);
    // --debug adds the stack, under the error's class as the source names it (the build minifies names).
    const debug = await runBin(['--debug', 'keys', 'get', 'nope'], { env: sb.env });
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(/^UsageError: unknown command 'get'.*\n\s+at /m);
  });

  it('every error class keeps the name its source gives it, which the build would minify', async () => {
    const errors = await import('../src/errors.js');
    const classes = Object.entries(errors).filter((entry): entry is [string, typeof errors.WsctlError] => {
      const value = entry[1];
      return typeof value === 'function' && (value === errors.WsctlError || value.prototype instanceof errors.WsctlError);
    });
    expect(classes.length).toBeGreaterThan(5);
    for (const [name, kind] of classes) expect(Object.hasOwn(kind.prototype, 'name') && kind.prototype.name, name).toBe(name);
  });

  it('--version and --help', async () => {
    const version = await runBin(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const help = await runBin(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    const sub = await runBin(['convo', 'show', '--help']);
    expect(sub.stdout.trimEnd()).toMatch(/Examples:\n( {2}\$ wsctl .+\n?){2,3}$/);
    expect(sub.stdout).toContain('--json');
  });
});

describe('the embedded sandbox', () => {
  it('--sandbox keys create then keys list shows the new key; state persists; reset restores it', async () => {
    const env = { WSCTL_CONFIG_DIR: tempDir() };
    expect((await runBin(['--sandbox', 'keys', 'create', 'ci'], { env })).code).toBe(0);
    const list = await runBin(['--sandbox', 'keys', 'list'], { env });
    expect(list.stdout).toMatch(/\tci\t/);
    expect(existsSync(join(env.WSCTL_CONFIG_DIR, 'sandbox.json'))).toBe(true);
    expect((await runBin(['keys', 'list', '--sandbox'], { env: { ...env, WSCTL_SANDBOX: '1' } })).stdout).toMatch(/\tci\t/);
    expect((await runBin(['sandbox', 'reset'], { env })).code).toBe(0);
    expect((await runBin(['--sandbox', 'keys', 'list'], { env })).stdout).not.toMatch(/\tci\t/);
  });

  it('sandbox serve prints WSCTL_BASE_URL and WSCTL_API_KEY first, serves until interrupted', async () => {
    const state = join(tempDir(), 'state.json');
    const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--state', state], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const reader = createInterface({ input: child.stdout });
    await new Promise<void>((resolve) => {
      reader.on('line', (line) => {
        lines.push(line);
        if (lines.length === 2) resolve();
      });
    });
    expect(lines[0]).toMatch(/^WSCTL_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toMatch(/^WSCTL_API_KEY=wsk_\w+$/);
    const env = Object.fromEntries(lines.map((l) => l.split('=') as [string, string]));
    const r = await runBin(['caps', '--json'], { env });
    expect(r.code).toBe(0);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});

describe('sandbox serve --detach and sandbox stop', () => {
  it('eval "$(wsctl sandbox serve --detach)" exports the URL and key; a reset keeps the key; stop ends the server', async () => {
    const home = tempDir();
    const env = { PATH: process.env.PATH ?? '', HOME: home, WSCTL_CONFIG_DIR: join(home, 'config') };
    const script = `set -e
      wsctl() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }
      eval "$(wsctl sandbox serve --detach)"
      wsctl keys create before-reset >/dev/null
      wsctl sandbox reset >/dev/null
      wsctl keys list
      echo "pid-$(wsctl sandbox stop --json | tr -d ' \n')"
      wsctl keys list 2>&1 || echo "after-stop-exit-$?"
      wsctl sandbox stop`;
    const r = spawnSync('bash', ['-c', script], { env, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\tsandbox\twsk_/);
    expect(r.stdout).not.toContain('before-reset');
    expect(r.stdout).toMatch(/pid-\{"stopped":true,"pid":\d+,"url":"http:\/\/127\.0\.0\.1:\d+"\}/);
    expect(r.stdout).toContain('after-stop-exit-3');
    const pid = Number(/"pid":(\d+)/.exec(r.stdout)?.[1]);
    // Gone, or exited and waiting for a parent that reaps (here PID 1 may not).
    const state = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] : 'gone';
    expect(['gone', 'Z']).toContain(state);
  });
});

describe('sandbox stop and a pid file that lies', () => {
  it('never signals a process that is not the sandbox server it recorded (a reused pid)', async () => {
    const dir = tempDir();
    const bystander = spawn('sleep', ['30']);
    try {
      writeFileSync(
        join(dir, 'sandbox-serve.json'),
        JSON.stringify({ pid: bystander.pid, url: 'http://127.0.0.1:9', key: 'wsk_x', log: 'x' }),
      );
      const r = await runBin(['sandbox', 'stop'], { env: { WSCTL_CONFIG_DIR: dir } });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('No sandbox server was running.');
      expect(bystander.exitCode).toBeNull();
      expect(() => process.kill(bystander.pid as number, 0)).not.toThrow();
    } finally {
      bystander.kill();
    }
  });
});

describe('help', () => {
  it('every command, noun and verb, ends its help with two or three examples', async () => {
    const { buildProgram, loadCommands } = await import('../src/cli/program.js');
    let text = '';
    const program = buildProgram('0.0.0', { writeOut: (t) => (text += t), writeErr: () => {}, onUsageError: () => {} });
    await loadCommands(program, { run: async () => {}, loadAll: async () => {} }, 'all');
    const visit = (command: typeof program, path: string): void => {
      for (const sub of visibleSubcommands(command)) {
        text = '';
        sub.outputHelp();
        const examples = /Examples:\n((?: {2}\$ .+\n)+)\s*$/.exec(text)?.[1]?.trim().split('\n') ?? [];
        expect(examples.length, `${path} ${sub.name()}`).toBeGreaterThanOrEqual(sub.commands.length > 0 ? 1 : 2);
        expect(examples.length, `${path} ${sub.name()}`).toBeLessThanOrEqual(3);
        visit(sub, `${path} ${sub.name()}`);
      }
    };
    visit(program, 'wsctl');
  });
});
