import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { quiet, run, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

/** A server that accepts connections and never answers. */
async function hangingServer(): Promise<{ url: string; close(): void }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** Runs work when no storm of processes runs in another file, and times it (the wait for that not counted). */
function timedQuietly<T>(work: () => Promise<T>): Promise<[T, number]> {
  return quiet(async () => {
    const started = Date.now();
    const result = await work();
    return [result, Date.now() - started];
  });
}

describe('auth status --all', () => {
  let sb: TestSandbox;
  let dir: string;
  let hanging: Awaited<ReturnType<typeof hangingServer>>;
  afterAll(() => hanging?.close());
  beforeEach(async () => {
    sb = await startSandbox();
    hanging ??= await hangingServer();
    dir = tempDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        current_profile: 'good',
        profiles: {
          good: { base_url: sb.url, api_key: sb.key },
          slow: { base_url: hanging.url, api_key: 'wsk_hanging_0123456789' },
          bad: { base_url: sb.url, api_key: 'wsk_rejected_0123456789' },
          nokey: { base_url: sb.url },
        },
      }),
      { mode: 0o600 },
    );
  });

  // The service that answers must do so within the timeout: 2 s, and never beside a storm of
  // processes in another file (on two cores those held it past 1 s).
  it('checks every profile at once: a server that never answers holds up no other, and the command ends within about the timeout', async () => {
    const [r, took] = await timedQuietly(() =>
      run(['auth', 'status', '--all', '--json', '--timeout', '2'], { env: { WSCTL_CONFIG_DIR: dir } }),
    );
    expect(took).toBeLessThan(5000);
    expect(r.code).toBe(4);
    const { profiles } = JSON.parse(r.stdout);
    expect(profiles.map((p: { profile: string }) => p.profile)).toEqual(['bad', 'good', 'nokey', 'slow']);
    const [bad, good, nokey, slow] = profiles;
    expect(good).toMatchObject({ profile: 'good', profile_source: 'current', base_url: sb.url, key_source: 'profile', valid: true });
    expect(good).not.toHaveProperty('error');
    expect(good).not.toHaveProperty('reason');
    // Each profile that could not be used says why, and the reason word of it (cli.md §4).
    expect(bad).toMatchObject({ valid: false, profile_source: null, reason: 'auth_rejected' });
    expect(bad.error).toContain('rejected');
    expect(nokey).toMatchObject({ valid: false, key: null, reason: 'not_logged_in' });
    expect(nokey.error).toContain('No API key');
    expect(slow).toMatchObject({ valid: null, base_url: hanging.url, reason: 'timeout' });
    expect(slow.error).toContain('within 2 s');
  });

  it('exit 3 when only network failures remain; 0 when every key is accepted', async () => {
    const onlySlow = tempDir();
    writeFileSync(
      join(onlySlow, 'config.json'),
      JSON.stringify({
        profiles: { good: { base_url: sb.url, api_key: sb.key }, slow: { base_url: hanging.url, api_key: 'wsk_hanging_0123456789' } },
      }),
    );
    const r = await quiet(() => run(['auth', 'status', '--all', '--timeout', '2'], { env: { WSCTL_CONFIG_DIR: onlySlow } }));
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('profile\tgood\n');
    expect(r.stdout).toContain('valid\t\n');
    expect(r.stdout).toMatch(/error\tNo answer from http:\/\/127\.0\.0\.1:\d+ within 2 s/);
    const fine = tempDir();
    writeFileSync(
      join(fine, 'config.json'),
      JSON.stringify({ profiles: { a: { base_url: sb.url, api_key: sb.key }, b: { base_url: sb.url, api_key: sb.key } } }),
    );
    const ok = await run(['auth', 'status', '--all', '--json'], { env: { WSCTL_CONFIG_DIR: fine } });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).profiles.map((p: { valid: boolean }) => p.valid)).toEqual([true, true]);
  });

  it('on a terminal at 80 columns: one block per profile, no line wider than the terminal', async () => {
    const r = await quiet(() =>
      run(['auth', 'status', '--all', '--timeout', '2'], { env: { WSCTL_CONFIG_DIR: dir }, tty: true, columns: 80 }),
    );
    expect(r.code).toBe(4);
    const text = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(text.split('\n\n')).toHaveLength(4);
    expect(text.split('\n').filter((l) => l.length > 80)).toEqual([]);
    expect(text).toMatch(/^Error: +No answer from/m);
  });

  it('auth status alone, with a service that never answers: everything else shown, valid null, exit 3', async () => {
    const r = await run(['auth', 'status', '--json', '--timeout', '0.3', '--profile', 'slow'], {
      env: { WSCTL_CONFIG_DIR: dir, WSCTL_RETRY_BASE_MS: '1' },
    });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({
      profile: 'slow',
      profile_source: 'flag',
      base_url: hanging.url,
      key_source: 'profile',
      valid: null,
    });
  });

  it('--dry-run sends nothing', async () => {
    const r = await run(['auth', 'status', '--all', '--dry-run', '--json'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).profiles).toHaveLength(4);
    expect(sb.requests).toHaveLength(0);
  });

  it('the built wsctl ends within about the timeout with a server that never answers', async () => {
    const [r, took] = await timedQuietly(() =>
      runBin(['auth', 'status', '--all', '--json', '--timeout', '2'], { env: { WSCTL_CONFIG_DIR: dir } }),
    );
    expect(took).toBeLessThan(6000);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout).profiles).toHaveLength(4);
  });
});
