import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, ROOT, run, startSandbox, strip, type TestSandbox } from '../helpers.js';

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', name);

describe('persona', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('versions: table ID, CREATED (relative on a TTY, ISO piped) and JSON', async () => {
    const piped = await run(['persona', 'versions', 'persona_demo'], { env: sb.env });
    expect(`${lastRequest(sb).method} ${lastRequest(sb).path}`).toBe('GET /pub/personas/persona_demo/published');
    const published = sb.state.personas.persona_demo!.published;
    expect(piped.stdout).toBe(published.map((v) => `${v.id}\t${v.created_at}\n`).join(''));
    const tty = await run(['persona', 'versions', 'persona_demo'], { env: sb.env, tty: true });
    expect(strip(tty.stdout)).toMatch(/^pv_demo_3 +12 hours ago$/m);
    const json = await run(['persona', 'versions', 'persona_demo', '--json'], { env: sb.env });
    expect(JSON.parse(json.stdout)).toEqual({ published });
    expect((await run(['persona', 'versions', 'nobody'], { env: sb.env })).code).toBe(5);
  });

  it('upload-avatar streams one multipart part named file with the type from its bytes, and the URL serves it back', async () => {
    const r = await run(['persona', 'upload-avatar', fixture('avatar.png')], { env: sb.env });
    expect(r.code).toBe(0);
    const req = lastRequest(sb);
    expect([req.method, req.path]).toEqual(['POST', '/personas/upload-image']);
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.body).toContain('Content-Disposition: form-data; name="file"; filename="avatar.png"');
    expect(req.body).toContain('Content-Type: image/png');
    const url = r.stdout.trim();
    expect(url).toMatch(new RegExp(`^${sb.url}/uploads/\\w+\\.png$`));
    const fetched = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(fetched.equals(readFileSync(fixture('avatar.png')))).toBe(true);
  });

  it('upload-avatar sniffs GIF whatever the name; --json prints {url}', async () => {
    const r = await run(['persona', 'upload-avatar', fixture('avatar.gif'), '--json'], { env: sb.env });
    expect(JSON.parse(r.stdout).url).toMatch(/\.gif$/);
    expect(lastRequest(sb).body).toContain('Content-Type: image/gif');
  });

  it('a missing file, a folder or a non-image exits 2 before sending', async () => {
    for (const file of [fixture('missing.png'), fixture(''), fixture('not-an-image.png')]) {
      const r = await run(['persona', 'upload-avatar', file], { env: sb.env });
      expect(r.code, file).toBe(2);
    }
    expect(sb.requests).toHaveLength(0);
  });
});
