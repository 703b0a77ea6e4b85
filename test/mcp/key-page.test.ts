// A provider key never passes through the model (cli.md §8; MCP 2025-11-25 forbids asking for a
// secret in form mode): byok_add takes no key. With a client that declared URL-mode elicitation,
// the person pastes it into a one-time page on 127.0.0.1, fetched and posted here as a browser
// would, with a real HTTP client; the server's WSCTL_BYOK_API_KEY comes first, confirmed as
// before; else, and for a call that still passes api_key, the refusal names the command line.
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox } from '../helpers.js';
import type { Globals } from '../../src/common/globals.js';
import { createServer, type McpOptions } from '../../src/mcp/mcp-server.js';
import { loadTools, manualClock, serverContext, texts } from './harness.js';

const KEY = 'sk-provider-page-0123456789abcdef';
const ARGS = { name: 'fast', provider_url: 'https://api.groq.com/openai/v1', format: 'groq', model: 'llama-3.3-70b' };
const LINE =
  'wsctl byok add --profile work --name fast --provider-url https://api.groq.com/openai/v1 --format groq --model llama-3.3-70b --api-key-stdin';
const DECLINED = 'Error: Declined: nothing was sent. (exit code 2)';

const TOOLS = await loadTools();
let sb: TestSandbox;
const open: (() => Promise<void>)[] = [];
beforeEach(async () => {
  sb = await startSandbox();
});
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

interface Side {
  /** What the client declares of elicitation; none when undefined. */
  elicitation?: Record<string, object>;
  answer?: (request: ElicitRequest) => ElicitResult;
  env?: Record<string, string>;
  globals?: Globals;
  options?: McpOptions;
}

/** The server of src/mcp with the SDK's own client, which declares `elicitation` and answers each question with `answer`. */
async function connect(side: Side) {
  const clock = manualClock();
  const { ctx, stderr } = await serverContext({ WSCTL_DEBUG: '1', ...sb.env, ...side.env }, side.globals ?? {}, clock);
  const { server } = createServer(side.options ?? {}, ctx, TOOLS);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: 'browser-test', version: '1' },
    { capabilities: side.elicitation ? { elicitation: side.elicitation } : {} },
  );
  const asked: ElicitRequest['params'][] = [];
  const completed: string[] = [];
  if (side.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return (side.answer ?? (() => ({ action: 'accept' })))(request);
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => void completed.push(n.params.elicitationId));
  }
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await server.close();
    await ctx.close();
  });
  return { client, clock, asked, completed, stderr };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request as a browser sends it, by node:http; the error's code when the connection is refused. */
function http(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply | string> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: hostname, port, path: pathname, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end(options.body);
  });
}

/** The form post the page makes, from the page's own origin unless told otherwise. */
function post(url: string, fields: Record<string, string>, headers: Record<string, string | undefined> = {}): Promise<Reply | string> {
  const { origin, host } = new URL(url);
  const sent = { Host: host, Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded', ...headers };
  return http(url, {
    method: 'POST',
    headers: Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== undefined)) as Record<string, string>,
    body: new URLSearchParams(fields).toString(),
  });
}

async function until(what: string, test: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!test()) throw new Error(`waited in vain for ${what}`);
}

const byokSent = () => sb.requests.filter((r) => r.path.startsWith('/byok'));
const status = (reply: Reply | string) => (typeof reply === 'string' ? reply : reply.status);

