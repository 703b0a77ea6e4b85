import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

describe('api', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('GET by default, authenticated, prints the body', async () => {
    const r = await run(['api', '/settings/'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(lastRequest(sb).headers.authorization).toBe(`Bearer ${sb.key}`);
    expect(JSON.parse(r.stdout)).toEqual(sb.state.settings);
  });

  it('-f fields make a JSON body and a POST', async () => {
    const r = await run(['api', 'api-keys/', '-f', 'name=ci'], { env: sb.env });
    expect(r.code).toBe(0);
    const req = lastRequest(sb);
    expect([req.method, req.path, JSON.parse(req.body)]).toEqual(['POST', '/api-keys/', { name: 'ci' }]);
  });

  it('-X GET and -X DELETE send -f fields as the query string and no body, as gh api does (built bin)', async () => {
    const get = await runBin(['api', '-X', 'GET', '/api-keys/', '-f', 'a=b', '-f', 'q=x y&z', '-f', 'a=c'], { env: sb.env });
    expect(get.code, get.stderr).toBe(0);
    let req = lastRequest(sb);
    expect([req.method, req.path, req.body, req.headers['content-type'], req.headers['content-length'] ?? '0']).toEqual([
      'GET',
      '/api-keys/?a=b&q=x%20y%26z&a=c',
      '',
      undefined,
      '0',
    ]);
    const lower = await runBin(['api', '-X', 'get', '/settings/?x=1', '-f', 'a=b'], { env: sb.env });
    expect(lower.code, lower.stderr).toBe(0);
    expect([lastRequest(sb).path, lastRequest(sb).body]).toEqual(['/settings/?x=1&a=b', '']);
    const del = await runBin(['api', '-X', 'DELETE', '/devices/dev_phone', '-f', 'reason=old', '--yes'], { env: sb.env });
    expect(del.code, del.stderr).toBe(0);
    req = lastRequest(sb);
    expect([req.method, req.path, req.body, req.headers['content-type']]).toEqual([
      'DELETE',
      '/devices/dev_phone?reason=old',
      '',
      undefined,
    ]);
    // Other methods keep the JSON body.
    await runBin(['api', '-X', 'PATCH', '/connections/gmail/pdc_gmail/permission', '-f', 'permission=write'], { env: sb.env });
    req = lastRequest(sb);
    expect([req.method, req.path, JSON.parse(req.body)]).toEqual([
      'PATCH',
      '/connections/gmail/pdc_gmail/permission',
      { permission: 'write' },
    ]);
  });

  it('-X and --input file or stdin', async () => {
    const file = join(tempDir(), 'body.json');
    writeFileSync(file, '{"permission":"write"}');
    expect((await run(['api', '-X', 'PATCH', '/connections/gmail/pdc_gmail/permission', '--input', file], { env: sb.env })).code).toBe(0);
    expect(JSON.parse(lastRequest(sb).body)).toEqual({ permission: 'write' });
    const r = await run(['api', '/api-keys/', '--input', '-'], { env: sb.env, stdin: '{"name":"from-stdin"}' });
    expect(r.code).toBe(0);
    expect(lastRequest(sb).method).toBe('POST');
  });

  it('maps errors to exit codes like every other command', async () => {
    expect((await run(['api', '/conversations/nope'], { env: sb.env })).code).toBe(5);
    expect((await run(['api', '/api-keys/', '-f', 'name='], { env: sb.env })).code).toBe(2);
    expect((await run(['api', '/settings/', '-X', 'FETCH'], { env: sb.env })).code).toBe(2);
    expect((await run(['api', 'https://evil.example/x'], { env: sb.env })).code).toBe(2);
  });
});
