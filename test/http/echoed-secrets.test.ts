// A service (or a gateway) that echoes the key it was sent, and the provider key of byok add, in
// its errors: the built CLI masks them in every output (cli.md §3), and its --debug traces
// redact signatures, one-time codes, wsctl keys inside strings and WWW-Authenticate tokens.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runBin, tempDir } from '../helpers.js';

const KEY = 'wsk_live_0123456789abcdefECHO';
const PROVIDER_KEY = 'prov-9f8e7d6c5b4a3210ECHO';
const MASKED_KEY = 'wsk_…ECHO';

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(async (req, res) => {
    const sent = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const body = await bodyOf(req);
    const url = req.url ?? '';
    if (url.startsWith('/api-keys')) {
      // A gateway that quotes the rejected credential back, in the detail and a challenge.
      res.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer realm="api", error="invalid_token", token="${sent}"`,
      });
      res.end(JSON.stringify({ detail: `Invalid API key ${sent}`, echo: { authorization: `Bearer ${sent}`, seen: [sent] } }));
    } else if (url.startsWith('/byok')) {
      const apiKey = (JSON.parse(body) as { api_key: string }).api_key;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: `provider rejected ${apiKey} (caller ${sent})`, request: { provider_key_was: apiKey } }));
    } else if (url.startsWith('/settings')) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: upstream said key=${sent} is unknown`);
    } else if (url.startsWith('/whoami')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ authenticated_with: sent, header: `Bearer ${sent}` }));
    } else if (url.startsWith('/conversations/')) {
      // A transcript that quotes the key twice, each time cut between two writes the client
      // reads as separate chunks: once in a message, once in the conversation's title.
      const text = JSON.stringify({
        conversation: { id: 'conv_e', title: `echo ${sent} title`, type: 'chat', created_at: '2026-01-01T00:00:00Z', updated_at: null },
        messages: [
          {
            kind: 'request',
            timestamp: '2026-01-01T00:00:00Z',
            parts: [{ part_kind: 'user-prompt', content: `my key is ${sent}, keep it` }],
          },
        ],
        state: 'idle',
      });
      const cuts = [...text.matchAll(new RegExp(sent, 'g'))].map((m) => m.index + 7);
      res.writeHead(200, { 'content-type': 'application/json' });
      let from = 0;
      for (const cut of cuts) {
        res.write(text.slice(from, cut));
        from = cut;
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      res.end(text.slice(from));
    } else if (url.startsWith('/signed')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          code: '482913',
          otp: '111222',
          pin: '4321',
          sig: 'sigvalue',
          signature: 'signaturevalue',
          status_code: 200,
          note: 'paste wsk_other0123456789xyz into the form',
          link: 'https://s3.example/o?X-Amz-Signature=amzsigvalue&code=oauthcode&part=1',
        }),
      );
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"detail":"no"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(() => server.close());

const env = () => ({ WSCTL_BASE_URL: base, WSCTL_API_KEY: KEY, WSCTL_CONFIG_DIR: tempDir() });

