// The shared HTTP layer, driven through real commands against the sandbox's fault injection.
import { beforeEach, describe, expect, it } from 'vitest';
import { noStackTrace, run, startConnectProxy, startSandbox, type TestSandbox } from './helpers.js';

describe('HTTP layer', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('retries a GET after a 503 and succeeds', async () => {
    sb.faults.push({ path: '/api-keys', status: 503 });
    const r = await run(['keys', 'list'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(sb.requests).toHaveLength(2);
  });

  it('gives up after 3 tries with the last error', async () => {
    sb.faults.push({ path: '/api-keys', status: 502, times: 2 }, { path: '/api-keys', status: 504 });
    const r = await run(['keys', 'list'], { env: sb.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('HTTP 504');
    expect(sb.requests).toHaveLength(3);
  });

  it('never sends a POST twice after a 503', async () => {
    sb.faults.push({ method: 'POST', path: '/api-keys', status: 503 });
    const r = await run(['keys', 'create', 'ci'], { env: sb.env });
    expect(r.code).toBe(1);
    expect(sb.requests).toHaveLength(1);
    expect(sb.state.keys).toHaveLength(2);
  });

  it('never sends a POST twice after a dropped connection', async () => {
    sb.faults.push({ method: 'POST', path: '/api-keys', drop: true });
    const r = await run(['keys', 'create', 'ci'], { env: sb.env });
    expect(r.code).toBe(3);
    expect(sb.requests).toHaveLength(1);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    sb.faults.push({ path: '/api-keys', status: 429, retry_after: '1' });
    const started = Date.now();
    expect((await run(['keys', 'list'], { env: sb.env })).code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    sb.faults.push({ path: '/api-keys', status: 429, retry_after: new Date(Date.now() + 2000).toUTCString() });
    expect((await run(['keys', 'list'], { env: sb.env })).code).toBe(0);
    expect(sb.requests).toHaveLength(4);
  });

  it('ends at once with exit 1 when Retry-After is over 10 s, saying when to retry', async () => {
    sb.faults.push({ path: '/api-keys', status: 429, retry_after: '3600' });
    const r = await run(['keys', 'list'], { env: sb.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/retry after 3600 s/);
    expect(sb.requests).toHaveLength(1);
  });

  it('times out each attempt (exit 3) and retries a GET', async () => {
    sb.faults.push({ path: '/api-keys', delay_ms: 1500, times: 3 });
    const r = await run(['keys', 'list', '--timeout', '0.2'], { env: sb.env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('within 0.2 s');
    expect(sb.requests).toHaveLength(3);
  });

  it.each([
    ['html', /not JSON \(text\/html\)/],
    ['truncated', /not JSON/],
    ['empty', /an empty body/],
    ['wrong_shape', /unexpected shape/],
  ] as const)('a %s body exits 3', async (malformed, message) => {
    sb.faults.push({ path: '/api-keys', malformed });
    const r = await run(['keys', 'list'], { env: sb.env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(noStackTrace(r.stderr)).toBe(true);
  });

  it('connection refused exits 3', async () => {
    const closed = await startSandbox();
    await closed.close();
    const r = await run(['keys', 'list'], { env: { ...sb.env, WSCTL_BASE_URL: closed.url } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('connection refused');
  });

  it('401 exits 4, 404 exits 5, 500 exits 1', async () => {
    expect((await run(['keys', 'list'], { env: { ...sb.env, WSCTL_API_KEY: 'wsk_not_a_real_key_000' } })).code).toBe(4);
    expect((await run(['keys', 'list'], { env: { ...sb.env, WSCTL_BASE_URL: `${sb.url}/v9` } })).code).toBe(5);
    sb.faults.push({ path: '/settings', status: 500, times: 3 });
    expect((await run(['settings'], { env: sb.env })).code).toBe(1);
  });

  it('with --json an error is one JSON document on stderr and nothing on stdout', async () => {
    sb.faults.push({ path: '/api-keys', status: 500, times: 3, body: '{"detail":"database on fire"}' });
    const r = await run(['keys', 'list', '--json'], { env: sb.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const doc = JSON.parse(r.stderr);
    expect(doc.error).toMatchObject({ message: 'The service answered HTTP 500: database on fire.', exit_code: 1, status: 500 });
    expect(doc.error.request_id).toMatch(/^req_/);
  });

  it('refuses plain http:// to a host that is not loopback before sending (exit 2)', async () => {
    const r = await run(['keys', 'list'], { env: { ...sb.env, WSCTL_BASE_URL: 'http://example.com' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Refusing plain http://');
  });

  it('does not carry Authorization across origins on a redirect', async () => {
    const other = await startSandbox();
    sb.faults.push({ path: '/api-keys', redirect_to: `${other.url}/api-keys/` });
    const r = await run(['keys', 'list'], { env: sb.env });
    expect(r.code).toBe(4);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('keeps Authorization on a same-origin redirect', async () => {
    sb.faults.push({ path: '/api-keys', redirect_to: `${sb.url}/api-keys/` });
    const r = await run(['keys', 'list'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(sb.requests[1]!.headers.authorization).toBe(`Bearer ${sb.key}`);
  });

  it('--debug traces the exchange on stderr with every secret redacted', async () => {
    const r = await run(['keys', 'create', 'ci', '--debug'], { env: sb.env });
    expect(r.code).toBe(0);
    const created = sb.state.keys.at(-1)!;
    expect(r.stderr).toContain(`> POST ${sb.url}/api-keys/`);
    expect(r.stderr).toContain('> authorization: Bearer [redacted]');
    expect(r.stderr).toMatch(/< 201/);
    expect(r.stderr).not.toContain(sb.key);
    expect(r.stderr).not.toContain(created.key);
    expect(r.stdout).toContain(created.key);
  });

  it('--dry-run prints the request, sends nothing, and needs no key', async () => {
    const r = await run(['keys', 'create', 'ci', '--dry-run'], {
      env: { WSCTL_BASE_URL: sb.url, WSCTL_CONFIG_DIR: sb.env.WSCTL_CONFIG_DIR },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`POST ${sb.url}/api-keys/`);
    expect(r.stdout).toContain('"name": "ci"');
    expect(sb.requests).toHaveLength(0);
    const withKey = await run(['keys', 'list', '--dry-run', '--json'], { env: sb.env });
    expect(JSON.parse(withKey.stdout)).toMatchObject({
      method: 'GET',
      url: `${sb.url}/api-keys/`,
      headers: { authorization: 'Bearer [redacted]' },
    });
    expect(withKey.stdout).not.toContain(sb.key);
  });

  it('exits 4 with a next step when no base URL or no key is configured', async () => {
    const dir = sb.env.WSCTL_CONFIG_DIR;
    const noUrl = await run(['keys', 'list'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(noUrl.code).toBe(4);
    expect(noUrl.stderr).toContain('No base URL');
    const noKey = await run(['keys', 'list'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url } });
    expect(noKey.code).toBe(4);
    expect(noKey.stderr).toContain('wsctl auth login');
  });

  it('honours HTTP_PROXY', async () => {
    const proxy = await startConnectProxy();
    const r = await run(['keys', 'list', '--json'], { env: { ...sb.env, HTTP_PROXY: proxy.url, NO_PROXY: '' } });
    expect(r.code).toBe(0);
    expect(proxy.tunnels).toEqual([new URL(sb.url).host]);
    expect(sb.requests).toHaveLength(1);
  });

  it('encodes path parameters so that an id cannot reach another route', async () => {
    const { path } = await import('../src/http/index.js');
    expect(path`/devices/${'a/b?c#d%e'}`).toBe('/devices/a%2Fb%3Fc%23d%25e');
    expect(path`/devices/${'..'}`).toBe('/devices/%2E%2E');
  });
});
