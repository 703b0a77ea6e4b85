// --dry-run changes nothing (cli.md §1): the verbs that change local state (the config, the
// credential store, the sandbox's files and server) print what they would change and leave the
// config folder as it was, byte for byte, or absent when it was; none of them sends a request.
// The credential store's side is in test/config/keyring.test.ts.
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { seedState } from '../../src/sandbox/seed.js';
import { run, runBin, startSandbox, tempDir, type RunResult, type TestSandbox } from '../helpers.js';

const KEY = 'wsk_dryrun_key_0123456789';
const MASKED = 'wsk_…6789';

/** Every file of the folder: its bytes, mode, inode and mtime (an atomic rewrite of the same bytes is a change too). */
function snapshot(dir: string): Record<string, string> | 'absent' {
  if (!existsSync(dir)) return 'absent';
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const s = lstatSync(path);
      files[path.slice(dir.length)] =
        `${s.mode.toString(8)} ${s.ino} ${s.mtimeMs} ${s.isDirectory() ? '(dir)' : readFileSync(path, 'base64')}`;
      if (s.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return files;
}

/** A folder with two profiles (one current, one with a key in the file) and a sandbox state file. */
function populated(): string {
  const dir = tempDir();
  const config = {
    current_profile: 'work',
    profiles: {
      work: { base_url: 'https://api.example.com', api_key: 'wsk_secretsecretsecret' },
      home: { base_url: 'http://127.0.0.1:9' },
    },
  };
  writeFileSync(join(dir, 'config.json'), `${JSON.stringify(config, null, '\t')}\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'sandbox.json'), JSON.stringify(seedState()), { mode: 0o600 });
  return dir;
}

type Runner = (args: string[], options: { env: Record<string, string>; stdin?: string }) => Promise<RunResult>;
const RUNNERS: [string, Runner][] = [
  ['in process', run],
  ['bin/wsctl', runBin],
];

describe.each(RUNNERS)('--dry-run changes nothing on disk (%s)', (_how, wsctl) => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  /** Runs the dry run in the folder and checks that the folder is as it was and nothing was sent. */
  async function dryRun(dir: string, args: string[], extra: Record<string, string> = {}): Promise<RunResult> {
    const before = snapshot(dir);
    const r = await wsctl([...args, '--dry-run'], {
      env: { WSCTL_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', ...extra },
      stdin: `${KEY}\n`,
    });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    expect(snapshot(dir), args.join(' ')).toEqual(before);
    expect(sb.requests, args.join(' ')).toEqual([]);
    return r;
  }

  it('auth login --no-verify: says what it would save, and saves nothing', async () => {
    const fresh = join(tempDir(), 'cfg');
    const r = await dryRun(fresh, ['auth', 'login', '--with-key', '--no-verify', '--base-url', sb.url]);
    expect(r.stdout).toBe(
      `Would save the key as profile 'default' (base URL ${sb.url}, key ${MASKED}, not verified) in the credential store (or ${fresh}/config.json where none can be reached), and make it the current profile. Nothing was changed (--dry-run).\n`,
    );
    expect(r.stderr).toBe('');
    expect(snapshot(fresh)).toBe('absent');
    const json = await dryRun(fresh, ['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--base-url', sb.url, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ profile: 'default', base_url: sb.url, key: MASKED, key_storage: 'file', dry_run: true });
  });

  it('auth login: the check it would send, the key redacted, then what it would save over an existing folder', async () => {
    const dir = populated();
    const r = await dryRun(dir, ['auth', 'login', '--with-key', '--profile', 'home', '--insecure-storage'], { WSCTL_BASE_URL: sb.url });
    expect(r.stdout.split('\n')).toEqual([
      `GET ${sb.url}/api-keys/`,
      'accept: application/json',
      expect.stringMatching(/^user-agent: wsctl\/\S+$/),
      'authorization: Bearer [redacted]',
      '',
      `If the service accepts the key, would save it as profile 'home' (base URL ${sb.url}, key ${MASKED}) in ${dir}/config.json. Nothing was changed (--dry-run).`,
      '',
    ]);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    const json = await dryRun(dir, ['auth', 'login', '--with-key', '--profile', 'home', '--json'], { WSCTL_BASE_URL: sb.url });
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'home',
      base_url: sb.url,
      key: MASKED,
      key_storage: 'keyring',
      request: {
        method: 'GET',
        url: `${sb.url}/api-keys/`,
        headers: { accept: 'application/json', 'user-agent': expect.stringMatching(/^wsctl\//), authorization: 'Bearer [redacted]' },
      },
      dry_run: true,
    });
    expect(json.stdout).not.toContain(KEY);
  });

  it('auth logout, and --all: the keys it would forget', async () => {
    const dir = populated();
    expect((await dryRun(dir, ['auth', 'logout'])).stdout).toBe(
      "Would remove the stored key of 'work'. Nothing was changed (--dry-run).\n",
    );
    expect((await dryRun(dir, ['auth', 'logout', '--profile', 'home'])).stdout).toBe(
      "Profile 'home' has no stored key: nothing to remove. Nothing was changed (--dry-run).\n",
    );
    expect(JSON.parse((await dryRun(dir, ['auth', 'logout', '--all', '--json'])).stdout)).toEqual({ logged_out: ['work'], dry_run: true });
    const fresh = join(tempDir(), 'cfg');
    expect((await dryRun(fresh, ['auth', 'logout', '--all'])).stdout).toBe(
      'No profile has a stored key: nothing to remove. Nothing was changed (--dry-run).\n',
    );
  });

  it('profile use and profile rm: the profile they would switch to or delete', async () => {
    const dir = populated();
    expect((await dryRun(dir, ['profile', 'use', 'home'])).stdout).toBe(
      "Would make 'home' the current profile. Nothing was changed (--dry-run).\n",
    );
    expect(JSON.parse((await dryRun(dir, ['profile', 'use', 'home', '--json'])).stdout)).toEqual({
      current_profile: 'home',
      dry_run: true,
    });
    expect((await dryRun(dir, ['profile', 'rm', 'work'])).stdout).toBe(
      "Would delete profile 'work' and its stored key. Nothing was changed (--dry-run).\n",
    );
    expect(JSON.parse((await dryRun(dir, ['profile', 'rm', 'home', '--json'])).stdout)).toEqual({ removed: 'home', dry_run: true });
  });

  it('sandbox reset: the state file it would reset, fresh or not', async () => {
    for (const dir of [join(tempDir(), 'cfg'), populated()]) {
      expect((await dryRun(dir, ['sandbox', 'reset'])).stdout).toBe(
        `Would reset the sandbox to its seeded state (${join(dir, 'sandbox.json')}). Nothing was changed (--dry-run).\n`,
      );
      expect(JSON.parse((await dryRun(dir, ['sandbox', 'reset', '--json'])).stdout)).toEqual({
        reset: true,
        state: join(dir, 'sandbox.json'),
        dry_run: true,
      });
    }
  });

  it('keys create --save-as: the request it would send; no profile saved, an existing one not replaced', async () => {
    for (const [dir, profile] of [
      [join(tempDir(), 'cfg'), 'deploy'],
      [populated(), 'work'],
    ] as const) {
      const r = await dryRun(dir, ['keys', 'create', 'deploy', '--save-as', profile, '--json'], {
        WSCTL_BASE_URL: sb.url,
        WSCTL_API_KEY: sb.key,
      });
      expect(JSON.parse(r.stdout)).toMatchObject({ method: 'POST', url: `${sb.url}/api-keys/`, body: { name: 'deploy' } });
    }
  });

  it('sandbox serve: what it would start, and no server, state file or record', async () => {
    for (const dir of [join(tempDir(), 'cfg'), populated()]) {
      const state = join(dir, 'sandbox.json');
      expect((await dryRun(dir, ['sandbox', 'serve'])).stdout).toBe(
        `Would start the sandbox server on 127.0.0.1, on a free port, with state ${state}. Nothing was changed (--dry-run).\n`,
      );
      const detached = await dryRun(dir, ['sandbox', 'serve', '--detach', '--port', '8787', '--json']);
      expect(JSON.parse(detached.stdout)).toEqual({ host: '127.0.0.1', port: 8787, state, detach: true, dry_run: true });
    }
  });

  it('--sandbox: the request it would send to the embedded sandbox, which seeds no state file for it', async () => {
    for (const dir of [join(tempDir(), 'cfg'), populated()]) {
      const r = await dryRun(dir, ['--sandbox', 'keys', 'list', '--json']);
      expect(JSON.parse(r.stdout)).toMatchObject({ method: 'GET', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api-keys\/$/) });
    }
  });
});

describe('sandbox stop --dry-run', () => {
  it('names the server it would stop, and leaves it running and recorded', async () => {
    const dir = tempDir();
    // V8's code cache learns each kind of command: in a cache folder of its own, not in the snapshot.
    const env = { WSCTL_CONFIG_DIR: dir, HOME: dir, XDG_CACHE_HOME: tempDir() };
    expect((await run(['sandbox', 'stop', '--dry-run'], { env })).stdout).toBe(
      'No sandbox server is running: nothing to stop. Nothing was changed (--dry-run).\n',
    );
    const started = await runBin(['sandbox', 'serve', '--detach'], { env, timeoutMs: 60_000 });
    try {
      expect(started.code, started.stderr).toBe(0);
      const url = /^WSCTL_BASE_URL=(\S+)$/m.exec(started.stdout)![1]!;
      const { pid } = JSON.parse(readFileSync(join(dir, 'sandbox-serve.json'), 'utf8')) as { pid: number };
      const before = snapshot(dir);
      for (const wsctl of [run, runBin]) {
        const r = await wsctl(['sandbox', 'stop', '--dry-run'], { env });
        expect([r.code, r.stderr]).toEqual([0, '']);
        expect(r.stdout).toBe(`Would stop the sandbox server on ${url} (pid ${pid}). Nothing was changed (--dry-run).\n`);
        const json = await wsctl(['sandbox', 'stop', '--dry-run', '--json'], { env });
        expect(JSON.parse(json.stdout)).toEqual({ stopped: true, pid, url, dry_run: true });
      }
      expect(snapshot(dir)).toEqual(before);
      expect(() => process.kill(pid, 0)).not.toThrow();
    } finally {
      await runBin(['sandbox', 'stop'], { env });
    }
  }, 90_000);
});