describe('a key the service echoes back', () => {
  it('is masked in the error line of a 401, and in the --debug trace and stack', async () => {
    const r = await runBin(['keys', 'list'], { env: env() });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`Invalid API key ${MASKED_KEY}`);
    expect(r.stderr).not.toContain(KEY);
    const debug = await runBin(['keys', 'list', '--debug'], { env: env() });
    expect(debug.code).toBe(4);
    expect(debug.stderr).toContain('token="[redacted]"');
    expect(debug.stderr).toMatch(/\n\s+at /); // the stack is there, masked
    expect(debug.stderr).not.toContain(KEY);
    expect(debug.stderr).not.toContain(KEY.slice(4, -4));
  });

  it('is masked in the --json error document and its details', async () => {
    const r = await runBin(['keys', 'list', '--json'], { env: env() });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    const doc = JSON.parse(r.stderr) as { error: { message: string; status: number } };
    expect(doc.error.status).toBe(401);
    expect(doc.error.message).toContain(MASKED_KEY);
    expect(r.stderr).not.toContain(KEY);
  });

  it('is masked in a 500 whose body is not JSON, and in the --json details of a 500', async () => {
    const text = await runBin(['settings', '--json', '--debug'], { env: env() });
    expect(text.code).toBe(1);
    expect(text.stderr).not.toContain(KEY);
    const provider = await runBin(
      ['byok', 'add', '--name', 'n', '--provider-url', 'https://llm.example/v1', '--format', 'openai', '--model', 'm', '--json'],
      {
        env: { ...env(), WSCTL_BYOK_API_KEY: PROVIDER_KEY },
      },
    );
    expect(provider.code).toBe(1);
    const doc = JSON.parse(provider.stderr) as { error: { message: string; details: { request: { provider_key_was: string } } } };
    expect(doc.error.message).toContain('provider rejected prov…ECHO');
    expect(doc.error.details.request.provider_key_was).toBe('prov…ECHO');
    expect(provider.stderr).not.toContain(PROVIDER_KEY);
    expect(provider.stderr).not.toContain(KEY);
  });

  it('is masked with --debug for the provider key too (error line, trace, stack)', async () => {
    const r = await runBin(
      ['byok', 'add', '--name', 'n', '--provider-url', 'https://llm.example/v1', '--format', 'openai', '--model', 'm', '--debug'],
      {
        env: { ...env(), WSCTL_BYOK_API_KEY: PROVIDER_KEY },
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: The service answered HTTP 500: provider rejected prov…ECHO');
    expect(r.stderr).not.toContain(PROVIDER_KEY);
    expect(r.stderr).not.toContain(KEY);
  });

  it('is masked in a 2xx body that quotes it', async () => {
    const r = await runBin(['api', '/whoami'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(KEY);
    expect(JSON.parse(r.stdout)).toEqual({ authenticated_with: MASKED_KEY, header: `Bearer ${MASKED_KEY}` });
  });

  it.each([[[]], [['--json']], [['--jq', '.messages[0].parts[0].content']]])(
    'is masked in a streamed transcript that quotes it, cut between two chunks (%j)',
    async (args) => {
      const r = await runBin(['convo', 'show', 'conv_e', ...args], { env: env() });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain(KEY);
      expect(r.stdout).toContain(`my key is ${MASKED_KEY}, keep it`);
      if (args[0] === '--json') expect(JSON.parse(r.stdout).conversation.title).toBe(`echo ${MASKED_KEY} title`);
    },
  );

  it('is masked in the result of an MCP tool call', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', HOME: tempDir(), ...env() },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'echo-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'keys_list', arguments: {} });
      expect(result.isError).toBe(true);
      const said = JSON.stringify(result.content);
      expect(said).toContain(MASKED_KEY);
      expect(said).not.toContain(KEY);
    } finally {
      await client.close();
    }
  });
});

describe('--debug traces redact signatures, one-time codes and wsctl keys inside strings', () => {
  it('in a JSON body, by field name, and in a URL inside a string', async () => {
    const r = await runBin(['api', '/signed?sig=qsig&otp=qotp&X-Amz-Signature=qamz&code=qcode&pin=qpin&page=2', '--debug'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const trace = r.stderr;
    expect(trace).toMatch(
      /> GET \S*\/signed\?sig=\[redacted\]&otp=\[redacted\]&X-Amz-Signature=\[redacted\]&code=\[redacted\]&pin=\[redacted\]&page=2/,
    );
    for (const secret of [
      'qsig',
      'qotp',
      'qamz',
      'qcode',
      'qpin',
      '482913',
      '111222',
      '4321',
      'sigvalue',
      'signaturevalue',
      'amzsigvalue',
      'oauthcode',
      'wsk_other0123456789xyz',
    ]) {
      expect(trace).not.toContain(secret);
    }
    expect(trace).toContain('"status_code":200');
    expect(trace).toContain('paste [redacted] into the form');
    expect(trace).toContain('X-Amz-Signature=[redacted]&code=[redacted]&part=1');
    // The result document itself is the service's, untouched: redaction is for traces only.
    expect(JSON.parse(r.stdout).code).toBe('482913');
  });
});
