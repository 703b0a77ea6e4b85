// Servers that redirect, nest, stall, lie or send text meant to drive a terminal: each defect
// found by the adversarial pass, with the behaviour that replaced it.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT, run, runBin, startSandbox, tempDir } from '../helpers.js';

interface Seen {
  method: string;
  url: string;
  body: string;
  headers: IncomingMessage['headers'];
}

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, headers: req.headers });
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const envFor = (url: string, extra: Record<string, string> = {}) => ({
  WSCTL_BASE_URL: url,
  WSCTL_API_KEY: 'wsk_hostile_test_key',
  WSCTL_CONFIG_DIR: tempDir(),
  ...extra,
});
const BYOK = ['byok', 'add', '--name', 'n', '--provider-url', 'https://p.example', '--format', 'openai', '--model', 'm'];

describe('redirects', () => {
  it.each([301, 302, 307, 308])('a %i to another origin never re-sends the body (the provider key): exit 3 naming it', async (status) => {
    const other = await serve((_req, res) => json(res, 200, {}));
    const first = await serve((_req, res) => {
      res.writeHead(status, { location: `${other.url}/byok/` });
      res.end();
    });
    const r = await run(BYOK, { env: { ...envFor(first.url), WSCTL_BYOK_API_KEY: 'sk-provider-secret-123' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`another origin (${other.url})`);
    expect(other.seen).toEqual([]);
  });

  it('a 303 is followed with GET and no body', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/byok/') {
        res.writeHead(303, { location: '/byok/created' });
        return res.end();
      }
      json(res, 200, {
        id: 'b1',
        name: 'n',
        base_url: 'https://p.example',
        api_key: 'sk-x',
        format: 'openai',
        model_id: 'm',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
      });
    });
    const r = await run(BYOK, { env: { ...envFor(s.url), WSCTL_BYOK_API_KEY: 'sk-provider-secret-123' } });
    expect(r.code, r.stderr).toBe(0);
    expect(s.seen.map((q) => [q.method, q.url, q.body])).toEqual([
      ['POST', '/byok/', expect.stringContaining('sk-provider-secret-123')],
      ['GET', '/byok/created', ''],
    ]);
  });

  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/x', 'data:text/plain,hi', 'http://[::1'])(
    'Location %s is refused at once: exit 3, no retries',
    async (location) => {
      const s = await serve((_req, res) => {
        res.writeHead(302, { location });
        res.end();
      });
      const r = await run(['keys', 'list'], { env: envFor(s.url) });
      expect(r.code).toBe(3);
      expect(s.seen).toHaveLength(1);
      expect(r.stderr).not.toContain('Unexpected');
    },
  );
});

describe('service text never drives the terminal', () => {
  const HOSTILE =
    'ok\x1b]52;c;cHduZWQ=\x07\x1b]8;;http://evil.example\x07link\x1b]8;;\x07\x1b]0;title\x07\x1b[2J\x9b31m\u202eevil\u200b\u2066x';
  const SAFE = /^[^\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069]*$/;

  it('notes import prints the returned file name sanitised on a TTY', async () => {
    const s = await serve((_req, res) => json(res, 200, { filename: HOSTILE }));
    const r = await run(['notes', 'import', 'p1'], { env: envFor(s.url), tty: true });
    expect(r.code).toBe(0);
    // Our own colour codes aside, nothing of the service's escapes is left.
    expect(r.stdout.replace(/\x1b\[\d+m/g, '')).toMatch(SAFE);
    expect(r.stdout).toContain('oklinkevilx');
  });

  it('api on a TTY removes C1 controls, bidi overrides and zero-width characters', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(HOSTILE);
    });
    const r = await run(['api', '/x'], { env: envFor(s.url), tty: true });
    expect(r.stdout).toMatch(SAFE);
  });

  it('--debug traces non-JSON bodies sanitised', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(HOSTILE);
    });
    const r = await run(['api', '/x', '--debug'], { env: envFor(s.url) });
    expect(r.stderr).toMatch(SAFE);
  });

  it('an error detail with line breaks stays on one line: no forged "Error:" lines', async () => {
    const s = await serve((_req, res) => json(res, 400, { detail: 'bad\nError: forged line\r\nmore' }));
    const r = await run(['keys', 'list'], { env: envFor(s.url) });
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(SAFE);
  });
});

