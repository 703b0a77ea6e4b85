// The sandbox's own edges, on the built bin/wsctl with real processes: parallel detached starts,
// a --state that is not the running server's, `sandbox stop` and a pid that is no longer the
// server's, and damaged state files.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runBin, tempDir } from '../helpers.js';

/** Live `sandbox serve` processes serving a state file in dir (a zombie has no command line). */
function serversIn(dir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = argv.indexOf('sandbox');
    if (at >= 0 && argv[at + 1] === 'serve' && argv.some((arg) => arg.startsWith(dir))) pids.push(Number(name));
  }
  return pids;
}

const gone = (pid: number) => !existsSync(`/proc/${pid}/stat`) || readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] === 'Z';

const children: ChildProcess[] = [];
const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function detachedIn(dir: string) {
  const env = { WSCTL_CONFIG_DIR: dir, HOME: dir };
  stops.push(() => runBin(['sandbox', 'stop'], { env }));
  return env;
}

/** A foreground `sandbox serve`, once it has printed its URL and key. */
async function serveInForeground(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(child);
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    reader.on('line', (line) => {
      lines.push(line);
      if (lines.length === 2) resolve();
    });
    child.on('exit', (code) => reject(new Error(`sandbox serve exited with ${code}`)));
  });
  return { child, url: lines[0]!.replace('WSCTL_BASE_URL=', ''), key: lines[1]!.replace('WSCTL_API_KEY=', '') };
}

describe('sandbox serve --detach, run many times at once', () => {
  it('5 in parallel leave exactly one server for the folder, all print its URL and key, and stop stops it', async () => {
    const dir = tempDir();
    const env = detachedIn(dir);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => runBin(['sandbox', 'serve', '--detach'], { env, timeoutMs: 60_000 })),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const printed = new Set(results.map((r) => r.stdout));
    expect(printed.size).toBe(1);
    expect([...printed][0]).toMatch(/^WSCTL_BASE_URL=http:\/\/127\.0\.0\.1:\d+\nWSCTL_API_KEY=wsk_\w+\n/);
    const servers = serversIn(dir);
    expect(servers).toHaveLength(1);
    const stopped = await runBin(['sandbox', 'stop', '--json'], { env });
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(JSON.parse(stopped.stdout)).toMatchObject({ stopped: true, pid: servers[0] });
    expect(gone(servers[0]!)).toBe(true);
    expect(serversIn(dir)).toEqual([]);
  }, 90_000);

  it('--state naming another file than the running server is exit 2, naming the running one; the same file returns it', async () => {
    const dir = tempDir();
    const env = detachedIn(dir);
    const first = await runBin(['sandbox', 'serve', '--detach'], { env });
    expect(first.code, first.stderr).toBe(0);
    const other = await runBin(['sandbox', 'serve', '--detach', '--state', join(dir, 'other.json')], { env });
    expect(other.code).toBe(2);
    expect(other.stdout).toBe('');
    expect(other.stderr).toContain(
      `already runs on ${/WSCTL_BASE_URL=(.+)/.exec(first.stdout)![1]} with state ${join(dir, 'sandbox.json')}`,
    );
    expect(other.stderr).toContain('wsctl sandbox stop');
    const same = await runBin(['sandbox', 'serve', '--detach', '--state', join(dir, 'sandbox.json')], { env });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toBe(first.stdout);
    expect(serversIn(dir)).toHaveLength(1);
  }, 60_000);
});

