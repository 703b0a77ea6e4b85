import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, ROOT, run, runBin, startSandbox, strip, tempDir, type TestSandbox } from '../helpers.js';
import { GIF, JPEG, png, WEBP } from '../images.js';

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

  it('upload-avatar sends whole PNG, JPEG, GIF and WebP images, byte for byte, with their types', async () => {
    const dir = tempDir();
    for (const [name, bytes, type] of [
      ['a.png', png(300), 'image/png'],
      ['a.jpg', JPEG, 'image/jpeg'],
      ['a.gif', GIF, 'image/gif'],
      ['a.webp', WEBP, 'image/webp'],
    ] as const) {
      writeFileSync(join(dir, name), bytes);
      const r = await run(['persona', 'upload-avatar', join(dir, name), '--json'], { env: sb.env });
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect(lastRequest(sb).body).toContain(`Content-Type: ${type}`);
      const fetched = Buffer.from(await (await fetch(JSON.parse(r.stdout).url)).arrayBuffer());
      expect(fetched.equals(bytes), name).toBe(true);
    }
  });

  it('upload-avatar checks the whole structure: a file that only starts like an image exits 2 before sending', async () => {
    const dir = tempDir();
    const good = png(40);
    const badCrc = Buffer.from(good);
    badCrc[good.length - 20] ^= 0xff; // inside IDAT: its CRC no longer matches
    const webpSize = Buffer.from(WEBP);
    webpSize.writeUInt32LE(WEBP.length + 100, 4);
    const cases: [string, Buffer, RegExp][] = [
      ['secret.gif', Buffer.from('GIF89a\nAWS_SECRET_ACCESS_KEY=abc123\n'), /not a whole GIF image/],
      ['after-iend.png', Buffer.concat([good, Buffer.from('\nOPENAI_API_KEY=sk-123\n')]), /follow the end of the PNG/],
      ['crc.png', badCrc, /wrong CRC/],
      ['no-iend.png', good.subarray(0, good.length - 12), /no IEND/],
      ['cut.jpg', JPEG.subarray(0, JPEG.length - 2), /not a whole JPG image/],
      ['after-eoi.jpg', Buffer.concat([JPEG, Buffer.from('password=hunter2')]), /follow the end of the JPEG/],
      ['head-only.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), /not a whole JPG image/],
      ['after-trailer.gif', Buffer.concat([GIF, Buffer.from('token=t')]), /follow the end of the GIF/],
      ['size.webp', webpSize, /RIFF size/],
      ['riff-only.webp', Buffer.concat([Buffer.from('RIFF\x0c\0\0\0WEBPJUNK\0\0\0\0', 'latin1')]), /not a whole WEBP image/],
    ];
    for (const [name, bytes, said] of cases) {
      writeFileSync(join(dir, name), bytes);
      const r = await run(['persona', 'upload-avatar', join(dir, name)], { env: sb.env });
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr, name).toMatch(said);
      expect(r.stderr.trim().split('\n'), name).toHaveLength(1);
    }
    expect(sb.requests).toHaveLength(0);
  });

  it('upload-avatar refuses a file over 10 MiB with exit 2, before sending', async () => {
    const file = join(tempDir(), 'huge.png');
    writeFileSync(file, png(10 * 1024 * 1024));
    const r = await run(['persona', 'upload-avatar', file], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/at most 10485760 bytes \(10 MiB\)/);
    expect(sb.requests).toHaveLength(0);
  });

  it('the built upload-avatar sends the bytes it checked, even when the file changes while they are sent', async () => {
    // A large image, and a server that waits before reading the body: meanwhile the file's end is
    // overwritten in place. What arrives must be the image as it was checked.
    const file = join(tempDir(), 'big.png');
    const image = png(9 * 1024 * 1024);
    writeFileSync(file, image);
    const marker = Buffer.from('SWAPPED-IN-AFTER-THE-CHECK');
    let received = Buffer.alloc(0);
    const server = createServer((req, res) => {
      req.pause();
      setTimeout(() => {
        const fd = openSync(file, 'r+');
        for (let at = image.length - 4096; at < image.length - 64; at += marker.length) writeSync(fd, marker, 0, marker.length, at);
        closeSync(fd);
        const parts: Buffer[] = [];
        req.on('data', (c: Buffer) => parts.push(c));
        req.on('end', () => {
          received = Buffer.concat(parts);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"url":"https://cdn.example/a.png"}');
        });
        req.resume();
      }, 500);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const r = await runBin(['persona', 'upload-avatar', file], {
        env: { WSCTL_BASE_URL: `http://127.0.0.1:${port}`, WSCTL_API_KEY: 'wsk_test_0123456789', WSCTL_CONFIG_DIR: tempDir() },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(received.includes(marker)).toBe(false);
      expect(received.includes(image)).toBe(true);
    } finally {
      server.close();
    }
  });
});