describe('writing the result', () => {
  it('keys create > /dev/full exits 1 with one line: the only copy of the key was not written', async () => {
    const sb = await startSandbox();
    // Asynchronous: the sandbox answering it runs in this process.
    const child = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" keys create full > /dev/full`], {
      env: { ...process.env, ...sb.env },
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect(status).toBe(1);
    expect(stderr).toMatch(/^Error: Cannot write the output: ENOSPC\. The key .full. \(id key_\w+\) was created/m);
    expect(sb.state.keys.some((k) => k.name === 'full')).toBe(true);
  });
});

describe('deeply nested JSON', () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const deepObject = `{"detail":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;

  it.each([
    [500, deepObject],
    [200, deep],
    [422, deepObject],
  ])('HTTP %i with a 100,000-level body: exit 3, a clear message, the error document under --json', async (status, body) => {
    const s = await serve((_req, res) => json(res, status, body));
    const human = await runBin(['api', '/x'], { env: envFor(s.url) });
    expect(human.code).toBe(3);
    expect(human.stderr).toMatch(/^Error: The service sent JSON nested more than 512 levels deep/);
    const doc = await runBin(['api', '/x', '--json'], { env: envFor(s.url) });
    expect(doc.code).toBe(3);
    expect(JSON.parse(doc.stderr).error).toMatchObject({ exit_code: 3, status });
  });
});

describe('timeouts and odd inputs', () => {
  it('--timeout with fractions works; above the cap, zero, negative or not a number is exit 2', async () => {
    const sb = await startSandbox();
    for (const t of ['2.01', '1.0001', '0.5']) expect((await run(['keys', 'list', '--timeout', t], { env: sb.env })).code, t).toBe(0);
    for (const t of ['2147484', '0', '-1', 'abc', ''])
      expect((await run(['keys', 'list', '--timeout', t], { env: sb.env })).code, t).toBe(2);
  });

  it("api 'x y' and a WSCTL_API_KEY ending in \\r are usage errors, not network ones", async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    expect((await run(['api', 'x y'], { env: envFor(s.url) })).code).toBe(2);
    expect((await run(['keys', 'list'], { env: envFor(s.url, { WSCTL_API_KEY: 'wsk_hostile_test_key\r' }) })).code).toBe(2);
    expect(s.seen).toHaveLength(0);
  });

  it('Retry-After: 99999999999999999999 ends at once with exit 1 and a readable message', async () => {
    const s = await serve((_req, res) => json(res, 503, { detail: 'busy' }, { 'retry-after': '99999999999999999999' }));
    const r = await run(['keys', 'list'], { env: envFor(s.url) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: The service is busy \(HTTP 503\) and asks to retry after a very long time/);
    expect(s.seen).toHaveLength(1);
  });

  it('a proxy that refuses or asks for credentials is named, not the target', async () => {
    const target = await serve((_req, res) => json(res, 200, { keys: [] }));
    const refused = await runBin(['keys', 'list'], { env: envFor(target.url, { HTTP_PROXY: 'http://127.0.0.1:9' }) });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('through the proxy http://127.0.0.1:9');
    const proxy = await serve((_req, res) => json(res, 407, {}, { 'proxy-authenticate': 'Basic' }));
    // A proxy answers the tunnel's CONNECT itself.
    (servers.at(-1) as unknown as import('node:http').Server).on('connect', (_req, socket) =>
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n'),
    );
    const auth = await runBin(['keys', 'list'], { env: envFor(target.url, { HTTP_PROXY: proxy.url }) });
    expect(auth.code).toBe(3);
    expect(auth.stderr).toContain(`The proxy ${proxy.url} asks for credentials (HTTP 407)`);
    expect(target.seen).toHaveLength(0);
  });

  it('paths: never above the base path (exit 2), a fragment never goes on the wire', async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    expect((await run(['api', '/../../etc'], { env: envFor(`${s.url}/base`) })).code).toBe(2);
    expect((await run(['api', '/a/%2e%2e/%2E%2E/x'], { env: envFor(`${s.url}/base`) })).code).toBe(2);
    expect((await run(['api', '/x/../y?q=1#frag'], { env: envFor(`${s.url}/base`) })).code).toBe(0);
    expect(s.seen.map((q) => q.url)).toEqual(['/base/y?q=1']);
  });

  it('--input /dev/urandom stops at the same 16 MiB cap as stdin (exit 2, at once)', async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    const started = Date.now();
    const r = await run(['api', '/x', '--input', '/dev/urandom'], { env: envFor(s.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('larger than 16 MiB');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(s.seen).toHaveLength(0);
  });
});

describe('redaction in --debug', () => {
  it('any field named …key, …token, …secret or …password, in JSON and in a truncated body', async () => {
    const secrets = {
      secret_key: 'S1-secret-value',
      access_token: 'S2-secret-value',
      client_secret: 'S3-secret-value',
      private_key: 'S4-secret-value',
      password: 'S5-secret-value',
      key_prefix: 'wsk_abcd',
    };
    const whole = await serve((_req, res) => json(res, 200, secrets));
    const r = await run(['api', '/x', '--debug'], { env: envFor(whole.url) });
    for (const value of Object.values(secrets).slice(0, 5)) expect(r.stderr).not.toContain(value);
    expect(r.stderr).toContain('wsk_abcd');
    const truncated = await serve((_req, res) =>
      json(res, 201, '{"id":"k1","name":"ci","key":"wsk_truncatedsecret123","key_prefix":"wsk_tru'),
    );
    const created = await run(['keys', 'create', 'ci', '--debug'], { env: envFor(truncated.url) });
    expect(created.stderr).not.toContain('wsk_truncatedsecret123');
  });
});

describe('the sandbox does not leak either', () => {
  it('control routes want the bootstrap key and redact secrets; a reset keeps the key of a running server', async () => {
    const home = tempDir();
    const env = { WSCTL_CONFIG_DIR: join(home, 'c'), HOME: home };
    const started = await runBin(['sandbox', 'serve', '--detach'], { env });
    const url = /WSCTL_BASE_URL=(.+)/.exec(started.stdout)?.[1] as string;
    const key = /WSCTL_API_KEY=(.+)/.exec(started.stdout)?.[1] as string;
    try {
      const withKey = { ...env, WSCTL_BASE_URL: url, WSCTL_API_KEY: key };
      await runBin(BYOK, { env: { ...withKey, WSCTL_BYOK_API_KEY: 'sk-provider-secret-123' } });
      expect((await fetch(`${url}/__sandbox/requests`)).status).toBe(401);
      const recorded = await (await fetch(`${url}/__sandbox/requests`, { headers: { authorization: `Bearer ${key}` } })).text();
      expect(recorded).not.toContain(key);
      expect(recorded).not.toContain('sk-provider-secret-123');
      expect((await runBin(['sandbox', 'reset'], { env })).code).toBe(0);
      expect((await runBin(['keys', 'list'], { env: withKey })).code).toBe(0);
    } finally {
      await runBin(['sandbox', 'stop'], { env });
    }
  });

  it('a state file missing its collections: damaged, run sandbox reset (exit 1), left untouched', async () => {
    const dir = tempDir();
    const text = JSON.stringify({ version: 1, bootstrap_key: 'wsk_x', keys: [] });
    writeFileSync(join(dir, 'sandbox.json'), text);
    const r = await runBin(['--sandbox', 'device', 'rm', 'dev_phone', '--yes'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: Sandbox state .*sandbox\.json is damaged \(no 'numbers' list\)\. Run `wsctl sandbox reset`/);
  });
});

describe('completion treats names as data', () => {
  it("a profile named $(touch pwned) is not offered by bash's completion (only names a profile can have are), and runs nothing", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { [`$(touch ${dir}/pwned)`]: {}, work: {} } }), { mode: 0o600 });
    const script = `source "${ROOT}/completions/wsctl.bash"; wsctl() { "${process.execPath}" "${BIN}" "$@"; }; COMP_WORDS=(wsctl profile use ''); COMP_CWORD=3; _wsctl; printf '%s\\n' "\${COMPREPLY[@]}"; test -e "${dir}/pwned" && echo PWNED`;
    const r = spawnSync('bash', ['--norc', '-c', script], { env: { ...process.env, WSCTL_CONFIG_DIR: dir }, encoding: 'utf8' });
    expect(r.stdout).not.toContain('PWNED');
    expect(r.stdout).toContain('work');
    expect(r.stdout).not.toContain('touch');
  });
});

/** A server that writes raw bytes: what node:http would never send. */
async function serveRaw(answer: (socket: Socket, request: string) => void): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createNetServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', (data) => {
      requests.push(data.toString('latin1').split('\r\n')[0] as string);
      answer(socket, data.toString('latin1'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const KEYS = JSON.stringify({
  keys: [{ id: 'key_1', name: 'ci', key_prefix: 'wsk_', created_at: '2026-01-01T00:00:00Z', last_used_at: null }],
});
const CONVERSATION = JSON.stringify({
  conversation: { id: 'c1', title: 'Cut', type: 'chat', created_at: '2026-01-01T00:00:00Z' },
  messages: Array.from({ length: 40 }, (_, i) => ({
    kind: 'request',
    timestamp: '2026-01-01T00:00:00Z',
    parts: [{ part_kind: 'text', content: `message ${i} ${'x'.repeat(200)}` }],
  })),
  state: 'idle',
});

describe('bodies cut off part-way', () => {
  // `Connection: close` makes undici's parser report the missing last chunk itself, with no code.
  const chunkedCut = (body: string) => (socket: Socket) =>
    socket.end(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${(body.length >> 1).toString(16)}\r\n${body.slice(0, body.length >> 1)}\r\n`,
    );

  it.each([
    ['keys list (read whole)', ['keys', 'list'], KEYS],
    ['convo show (read as it arrives)', ['convo', 'show', 'c1', '--no-pager'], CONVERSATION],
    ['api', ['api', '/x'], KEYS],
  ])('%s: a chunked body without its last chunk is exit 3, named, and retried (a GET)', async (_name, args, body) => {
    const s = await serveRaw(chunkedCut(body));
    const r = await run(args, { env: envFor(s.url) });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toBe(
      `Error: The answer from ${s.url} was cut off: the connection closed before the end of the body. Try again; if it persists, check the service.\n`,
    );
    expect(s.requests).toHaveLength(3);
  });

  it('a POST whose answer is cut is not sent again', async () => {
    const s = await serveRaw(
      chunkedCut(JSON.stringify({ id: 'key_1', name: 'ci', key: 'wsk_secret', key_prefix: 'wsk_', created_at: '2026-01-01T00:00:00Z' })),
    );
    const r = await run(['keys', 'create', 'ci'], { env: envFor(s.url) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('was cut off');
    expect(s.requests).toEqual(['POST /api-keys/ HTTP/1.1']);
  });

  it('a Content-Length that is not reached (Connection: close) is the same', async () => {
    const s = await serveRaw((socket) =>
      socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${KEYS.length}\r\n\r\n${KEYS.slice(0, 20)}`,
      ),
    );
    const r = await run(['keys', 'list', '--json'], { env: envFor(s.url) });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stderr).error.message).toContain('was cut off');
    expect(s.requests).toHaveLength(3);
  });
});

describe('--timeout is the longest wait without progress', () => {
  /** The body in `pieces` parts, one every `everyMs`, then (unless `stallAfter`) the end. */
  const trickle = (body: string, pieces: number, everyMs: number, stallAfter?: number) => (socket: Socket) => {
    socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    const size = Math.ceil(body.length / pieces);
    let sent = 0;
    const timer = setInterval(() => {
      if (stallAfter !== undefined && sent >= stallAfter) return clearInterval(timer);
      socket.write(body.slice(sent * size, (sent + 1) * size));
      if (++sent >= pieces) {
        clearInterval(timer);
        socket.end();
      }
    }, everyMs);
    socket.on('close', () => clearInterval(timer));
  };

  it.each([
    ['keys list (read whole)', ['keys', 'list'], KEYS],
    ['convo show (read as it arrives)', ['convo', 'show', 'c1', '--no-pager'], CONVERSATION],
  ])('%s: a body arriving steadily for four times --timeout is never cut', async (_name, args, body) => {
    // 20 pieces 40 ms apart: 0.8 s in all, each wait a tenth of --timeout 0.4.
    const s = await serveRaw(trickle(body, 20, 40));
    const r = await run([...args, '--timeout', '0.4'], { env: envFor(s.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(s.requests).toHaveLength(1);
  });

  it('a body that stops arriving is exit 3 after --timeout, named as a stall, and retried', async () => {
    const s = await serveRaw(trickle(KEYS, 10, 10, 3));
    const r = await run(['keys', 'list', '--timeout', '0.3'], { env: envFor(s.url) });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `Error: The answer from ${s.url} stopped arriving: nothing came for 0.3 s. Check the service, or raise --timeout.\n`,
    );
    expect(s.requests).toHaveLength(3);
  });

  it('no answer at all is still "No answer … within"', async () => {
    const s = await serveRaw(() => {});
    const r = await run(['keys', 'list', '--timeout', '0.2'], { env: envFor(s.url) });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`Error: No answer from ${s.url} within 0.2 s. Check the service, or raise --timeout.\n`);
  });
});

describe('deep bodies at any size', () => {
  // 2,100,000 levels: 4.2 MB, past the 4 MiB under which bodies used to be checked.
  const levels = 2_100_000;
  it.each([
    [200, false],
    [500, true],
  ])(
    'HTTP %i with a 4 MiB+ body nested 2.1 million deep (--json: %s): exit 3, one line or one JSON document',
    async (status, json) => {
      const body = `${'['.repeat(levels)}${']'.repeat(levels)}`;
      const s = await serveRaw((socket) =>
        socket.end(`HTTP/1.1 ${status} X\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`),
      );
      const r = await runBin(json ? ['keys', 'list', '--json'] : ['api', '/x'], { env: envFor(s.url), timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toBe('');
      const message = `The service sent JSON nested more than 512 levels deep (HTTP ${status}); wsctl cannot handle it.`;
      if (json) expect(JSON.parse(r.stderr).error).toEqual({ message, exit_code: 3, reason: 'bad_response', status });
      else expect(r.stderr).toBe(`Error: ${message}\n`);
    },
    60_000,
  );
});

describe('messages that name the right cause', () => {
  it('a 302 with an empty Location says so (not "Too many redirects"): exit 3, one request', async () => {
    const s = await serveRaw((socket) => socket.end('HTTP/1.1 302 Found\r\nLocation: \r\nContent-Length: 0\r\n\r\n'));
    const r = await run(['keys', 'list'], { env: envFor(s.url) });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('Error: The service redirected (HTTP 302) without a location to go to; wsctl cannot follow it.\n');
    expect(s.requests).toHaveLength(1);
  });

  it.each([
    ['an ESC opening the value, after Content-Length', 'Content-Length: 2\r\nX-Title: \x1b]0;pwned\x07'],
    ['an ESC inside the value', 'X-Title: a\x1b[2Jb\r\nContent-Length: 2'],
    ['a NUL', 'X-Title: a\x00b\r\nContent-Length: 2'],
    ['an ESC in the name', 'X-T\x1bitle: a\r\nContent-Length: 2'],
  ])('a response header with %s is named a bad header: exit 3, not retried', async (_name, headers) => {
    const s = await serveRaw((socket) => socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${headers}\r\n\r\n{}`));
    const r = await run(['keys', 'list'], { env: envFor(s.url) });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `Error: The service at ${s.url} sent a bad response header (control characters such as ESC, or bytes HTTP does not allow); wsctl cannot read the answer.\n`,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('a 407 with no proxy configured says the server answered 407 without a proxy in use', async () => {
    const s = await serve((_req, res) => json(res, 407, {}));
    const r = await run(['keys', 'list'], { env: envFor(s.url) });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'Error: The service answered HTTP 407 (proxy authentication required) although no proxy is in use: check the base URL, or set HTTPS_PROXY if a proxy is needed.\n',
    );
  });
});