describe('byok_add through a page on 127.0.0.1', () => {
  it('the page names the provider, its URL, the profile and the command line; one post from itself goes on, nothing else does', async () => {
    const c = await connect({ elicitation: { url: {} }, globals: { profile: 'work' } });
    const called = c.client.callTool({ name: 'byok_add', arguments: ARGS });
    await until('the URL-mode question', () => c.asked.length === 1);
    const asked = c.asked[0] as ElicitRequest['params'] & { url: string; elicitationId: string };
    expect(asked.mode).toBe('url');
    expect(asked.elicitationId).toMatch(/\S{16,}/);
    // 43 base64url characters: 256 random bits.
    expect(asked.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/key\/[\w-]{43}$/);
    expect(asked.message).toContain('provider_url: "https://api.groq.com/openai/v1"');
    const url = asked.url;
    const { host } = new URL(url);

    const page = (await http(url, { headers: { Host: host } })) as Reply;
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toMatch(/no-store/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'/);
    expect(page.body).toContain('<dt>provider_url</dt><dd>&#34;https://api.groq.com/openai/v1&#34;</dd>');
    expect(page.body).toContain('<dt>name</dt><dd>&#34;fast&#34;</dd>');
    expect(page.body).toContain('<dt>Profile</dt><dd>&#39;work&#39;</dd>');
    expect(page.body).toContain(`<pre><code>${LINE}</code></pre>`);
    expect(page.body).toMatch(/<input id="key" name="key" type="password" required/);
    // Nothing from anywhere else: no script, no link, no image, no frame.
    expect(page.body).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|\bhref=/i);

    // Refused: another origin, none, another Host (a name rebound to 127.0.0.1), a wrong token, another method.
    expect(status(await post(url, { key: KEY }, { Origin: 'https://evil.example' }))).toBe(403);
    expect(status(await post(url, { key: KEY }, { Origin: 'null' }))).toBe(403);
    expect(status(await post(url, { key: KEY }, { Origin: undefined }))).toBe(403);
    expect(status(await post(url, { key: KEY }, { Host: `evil.example:${new URL(url).port}` }))).toBe(403);
    expect(status(await http(url, { headers: { Host: `localhost:${new URL(url).port}` } }))).toBe(403);
    expect(status(await post(`${url.slice(0, -4)}AAAA`, { key: KEY }))).toBe(404);
    expect(status(await post(`${new URL(url).origin}/key/`, { key: KEY }))).toBe(404);
    expect(status(await http(url, { method: 'PUT', headers: { Host: host } }))).toBe(405);
    // Every refusal names the terminal's way; before the secret path is shown, without the call's
    // provider or profile (a site rebound to 127.0.0.1 could read it).
    const foreign = (await post(url, { key: KEY }, { Origin: 'https://evil.example' })) as Reply;
    expect(foreign.body).toContain(`Run this in a terminal instead: ${LINE}`);
    for (const early of [
      (await http(url, { headers: { Host: `localhost:${new URL(url).port}` } })) as Reply,
      (await post(`${url.slice(0, -4)}AAAA`, { key: KEY })) as Reply,
    ]) {
      expect(early.body).toContain('Run this in a terminal instead: wsctl byok add … --api-key-stdin');
      expect(early.body).not.toContain('groq');
    }
    // An empty key is not the submission: the page is shown again.
    expect(status(await post(url, { key: '  ', answer: 'submit' }))).toBe(400);
    expect(byokSent()).toEqual([]);

    const submitted = (await post(url, { key: KEY, answer: 'submit' })) as Reply;
    expect(submitted.status).toBe(200);
    expect(submitted.body).not.toContain(KEY);
    const result = await called;
    expect(result.isError, texts(result).join()).toBeFalsy();
    expect(JSON.parse(byokSent()[0]!.body)).toMatchObject({ name: 'fast', api_key: KEY, format: 'groq', model_id: 'llama-3.3-70b' });
    expect((result.structuredContent as { api_key: string }).api_key).toBe('sk-p…cdef');
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(c.stderr()).toContain('POST');
    expect(c.stderr()).not.toContain(KEY);
    // No second question: the submission was the consent. The client hears the page is done.
    expect(c.asked).toHaveLength(1);
    await until('notifications/elicitation/complete', () => c.completed.length === 1);
    expect(c.completed).toEqual([asked.elicitationId]);
    // One submission: a second post, and the page itself, are gone.
    expect([404, 'ECONNREFUSED']).toContain(status(await post(url, { key: 'sk-second-0123456789' })));
    expect(status(await http(url, { headers: { Host: host } }))).toBe('ECONNREFUSED');
    expect(byokSent()).toHaveLength(1);
  });

  it('every value shown is HTML-escaped; Decline on the page declines the call (exit code 2), nothing sent', async () => {
    const c = await connect({ elicitation: { url: {} } });
    const hostile = '<script>alert("x")</script>&\'';
    const called = c.client.callTool({ name: 'byok_add', arguments: { ...ARGS, name: hostile, model: '<b>m</b>' } });
    await until('the URL-mode question', () => c.asked.length === 1);
    const url = (c.asked[0] as { url: string }).url;
    const page = (await http(url, { headers: { Host: new URL(url).host } })) as Reply;
    expect(page.body).not.toContain('<script');
    expect(page.body).not.toContain('<b>');
    expect(page.body).toContain('&#60;script&#62;alert(\\&#34;x\\&#34;)&#60;/script&#62;&#38;&#39;');
    expect(page.body).toContain(
      '--name &#39;&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;\\&#39;&#39;&#39; --provider-url',
    );
    expect(status(await post(url, { key: '', answer: 'decline' }))).toBe(200);
    expect(texts(await called)[0]).toBe(DECLINED);
    expect(byokSent()).toEqual([]);
  });

  it('a person who declines or cancels in the client: exit code 2, nothing sent, the page gone', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const c = await connect({ elicitation: { url: {} }, answer: () => ({ action }) });
      const result = await c.client.callTool({ name: 'byok_add', arguments: ARGS });
      expect(texts(result)[0], action).toBe(DECLINED);
      const url = (c.asked[0] as { url: string }).url;
      expect(status(await http(url, { headers: { Host: new URL(url).host } }))).toBe('ECONNREFUSED');
    }
    expect(byokSent()).toEqual([]);
  });

  it('nothing submitted within 10 minutes (on the injected clock): declined, and the page is gone', async () => {
    const c = await connect({ elicitation: { url: {} } });
    let settled = false;
    const called = c.client.callTool({ name: 'byok_add', arguments: ARGS }).finally(() => (settled = true));
    await until('the 10 minutes to start', () => c.clock.sleeps.includes(10 * 60 * 1000) && c.asked.length === 1);
    const url = (c.asked[0] as { url: string }).url;
    expect(status(await http(url, { headers: { Host: new URL(url).host } }))).toBe(200);
    expect(settled).toBe(false);
    c.clock.pass();
    expect(texts(await called)[0]).toBe('Error: No answer within 10 minutes: nothing was sent. (exit code 2)');
    expect(status(await post(url, { key: KEY }))).toBe('ECONNREFUSED');
    expect(byokSent()).toEqual([]);
  });
});