describe('sandbox stop signals only the server it started', () => {
  /**
   * The server recorded in sandbox-serve.json died; another sandbox now answers on its URL with
   * the same key (same state file), and an unrelated process holds the recorded pid.
   */
  async function reusedPid(dir: string, startOf: (bystander: number) => string | undefined) {
    const env = detachedIn(dir);
    expect((await runBin(['sandbox', 'serve', '--detach'], { env })).code).toBe(0);
    const record = JSON.parse(readFileSync(join(dir, 'sandbox-serve.json'), 'utf8'));
    process.kill(record.pid, 'SIGKILL');
    for (let waited = 0; !gone(record.pid) && waited < 5000; waited += 20) await sleep(20);
    const port = new URL(record.url).port;
    const other = await serveInForeground(['--port', port], env);
    expect([other.url, other.key]).toEqual([record.url, record.key]);
    const signals = join(dir, 'signals.txt');
    const bystander = spawn(process.execPath, [
      '-e',
      `for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => require('fs').appendFileSync(${JSON.stringify(signals)}, s + '\\n')); setInterval(() => {}, 1000); console.log('ready')`,
    ]);
    children.push(bystander);
    await new Promise((resolve) => bystander.stdout.once('data', resolve));
    writeFileSync(join(dir, 'sandbox-serve.json'), JSON.stringify({ ...record, pid: bystander.pid, start: startOf(bystander.pid!) }));
    return { env, other, bystander, signals };
  }

  const startTime = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  };

  it.each([
    ['a start time that is not the recorded one', () => undefined],
    ["the pid's own start time, but not the nonce the server told its starter", (pid: number) => startTime(pid)],
  ])(
    'a reused pid with the same URL and key answering (%s): nothing is signalled, exit 0 with a warning',
    async (_, startOf) => {
      const dir = tempDir();
      const { env, other, bystander, signals } = await reusedPid(dir, startOf);
      const r = await runBin(['sandbox', 'stop'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('No sandbox server was running.\n');
      expect(r.stderr).toMatch(
        new RegExp(
          `^! The recorded sandbox server \\(pid ${bystander.pid}, ${other.url.replace(/\./g, '\\.')}\\) could not be proven to be the one started here; no process was signalled`,
          'm',
        ),
      );
      await sleep(100);
      expect(existsSync(signals) ? readFileSync(signals, 'utf8') : '').toBe('');
      expect(bystander.exitCode).toBeNull();
      expect(bystander.signalCode).toBeNull();
      expect(other.child.exitCode).toBeNull();
      expect(existsSync(join(dir, 'sandbox-serve.json'))).toBe(false);
    },
    60_000,
  );
});

describe('a damaged state file', () => {
  const seeded = async (dir: string) => {
    expect((await runBin(['sandbox', 'reset'], { env: { WSCTL_CONFIG_DIR: dir } })).code).toBe(0);
    return JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'));
  };

  // A seeded state file, damaged by hand: its shape is whatever the test makes of it.
  type Loose = {
    keys: unknown[];
    devices: unknown[];
    conversations: Record<string, { messages: unknown[] }>;
    websites?: unknown;
    pages: Record<string, unknown>;
  };
  it.each([
    ['a null key', (s: Loose) => void (s.keys = [null]), 'keys[0] is null, not an object', ['keys', 'list']],
    ['a null device', (s: Loose) => void s.devices.push(null), 'devices[2] is null, not an object', ['device', 'rm', 'dev_phone', '--yes']],
    [
      'a null message',
      (s: Loose) => void (s.conversations.conv_demo.messages[1] = null),
      'conversations.conv_demo.messages[1] is null, not an object',
      ['convo', 'show', 'conv_demo'],
    ],
    ['a missing collection', (s: Loose) => void delete s.websites, "no 'websites' list", ['site', 'create', 'x']],
    [
      'a page without its title',
      (s: Loose) => void (s.pages.page_demo = {}),
      'pages.page_demo.title is missing',
      ['notes', 'import', 'page_demo'],
    ],
  ])('%s: --sandbox reports it, names the file and `sandbox reset`, exit 1, file untouched', async (_, damage, said, args) => {
    const dir = tempDir();
    const state = await seeded(dir);
    damage(state);
    const text = JSON.stringify(state);
    writeFileSync(join(dir, 'sandbox.json'), text);
    const r = await runBin(['--sandbox', ...args], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Error: Sandbox state ${join(dir, 'sandbox.json')} is damaged (${said}). Run \`wsctl sandbox reset\` to start over; it was left untouched.\n`,
    );
    expect(readFileSync(join(dir, 'sandbox.json'), 'utf8')).toBe(text);
  });

  it('sandbox serve --state f.json: the hint names what fixes that file, not `sandbox reset` (which resets another)', async () => {
    const dir = tempDir();
    const file = join(dir, 'f.json');
    writeFileSync(file, JSON.stringify({ version: 1, bootstrap_key: 'wsk_x', keys: [null] }));
    for (const extra of [[], ['--detach']]) {
      const r = await runBin(['sandbox', 'serve', '--state', file, ...extra], { env: { WSCTL_CONFIG_DIR: dir } });
      expect(r.code, extra.join(' ')).toBe(1);
      expect(r.stderr).toBe(
        `Error: Sandbox state ${file} is damaged (keys[0] is null, not an object). Fix it, or remove it to start over from the seeded state; it was left untouched.\n`,
      );
    }
    writeFileSync(file, '{"version": 1, ');
    const broken = await runBin(['sandbox', 'serve', '--state', file], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(broken.stderr).toBe(
      `Error: Sandbox state ${file} is not valid JSON. Fix it, or remove it to start over from the seeded state; it was left untouched.\n`,
    );
  });

  it('sandbox serve --state in a folder that does not exist: exit 2, and no folder is made', async () => {
    const dir = tempDir();
    const typo = join(dir, 'typo', 'deeper');
    for (const extra of [[], ['--detach'], ['--dry-run']]) {
      const r = await runBin(['sandbox', 'serve', '--state', join(typo, 'x.json'), ...extra], { env: { WSCTL_CONFIG_DIR: dir } });
      expect([r.code, r.stdout], extra.join(' ')).toEqual([2, '']);
      expect(r.stderr).toBe(
        `Error: The folder of --state '${join(typo, 'x.json')}' does not exist (${typo}): create it first, or give a file in an existing folder.\n`,
      );
    }
    expect(existsSync(join(dir, 'typo'))).toBe(false);
    expect(serversIn(dir)).toEqual([]);
  });

  // Tests run as root, which chmod does not stop: a config dir that is a file, one below a file,
  // and sysfs (which refuses new files to root too) stand for folders that cannot be written.
  it('--sandbox and sandbox reset with a config folder that cannot be written: one line naming it, exit 1', async () => {
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, 'x');
    const cases: [string, RegExp][] = [
      [file, new RegExp(`^Error: The config folder ${file} is a file, not a folder: `)],
      [join(file, 'config'), new RegExp(`^Error: The config folder ${join(file, 'config')} is a file, not a folder: `)],
      ['/sys/kernel', /^Error: Cannot write the config folder \/sys\/kernel: you may not write to it\. /],
      ['/proc/wsctl-config', /^Error: Cannot create the config folder \/proc\/wsctl-config\. /],
    ];
    for (const [dir, said] of cases) {
      for (const args of [
        ['--sandbox', 'keys', 'list'],
        ['sandbox', 'reset'],
      ]) {
        const r = await runBin(args, { env: { WSCTL_CONFIG_DIR: dir, HOME: tempDir() }, timeoutMs: 20_000 });
        expect([r.code, r.stdout], `${dir}: ${args.join(' ')}`).toEqual([1, '']);
        expect(r.stderr, `${dir}: ${args.join(' ')}`).toMatch(said);
        expect(r.stderr.split('\n')).toHaveLength(2);
        expect(r.stderr).not.toMatch(/Unexpected error|EEXIST|ENOTDIR|EROFS|EACCES/);
      }
    }
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  // A read-only file system: a read-only bind mount of the folder, in a mount namespace of its own.
  const canMountReadOnly =
    spawnSync('unshare', ['-rm', 'sh', '-c', 'mount --bind -o ro / / 2>/dev/null || mount --bind -o ro /tmp /tmp']).status === 0;
  it.skipIf(!canMountReadOnly)('--sandbox and sandbox reset on a read-only file system: one line naming the folder, exit 1', async () => {
    const dir = tempDir();
    for (const [args, sub] of [
      [['--sandbox', 'keys', 'list'], ''],
      [['sandbox', 'reset'], ''],
      [['sandbox', 'reset'], 'sub'],
    ] as const) {
      const where = sub ? join(dir, sub) : dir;
      const r = spawnSync(
        'unshare',
        ['-rm', 'sh', '-c', `mount --bind -o ro "$0" "$0" && exec "$@"`, dir, process.execPath, BIN, ...args],
        { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, WSCTL_CONFIG_DIR: where } },
      );
      expect([r.status, r.stdout], args.join(' ')).toEqual([1, '']);
      expect(r.stderr).toBe(
        `Error: Cannot write the config folder ${where}: it is on a read-only file system. Nothing was saved. Make it writable, or set WSCTL_CONFIG_DIR to a folder you can write.\n`,
      );
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('damaged while a server runs: each request is a 500 that says so, never a JavaScript message', async () => {
    const dir = tempDir();
    const file = join(dir, 'f.json');
    const server = await serveInForeground(['--state', file], { WSCTL_CONFIG_DIR: dir });
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: server.url, WSCTL_API_KEY: server.key };
    expect((await runBin(['keys', 'list'], { env })).code).toBe(0);
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.devices.push(null);
    writeFileSync(file, JSON.stringify(state));
    const r = await runBin(['device', 'rm', 'dev_phone', '--yes'], { env: { ...env, WSCTL_RETRY_BASE_MS: '1' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Sandbox error: Sandbox state ${file} is damaged (devices[2] is null, not an object)`);
    expect(r.stderr).not.toMatch(/Cannot read|properties of|TypeError|undefined/);
  });
});

describe("sandbox serve without --port takes the previous server's port", () => {
  it('a restarted detached server keeps its URL, so a profile logged in to it keeps working', async () => {
    const dir = tempDir();
    const env = detachedIn(dir);
    const first = await runBin(['sandbox', 'serve', '--detach'], { env });
    expect(first.code, first.stderr).toBe(0);
    const url = first.stdout.split('\n')[0]!.replace('WSCTL_BASE_URL=', '');
    const key = first.stdout.split('\n')[1]!.replace('WSCTL_API_KEY=', '');
    const login = await runBin(['auth', 'login', '--base-url', url, '--with-key', '--insecure-storage'], { env, stdin: `${key}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect((await runBin(['sandbox', 'stop'], { env })).code).toBe(0);
    const again = await runBin(['sandbox', 'serve', '--detach'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.split('\n')[0]).toBe(`WSCTL_BASE_URL=${url}`);
    const status = await runBin(['auth', 'status', '--json'], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ base_url: url, valid: true });
  });

  it('a foreground server does too; when that port is taken, any free one', async () => {
    const dir = tempDir();
    const env = { WSCTL_CONFIG_DIR: dir, HOME: dir };
    const first = await serveInForeground([], env);
    first.child.kill('SIGINT');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const second = await serveInForeground([], env);
    expect(second.url).toBe(first.url);
    // While it still runs, a third server for the folder cannot have that port: it takes another.
    const third = await serveInForeground([], env);
    expect(third.url).not.toBe(first.url);
    expect(third.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('an explicit --port that is taken is exit 2 with one line, not a crash', async () => {
    const dir = tempDir();
    const env = { WSCTL_CONFIG_DIR: dir, HOME: dir };
    const running = await serveInForeground(['--port', '0'], env);
    const port = new URL(running.url).port;
    const r = await runBin(['sandbox', 'serve', '--port', port, '--state', join(dir, 'other.json')], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is in use`);
  });
});
