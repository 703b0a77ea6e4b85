// The key is read when a request is sent (STYLE 19): a command that stops before sending, such
// as a declined confirmation, never asks the credential store. Here the store cannot be reached
// (no D-Bus session), so any read of it is exit 4.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

/**
 * Before the block's tests: a sandbox, and a config whose current profile 'work' keeps its key in a
 * credential store that cannot be reached; `more` profiles besides it.
 */
function unreachableStore(more: Record<string, object> = {}): { sb: TestSandbox; env: Record<string, string> } {
  const setup = { sb: undefined as unknown as TestSandbox, env: {} as Record<string, string> };
  beforeAll(async () => {
    setup.sb = await startSandbox();
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const config = { current_profile: 'work', profiles: { work: { base_url: setup.sb.url, key_storage: 'keyring' }, ...more } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    setup.env = { WSCTL_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/wsctl-tests' };
  });
  return setup;
}

describe('a stored key is read when the request is sent', () => {
  const setup = unreachableStore();

  const ask = (answer: string, ...flags: string[]) =>
    run(['device', 'rm', 'dev_phone', ...flags], { env: setup.env, tty: true, stdinTTY: true, answers: [answer] });

  it('a declined confirmation reads no key: the store is never asked, nothing is sent', async () => {
    const before = setup.sb.requests.length;
    const r = await ask('n', '--debug');
    expect(r.prompts).toHaveLength(1);
    expect(r.prompts[0]).toContain("profile 'work'");
    expect(r.stderr).toContain('Cancelled: nothing was sent.');
    expect(r.stderr).not.toContain('credential store');
    expect(setup.sb.requests.length).toBe(before);
  });

  it('an accepted one reads the key as the request goes out: here the store cannot answer, exit 4, nothing sent', async () => {
    const before = setup.sb.requests.length;
    const r = await ask('y');
    expect(r.prompts).toHaveLength(1);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/credential store/);
    expect(setup.sb.requests.length).toBe(before);
  });
});

describe('commands that show the key', () => {
  const setup = unreachableStore({ bare: { api_key: 'wsk_bare_0123456789abcd' } });

  it('auth status --dry-run plans the check and reads no key; auth token --dry-run is exit 2, reading none', async () => {
    const status = await run(['auth', 'status', '--dry-run', '--json'], { env: setup.env });
    expect([status.code, status.stderr]).toEqual([0, '']);
    expect(JSON.parse(status.stdout)).toMatchObject({ method: 'GET', headers: { authorization: 'Bearer [redacted]' } });
    const token = await run(['auth', 'token', '--dry-run'], { env: setup.env });
    expect([token.code, token.stdout]).toEqual([2, '']);
    expect(token.stderr).toContain('run it without --dry-run');
    expect(token.stderr).not.toContain('credential store');
  });

  it('auth status --all shows the masked key of a profile that has no base URL', async () => {
    const r = await run(['auth', 'status', '--all', '--json'], { env: setup.env });
    const bare = (JSON.parse(r.stdout) as { profiles: { profile: string; key: string | null; error?: string }[] }).profiles.find(
      (p) => p.profile === 'bare',
    );
    expect(bare).toMatchObject({ key: 'wsk_…abcd' });
    expect(bare?.error).toMatch(/No base URL/);
  });
});
