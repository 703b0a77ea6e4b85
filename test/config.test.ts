// Profiles on disk: precedence, file modes, and a corrupt file left untouched.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, startSandbox, tempDir } from './helpers.js';

function writeConfig(dir: string, data: unknown): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
  return file;
}

describe('config and precedence', () => {
  it('base URL: flag over env over profile; key: env over profile', async () => {
    const [a, b, c] = await Promise.all([startSandbox(), startSandbox(), startSandbox()]);
    const dir = tempDir();
    writeConfig(dir, { profiles: { default: { base_url: a.url, api_key: a.key } } });
    expect((await run(['keys', 'list'], { env: { WSCTL_CONFIG_DIR: dir } })).code).toBe(0);
    expect(a.requests).toHaveLength(1);

    // env base URL of another origin: the profile's key belongs to a and is not sent to b (exit 4)
    expect((await run(['keys', 'list'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: b.url } })).code).toBe(4);
    expect(b.requests).toHaveLength(0);

    // env key over the profile's
    expect((await run(['keys', 'list'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: b.url, WSCTL_API_KEY: b.key } })).code).toBe(0);

    // flag over env
    const r = await run(['keys', 'list', '--base-url', c.url], {
      env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: b.url, WSCTL_API_KEY: c.key },
    });
    expect(r.code).toBe(0);
    expect(c.requests).toHaveLength(1);
  });

  it('--profile over WSCTL_PROFILE over the current profile', async () => {
    const [a, b] = await Promise.all([startSandbox(), startSandbox()]);
    const dir = tempDir();
    writeConfig(dir, {
      current_profile: 'a',
      profiles: { a: { base_url: a.url, api_key: a.key }, b: { base_url: b.url, api_key: b.key } },
    });
    await run(['settings'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect([a.requests.length, b.requests.length]).toEqual([1, 0]);
    await run(['settings'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_PROFILE: 'b' } });
    expect([a.requests.length, b.requests.length]).toEqual([1, 1]);
    await run(['settings', '--profile', 'a'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_PROFILE: 'b' } });
    expect([a.requests.length, b.requests.length]).toEqual([2, 1]);
  });

  it('a corrupt config is reported with its path, left untouched, and exits 1', async () => {
    const sb = await startSandbox();
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {"default": {', { mode: 0o600 });
    for (const args of [
      ['keys', 'list'],
      ['auth', 'logout'],
      ['profile', 'use', 'x'],
      ['keys', 'create', 'k', '--save-as', 'k'],
    ]) {
      const r = await run(args, { env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url } });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(file);
    }
    expect(readFileSync(file, 'utf8')).toBe('{"profiles": {"default": {');
  });

  it('does not read the config when base URL and key both come from the environment', async () => {
    const sb = await startSandbox();
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), 'garbage');
    const r = await run(['keys', 'list'], { env: { ...sb.env, WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
  });

  it('tightens a config folder that exists with wider modes, and says so', async () => {
    const sb = await startSandbox();
    const dir = join(tempDir(), 'cfg');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const r = await run(['keys', 'create', 'k', '--save-as', 'k'], { env: { ...sb.env, WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(r.stderr).toContain('Tightened permissions');
  });

  it('never writes WSCTL_API_KEY to disk', async () => {
    const sb = await startSandbox();
    await run(['keys', 'create', 'k', '--save-as', 'k'], { env: sb.env });
    const text = readFileSync(join(sb.env.WSCTL_CONFIG_DIR, 'config.json'), 'utf8');
    expect(text).not.toContain(sb.key);
  });
});
