import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { run, strip, tempDir } from '../helpers.js';

describe('profile', () => {
  let dir: string;
  const env = () => ({ WSCTL_CONFIG_DIR: dir });
  const config = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  beforeEach(() => {
    dir = tempDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        current_profile: 'work',
        profiles: {
          work: { base_url: 'https://api.example.com', api_key: 'wsk_secretsecretsecret' },
          home: { base_url: 'http://127.0.0.1:9' },
        },
      }),
    );
  });

  it('list: piped, TTY and JSON, never any part of a key', async () => {
    const piped = await run(['profile', 'list'], { env: env() });
    expect(piped.stdout).toBe('home\thttp://127.0.0.1:9\tfalse\tfalse\tfull\nwork\thttps://api.example.com\ttrue\ttrue\tfull\n');
    const tty = await run(['profile', 'ls'], { env: env(), tty: true });
    expect(strip(tty.stdout)).toMatch(/^work +https:\/\/api.example.com +stored +\* +full$/m);
    const json = await run(['profile', 'list', '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toEqual({
      current_profile: 'work',
      profiles: [
        { name: 'home', base_url: 'http://127.0.0.1:9', has_key: false, current: false, agents: 'full' },
        { name: 'work', base_url: 'https://api.example.com', has_key: true, current: true, agents: 'full' },
      ],
    });
    for (const r of [piped, tty, json]) expect(r.stdout).not.toContain('wsk_');
  });

  it('use makes a profile current; an unknown one exits 2', async () => {
    expect((await run(['profile', 'use', 'home'], { env: env() })).code).toBe(0);
    expect(config().current_profile).toBe('home');
    const r = await run(['profile', 'use', 'nope'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("No profile 'nope'. Profiles: work, home.");
  });

  it('rm deletes a profile and clears it as current', async () => {
    const r = await run(['profile', 'rm', 'work', '--json'], { env: env() });
    expect(JSON.parse(r.stdout)).toEqual({ removed: 'work', left_in_credential_store: false });
    expect(config()).toEqual({ profiles: { home: { base_url: 'http://127.0.0.1:9' } } });
    expect((await run(['profile', 'rm', 'work'], { env: env() })).code).toBe(2);
  });
});
