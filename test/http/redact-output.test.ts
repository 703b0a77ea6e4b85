// What --dry-run and --debug print of secrets in URLs and bodies, through the built CLI.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

describe('secrets in query strings', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('--dry-run redacts a secret -f field sent in the query string', async () => {
    const r = await runBin(['--dry-run', 'api', '-X', 'GET', '/q?x=1', '-f', 'token=ttt', '-f', 'n=2'], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('/q?x=1&token=[redacted]&n=2');
    expect(r.stdout + r.stderr).not.toContain('ttt');
  });

  it('byok add masks query secrets of --provider-url in --dry-run and --json, and sends the URL whole', async () => {
    const url = 'https://user:pa55@host.example/v1?api_key=qsecret&region=eu';
    const args = ['byok', 'add', '--name', 'n', '--provider-url', url, '--format', 'groq', '--model', 'm'];
    const env = { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-provider-0123456789' };
    const dry = await runBin([...args, '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('api_key=[redacted]&region=eu');
    expect(dry.stdout + dry.stderr).not.toMatch(/qsecret|pa55/);
    const json = await runBin([...args, '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).base_url).toBe('https://user:***@host.example/v1?api_key=[redacted]&region=eu');
    expect(JSON.parse(lastRequest(sb).body).base_url).toBe(url);
  });
});

describe('--debug traces of a hostile server', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/text')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('password=plainpw&token=plaintok&user=ann\nsecret: plainsecret\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ password: 123456, credentials: { user: 'ann', pass: 'credpass' }, api_key: ['arrkey'], note: null }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => server.close());

  const env = () => ({ WSCTL_BASE_URL: base, WSCTL_API_KEY: 'wsk_live_0123456789abcdef', WSCTL_CONFIG_DIR: tempDir() });

  it('redacts query secrets in the traced request line', async () => {
    const r = await runBin(['api', '/x?token=qtok&api_key=qak&page=2', '--debug'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/> GET \S*\/x\?token=\[redacted\]&api_key=\[redacted\]&page=2/);
    expect(r.stderr).not.toMatch(/qtok|qak/);
  });

  it('redacts name=value and name: value pairs in a text body', async () => {
    const r = await runBin(['api', '/text', '--debug'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('password=[redacted]&token=[redacted]&user=ann');
    expect(r.stderr).toContain('secret: [redacted]');
    expect(r.stderr).not.toMatch(/plainpw|plaintok|plainsecret/);
  });

  it('redacts secret-named JSON fields whatever the type of their value', async () => {
    const r = await runBin(['api', '/json', '--debug'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('{"password":"[redacted]","credentials":"[redacted]","api_key":"[redacted]","note":null}');
    expect(r.stderr).not.toMatch(/123456|credpass|arrkey/);
  });
});
