import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, startSandbox, type TestSandbox } from '../helpers.js';

describe('conn', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('set-permission sends PATCH {permission}, and caps then shows it', async () => {
    const r = await run(['conn', 'set-permission', 'gmail', 'pdc_gmail', 'write'], { env: sb.env });
    expect(r.code).toBe(0);
    const req = lastRequest(sb);
    expect([req.method, req.path, JSON.parse(req.body)]).toEqual([
      'PATCH',
      '/connections/gmail/pdc_gmail/permission',
      { permission: 'write' },
    ]);
    expect(r.stdout).toBe("Set the permission of gmail/pdc_gmail to 'write'.\n");
    expect((await run(['caps'], { env: sb.env })).stdout).toContain('app\tgmail\twrite\t');
  });

  it('set-permission: success false exits 1 with a clear message, --json still prints the body', async () => {
    const r = await run(['conn', 'set-permission', 'gmail', 'pdc_gmail', 'bogus', '--json'], { env: sb.env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ success: false });
    expect(r.stderr).toContain('did not change the permission of gmail/pdc_gmail');
    // The interface names no set of permissions: the message must not claim one.
    expect(r.stderr).not.toMatch(/Permissions it knows|read, write/);
    expect(r.stderr).toContain('`wsctl caps` shows the permission each connected app has now');
  });

  it('set-permission is retried after a 503 (a repeat is safe)', async () => {
    sb.faults.push({ method: 'PATCH', status: 503 });
    expect((await run(['conn', 'set-permission', 'gmail', 'pdc_gmail', 'read'], { env: sb.env })).code).toBe(0);
    expect(sb.requests).toHaveLength(2);
  });

  it('rm needs --yes off a TTY, sends nothing without it', async () => {
    const r = await run(['conn', 'rm', 'gmail', 'pdc_gmail'], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect(sb.requests).toHaveLength(0);
  });

  it('rm asks [y/N] on a TTY naming target, profile and base URL; no answer keeps it', async () => {
    const no = await run(['conn', 'rm', 'gmail', 'pdc_gmail'], { env: sb.env, tty: true, stdinTTY: true, answers: [''] });
    expect(no.code).toBe(2);
    expect(no.prompts[0]).toBe(`Remove connection 'gmail/pdc_gmail' (default profile 'default', ${sb.url})?`);
    expect(sb.requests).toHaveLength(0);
    const yes = await run(['conn', 'rm', 'gmail', 'pdc_gmail'], { env: sb.env, tty: true, stdinTTY: true, answers: ['y'] });
    expect(yes.code).toBe(0);
    expect(lastRequest(sb).method).toBe('DELETE');
  });

  it('rm --yes deletes: caps no longer lists gmail, a second rm exits 5', async () => {
    const r = await run(['conn', 'rm', 'gmail', 'pdc_gmail', '--yes'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(`${lastRequest(sb).method} ${lastRequest(sb).path}`).toBe('DELETE /connections/gmail/pdc_gmail');
    expect((await run(['caps'], { env: sb.env })).stdout).not.toContain('app\tgmail');
    expect((await run(['conn', 'rm', 'gmail', 'pdc_gmail', '--yes'], { env: sb.env })).code).toBe(5);
  });

  it('--dry-run neither prompts nor needs --yes', async () => {
    const r = await run(['conn', 'rm', 'gmail', 'pdc_gmail', '--dry-run'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`DELETE ${sb.url}/connections/gmail/pdc_gmail`);
    expect(sb.requests).toHaveLength(0);
  });
});
