import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

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
