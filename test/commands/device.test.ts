import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, startSandbox, type TestSandbox } from '../helpers.js';

/** A service that answers DELETE with whatever body a test wants. */
async function answering(status: number, body: string, type?: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, type ? { 'content-type': type } : {});
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('device rm', () => {
  let sb: TestSandbox;
  let extra: Server | undefined;
  beforeEach(async () => {
    sb = await startSandbox();
  });
  afterEach(() => {
    extra?.close();
  });

  it('deletes with --yes; a second removal exits 5', async () => {
    const r = await run(['device', 'rm', 'dev_phone', '--yes'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(`${lastRequest(sb).method} ${lastRequest(sb).path}`).toBe('DELETE /devices/dev_phone');
    expect(r.stdout).toBe("Removed device 'dev_phone'.\n");
    expect(sb.state.devices.map((d) => d.id)).toEqual(['dev_laptop']);
    expect((await run(['device', 'rm', 'dev_phone', '--yes'], { env: sb.env })).code).toBe(5);
  });

  it('--json prints {"success": true} for an empty 2xx body', async () => {
    const r = await run(['device', 'rm', 'dev_laptop', '--yes', '--json'], { env: sb.env });
    expect(JSON.parse(r.stdout)).toEqual({ success: true });
  });

  it.each([
    [200, 'OK', 'text/plain', 0, undefined],
    [200, '{"deleted":"dev_x"}', 'application/json', 0, { deleted: 'dev_x' }],
    [202, '', undefined, 0, { success: true }],
    [200, '{"success":false}', 'application/json', 1, { success: false }],
  ])('any 2xx is success, unless JSON says success: false (%i %s)', async (status, body, type, code, json) => {
    const fake = await answering(status, body, type);
    extra = fake.server;
    const r = await run(['device', 'rm', 'dev_x', '--yes', '--json'], { env: { ...sb.env, WSCTL_BASE_URL: fake.url } });
    expect(r.code).toBe(code);
    if (json) expect(JSON.parse(r.stdout)).toEqual(json);
    else expect(JSON.parse(r.stdout)).toEqual({ success: true });
  });

  it('a 422 detail is printed as loc: msg and exits 2', async () => {
    const r = await run(['device', 'rm', 'bad id!', '--yes'], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('path.device_id: Identifier may contain');
    expect(lastRequest(sb).path).toBe('/devices/bad%20id!');
  });

  it('on a TTY the prompt defaults to no', async () => {
    const r = await run(['device', 'rm', 'dev_phone'], { env: sb.env, tty: true, stdinTTY: true, answers: [''] });
    expect(r.code).toBe(2);
    expect(r.prompts[0]).toContain("Remove device 'dev_phone'");
    expect(sb.state.devices).toHaveLength(2);
  });

  it('an empty id exits 2 before sending', async () => {
    expect((await run(['device', 'rm', '', '--yes'], { env: sb.env })).code).toBe(2);
    expect(sb.requests).toHaveLength(0);
  });
});

describe('pub rm', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('unpublishes with --yes; a second removal exits 5; off a TTY without --yes exits 2', async () => {
    expect((await run(['pub', 'rm', 'pub_demo'], { env: sb.env })).code).toBe(2);
    const r = await run(['pub', 'rm', 'pub_demo', '--yes', '--json'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ success: true });
    expect(`${lastRequest(sb).method} ${lastRequest(sb).path}`).toBe('DELETE /pub/pub_demo');
    expect((await run(['pub', 'rm', 'pub_demo', '--yes'], { env: sb.env })).code).toBe(5);
  });
});