describe('byok_add without a page', () => {
  it("the server's WSCTL_BYOK_API_KEY comes first, with the form question; no page", async () => {
    const env = { WSCTL_BYOK_API_KEY: KEY };
    const yes = await connect({
      elicitation: { form: {}, url: {} },
      env,
      answer: () => ({ action: 'accept', content: { confirm: true } }),
    });
    const result = await yes.client.callTool({ name: 'byok_add', arguments: ARGS });
    expect(result.isError, texts(result).join()).toBeFalsy();
    expect(yes.asked.map((a) => a.mode)).toEqual(['form']);
    expect(yes.asked[0]!.message).toMatch(/^Action: register model provider\./);
    expect(JSON.parse(byokSent()[0]!.body).api_key).toBe(KEY);
    expect(JSON.stringify(result)).not.toContain(KEY);

    const no = await connect({ elicitation: { form: {}, url: {} }, env, answer: () => ({ action: 'decline' }) });
    expect(texts(await no.client.callTool({ name: 'byok_add', arguments: ARGS }))[0]).toBe(DECLINED);
    expect(byokSent()).toHaveLength(1);
  });

  it('a client without URL-mode elicitation: refused (exit code 2) naming the command line with --api-key-stdin; nothing asked or sent', async () => {
    for (const elicitation of [undefined, { form: {} }]) {
      const c = await connect({ elicitation, globals: { profile: 'work' } });
      const result = await c.client.callTool({ name: 'byok_add', arguments: ARGS });
      expect(result.isError).toBe(true);
      expect(texts(result)[0]).toBe(
        `Error: byok_add needs a person to give the provider API key, and this client cannot open a page for it (URL-mode elicitation): nothing was sent. A person can run \`${LINE}\`, or start the server with WSCTL_BYOK_API_KEY set. (exit code 2)`,
      );
      expect(c.asked).toEqual([]);
    }
    expect(byokSent()).toEqual([]);
  });

  it('a call that still passes api_key is refused (exit code 2) with the command line, whatever the client; the key is said nowhere', async () => {
    for (const side of [{ elicitation: { url: {} } }, { options: { noConfirm: true }, env: { WSCTL_BYOK_API_KEY: 'sk-env-0123456789' } }]) {
      const c = await connect({ ...side, globals: { profile: 'work' } });
      const result = await c.client.callTool({ name: 'byok_add', arguments: { ...ARGS, api_key: KEY } });
      expect(texts(result)[0]).toBe(
        `Error: byok_add takes no api_key: a provider API key never passes through the model, and nothing was sent. A person can run \`${LINE}\`, or start the server with WSCTL_BYOK_API_KEY set. (exit code 2)`,
      );
      expect(JSON.stringify(result)).not.toContain(KEY);
      expect(c.stderr()).not.toContain(KEY);
      expect(c.asked).toEqual([]);
    }
    expect(byokSent()).toEqual([]);
  });

  it('the tool has no argument for the key', async () => {
    const c = await connect({});
    const byok = (await c.client.listTools()).tools.find((t) => t.name === 'byok_add')!;
    expect(Object.keys(byok.inputSchema.properties ?? {}).sort()).toEqual(['format', 'jq', 'model', 'name', 'provider_url']);
    expect(byok.inputSchema.required?.sort()).toEqual(['format', 'model', 'name', 'provider_url']);
  });
});
