import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, startSandbox, type TestSandbox } from '../helpers.js';

describe('site create', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('sends only the given fields; --parent becomes parent_path_parts', async () => {
    const r = await run(['site', 'create', 'launch', '--variant', 'marketing', '--parent', 'a/b', '--display-name', 'Launch'], {
      env: sb.env,
    });
    expect(r.code).toBe(0);
    const req = lastRequest(sb);
    expect([req.method, req.path, JSON.parse(req.body)]).toEqual([
      'POST',
      '/user-services/create-website',
      { name: 'launch', variant: 'marketing', parent_path_parts: ['a', 'b'], display_name: 'Launch' },
    ]);
    expect(r.stdout).toMatch(
      /^name\tlaunch\npath\tsites\/a\/b\/launch\nlocal_port\t\d+\nentrypoint_output\tScaffolded marketing site 'Launch'/,
    );
    await run(['site', 'create', 'plain'], { env: sb.env });
    expect(JSON.parse(lastRequest(sb).body)).toEqual({ name: 'plain' });
  });

  it('a second create of the same name fails (code, kind, message; exit 1) unless --force', async () => {
    await run(['site', 'create', 'launch'], { env: sb.env });
    const again = await run(['site', 'create', 'launch'], { env: sb.env });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('already_exists (error): A website named');
    // The hint once, naming the flag (the service's own sentence names its body field).
    expect(again.stderr).toBe(
      "Error: Could not create site 'launch': already_exists (error): A website named 'launch' already exists. Pass --force to replace it.\n",
    );
    const json = await run(['site', 'create', 'launch', '--json'], { env: sb.env });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ data: null, error: { code: 'already_exists', kind: 'error' } });
    const forced = await run(['site', 'create', 'launch', '--force'], { env: sb.env });
    expect(forced.code).toBe(0);
    expect(JSON.parse(lastRequest(sb).body)).toEqual({ name: 'launch', force: true });
  });

  it('checks the variant before sending and names the allowed values', async () => {
    const r = await run(['site', 'create', 'x', '--variant', 'wiki'], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('blank, blog, event, slides, data, marketing');
    expect(sb.requests).toHaveLength(0);
  });
});
