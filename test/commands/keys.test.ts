import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, runBin, startSandbox, strip, type TestSandbox } from '../helpers.js';

describe('keys', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('create sends POST /api-keys/ {name} and prints the secret once, with a warning on stderr', async () => {
    const r = await run(['keys', 'create', 'ci'], { env: sb.env });
    expect(r.code).toBe(0);
    const req = lastRequest(sb);
    expect([req.method, req.path, JSON.parse(req.body)]).toEqual(['POST', '/api-keys/', { name: 'ci' }]);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe(`Bearer ${sb.key}`);
    expect(req.headers['user-agent']).toBe('wsctl/0.0.0-test');
    const created = sb.state.keys.at(-1)!;
    expect(r.stdout).toBe(
      `id\t${created.id}\nname\tci\nkey\t${created.key}\nkey_prefix\t${created.key_prefix}\ncreated_at\t${created.created_at}\n`,
    );
    expect(r.stderr).toContain('will not be shown again');
  });

  it('create whose --jq filter fails on the new key exits 1 and names the key; one that does not compile sends nothing (exit 2)', async () => {
    const before = sb.state.keys.length;
    const r = await runBin(['keys', 'create', 'ci-jq', '--jq', 'error("boom")'], { env: sb.env });
    const created = sb.state.keys.at(-1)!;
    expect(sb.state.keys.length).toBe(before + 1);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('boom');
    expect(r.stderr).toContain(created.id);
    expect(r.stderr).toContain("'ci-jq'");
    expect(r.stderr).not.toContain(created.key);
    // With --json the error document says the same, exit_code 1.
    const doc = await run(['keys', 'create', 'ci-doc', '--jq', '.id | error("no \\(.)")'], { env: sb.env });
    expect(doc.code).toBe(1);
    const error = JSON.parse(doc.stderr.slice(doc.stderr.indexOf('{'))).error;
    expect([error.exit_code, error.message.includes(sb.state.keys.at(-1)!.id), error.message.includes("'ci-doc'")]).toEqual([
      1,
      true,
      true,
    ]);
    const count = sb.state.keys.length;
    const bad = await runBin(['keys', 'create', 'never', '--jq', '.key |'], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(sb.state.keys.length).toBe(count);
  });

  it('create --json prints the service body', async () => {
    const r = await run(['keys', 'create', 'ci', '--json'], { env: sb.env });
    const created = sb.state.keys.at(-1)!;
    expect(JSON.parse(r.stdout)).toEqual({
      id: created.id,
      name: 'ci',
      key: created.key,
      key_prefix: created.key_prefix,
      created_at: created.created_at,
    });
    expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(r.stdout), null, 2)}\n`);
  });

  it('create on a TTY shows labelled fields and a relative time', async () => {
    const r = await run(['keys', 'create', 'ci'], { env: sb.env, tty: true });
    expect(strip(r.stdout)).toMatch(/^ID: +key_/m);
    expect(strip(r.stdout)).toMatch(/^Created at: +just now$/m);
  });

  it('create --save-as stores the key and base URL as a 0600 profile', async () => {
    const r = await run(['keys', 'create', 'deploy', '--save-as', 'deploy'], { env: sb.env });
    expect(r.code).toBe(0);
    const file = join(sb.env.WSCTL_CONFIG_DIR, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(config.profiles.deploy).toEqual({ base_url: sb.url, api_key: sb.state.keys.at(-1)!.key });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(sb.env.WSCTL_CONFIG_DIR).mode & 0o777).toBe(0o700);
    // the saved profile works on its own
    const list = await run(['keys', 'list', '--profile', 'deploy'], { env: { WSCTL_CONFIG_DIR: sb.env.WSCTL_CONFIG_DIR } });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('deploy');
  });

  it.each([
    ['--force', ['--force']],
    ['--insecure-storage', ['--insecure-storage']],
    ['--force and --insecure-storage', ['--force', '--insecure-storage']],
  ])('create with %s but no --save-as is a usage error (exit 2), nothing created', async (named, flags) => {
    const verb = named.includes(' and ') ? 'go' : 'goes';
    const message = `${named} ${verb} with --save-as: without it no key is saved.`;
    for (const wsctl of [run, runBin]) {
      const r = await wsctl(['keys', 'create', 'ci', ...flags], { env: sb.env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`Error: ${message}\n`);
      const json = await wsctl(['keys', 'create', 'ci', ...flags, '--json'], { env: sb.env });
      expect(json.code).toBe(2);
      expect(json.stdout).toBe('');
      expect(JSON.parse(json.stderr)).toEqual({ error: { message, exit_code: 2, reason: 'usage' } });
    }
    expect(sb.requests).toHaveLength(0);
    expect(sb.state.keys.map((k) => k.name)).not.toContain('ci');
  });

  it('create with an empty name exits 2 before sending', async () => {
    const r = await run(['keys', 'create', ''], { env: sb.env });
    expect(r.code).toBe(2);
    expect(sb.requests).toHaveLength(0);
  });

  it('a 422 from the service exits 2 and prints each detail as loc: msg', async () => {
    const r = await run(['keys', 'create', 'x'.repeat(200)], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('body.name: String should have at most 64 characters');
  });

  it('list prints tab-separated records when piped, never a secret', async () => {
    const r = await run(['keys', 'list'], { env: sb.env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const [boot, laptop] = sb.state.keys;
    expect(lines[1]).toBe(`${laptop!.id}\tlaptop\t${laptop!.key_prefix}\t${laptop!.created_at}\t${laptop!.last_used_at}`);
    expect(lines[0]!.split('\t')[1]).toBe('sandbox');
    for (const k of sb.state.keys) expect(r.stdout).not.toContain(k.key);
    expect(boot).toBeDefined();
  });

  it('list shows "never" on a TTY and an empty field piped for a key never used', async () => {
    await run(['keys', 'create', 'fresh'], { env: sb.env });
    const piped = await run(['keys', 'ls'], { env: sb.env });
    expect(piped.stdout.split('\n').at(-2)).toMatch(/\tfresh\twsk_\w+\t\d{4}-\d\d-\d\dT[^\t]+\t$/);
    const tty = await run(['keys', 'list'], { env: sb.env, tty: true });
    expect(strip(tty.stdout)).toMatch(/ID .*NAME .*PREFIX .*CREATED .*LAST USED/);
    expect(strip(tty.stdout)).toMatch(/fresh .*just now .*never/);
    expect(strip(tty.stdout).split('\n')[1]).toMatch(/^─+ {2}─+ {2}─+ {2}─+ {2}─+$/);
  });

  it('list --json is {"keys": [...]} with unknown fields kept', async () => {
    (sb.state.keys[0] as unknown as Record<string, unknown>).scopes = ['all'];
    const r = await run(['keys', 'list', '--json'], { env: sb.env });
    const doc = JSON.parse(r.stdout);
    expect(doc.keys).toHaveLength(2);
    expect(doc.keys[0].scopes).toEqual(['all']);
    expect(doc.keys[0].key).toBeUndefined();
  });

  it('a key made by keys create authenticates and updates last_used_at', async () => {
    const created = await run(['keys', 'create', 'ci', '--json'], { env: sb.env });
    const key = JSON.parse(created.stdout).key;
    const r = await run(['keys', 'list', '--json'], { env: { ...sb.env, WSCTL_API_KEY: key } });
    expect(r.code).toBe(0);
    const entry = JSON.parse(r.stdout).keys.find((k: { name: string }) => k.name === 'ci');
    expect(entry.last_used_at).not.toBeNull();
  });
});
