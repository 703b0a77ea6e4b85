// How calls run (cli.md §8): progress while uploading and reading a transcript, at most 4 calls at
// once with the rest waiting their turn, a cancelled call's request aborted, a result over 4 MiB
// refused with how to ask for less; the server goes on after each.
import { png } from '../images.js';
import { getEventListeners } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, tempDir } from '../helpers.js';
import { connect, texts, type Connected } from './harness.js';
import { callEnv } from '../../src/cli/context.js';

const open: Connected[] = [];
const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function server(options: Parameters<typeof connect>[0], env: Record<string, string>): Promise<Connected> {
  const c = await connect(options, env);
  open.push(c);
  return c;
}

/** A service whose persona versions answer after `delayMs` (or never), counting the requests under way. */
async function slowService(delayMs: number | 'never') {
  const seen = {
    running: 0,
    most: 0,
    arrived: [] as string[],
    closed: [] as string[],
    connections: 0,
    ports: [] as { method: string; port: number }[],
  };
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    seen.running++;
    seen.most = Math.max(seen.most, seen.running);
    seen.arrived.push(url);
    seen.ports.push({ method: req.method ?? '', port: req.socket.remotePort ?? 0 });
    let done = false;
    req.on('close', () => {
      if (!done) seen.closed.push(url);
    });
    res.on('close', () => seen.running--);
    const answer = () => {
      done = true;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(url.startsWith('/pub/personas/') ? { published: [] } : { keys: [] }));
    };
    if (url === '/api-keys/') return answer();
    if (delayMs !== 'never') setTimeout(answer, delayMs);
  });
  http.on('connection', () => seen.connections++);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  servers.push(http);
  const env = {
    WSCTL_BASE_URL: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    WSCTL_API_KEY: 'wsk_slow_service_key_0123',
    WSCTL_CONFIG_DIR: tempDir(),
  };
  return { seen, env };
}

describe('calls', () => {
  it('20 calls at once: at most 4 run together, the rest wait their turn, all are answered', { timeout: 30_000 }, async () => {
    const { seen, env } = await slowService(150);
    const { client } = await server({}, env);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.callTool({ name: 'persona_versions', arguments: { persona_id: `p${i}` } })),
    );
    for (const r of results) expect(r.isError, texts(r).join()).toBeFalsy();
    expect(seen.arrived).toHaveLength(20);
    expect(seen.most).toBe(4);
    // Those that waited started in the order they came: four at a time, as four ended together.
    // Within four, the order the service reads them in is the kernel's (the calls share kept-alive connections).
    const fours = seen.arrived.slice(4).map((u) => Math.floor(Number(/p(\d+)/.exec(u)![1]) / 4));
    expect(fours).toEqual([...fours].sort((a, b) => a - b));
  });

  it("a call ends leaving nothing listening to the server's signal: answered, waiting its turn, failed, cancelled", async () => {
    const { env } = await slowService(100);
    const c = await server({}, env);
    const listening = () => getEventListeners(c.signal, 'abort').length;
    const eight = Array.from({ length: 8 }, (_, i) => c.client.callTool({ name: 'persona_versions', arguments: { persona_id: `p${i}` } }));
    // Four run, following the server's signal meanwhile; four wait their turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listening()).toBe(4);
    for (const r of await Promise.all(eight)) expect(r.isError, texts(r).join()).toBeFalsy();
    const failed = await c.client.callTool({ name: 'persona_versions', arguments: {} });
    expect(failed.isError).toBe(true);
    const cancel = new AbortController();
    const cancelled = c.client.callTool({ name: 'persona_versions', arguments: { persona_id: 'gone' } }, undefined, {
      signal: cancel.signal,
    });
    setTimeout(() => cancel.abort(), 20);
    await expect(cancelled).rejects.toThrow();
    for (let waited = 0; listening() > 0 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listening()).toBe(0);
  });

  it("a call's environment is the server's, copied once, but for the key, read when asked", () => {
    const before = process.env.WSCTL_API_KEY;
    try {
      process.env.WSCTL_API_KEY = 'wsk_first_key_000000000000';
      const env = callEnv(process.env);
      expect(env.PATH).toBe(process.env.PATH);
      process.env.WSCTL_API_KEY = 'wsk_second_key_00000000000';
      expect(env.WSCTL_API_KEY).toBe('wsk_second_key_00000000000');
      const given = { WSCTL_API_KEY: 'wsk_given' };
      expect(callEnv(given)).toBe(given);
    } finally {
      if (before === undefined) delete process.env.WSCTL_API_KEY;
      else process.env.WSCTL_API_KEY = before;
    }
  });

  it('calls one after another reuse kept-alive connections to the service', async () => {
    const { seen, env } = await slowService(0);
    const { client } = await server({}, env);
    for (let i = 0; i < 10; i++) {
      const r = await client.callTool({ name: 'persona_versions', arguments: { persona_id: `p${i}` } });
      expect(r.isError, texts(r).join()).toBeFalsy();
    }
    expect(seen.arrived).toHaveLength(10);
    // In this process the next call can start before undici has freed the last one's connection: two at most.
    expect(seen.connections).toBeLessThanOrEqual(2);
  });

  it('a request not safe to repeat never goes on a kept-alive connection: it connects anew', async () => {
    const { seen, env } = await slowService(0);
    const { client } = await server({ noConfirm: true }, env);
    for (const name of ['keys_list', 'keys_create', 'keys_list', 'keys_create', 'keys_list'])
      await client.callTool({ name, arguments: name === 'keys_create' ? { name: 'k' } : {} });
    const posts = seen.ports.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    // A connection idle in the pool may have been closed by the service: a POST sent on it would
    // fail after it may have arrived, and is not repeated. Each POST had a connection of its own.
    for (const post of posts) expect(seen.ports.filter((r) => r.port === post.port)).toHaveLength(1);
  });

  it('a cancelled call aborts its request, gets no result, and the server goes on', { timeout: 30_000 }, async () => {
    const { seen, env } = await slowService('never');
    const { client } = await server({}, env);
    const abort = new AbortController();
    const call = client.callTool({ name: 'persona_versions', arguments: { persona_id: 'held' } }, CallToolResultSchema, {
      signal: abort.signal,
    });
    while (seen.arrived.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    abort.abort('no longer needed');
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 100 && seen.closed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.closed).toEqual(['/pub/personas/held/published']);
    expect((await client.callTool({ name: 'keys_list', arguments: {} })).isError).toBeFalsy();
  });

  it('progress: bytes sent of an upload, messages read of a transcript, before the result', async () => {
    const sb = await startSandbox();
    const dir = tempDir();
    const image = png(200_000);
    writeFileSync(join(dir, 'big.png'), image);
    const { client } = await server({ uploadDir: dir, noConfirm: true }, sb.env);
    const uploads: { progress: number; total?: number }[] = [];
    const uploaded = await client.callTool(
      { name: 'persona_upload_avatar', arguments: { file: join(dir, 'big.png') } },
      CallToolResultSchema,
      { onprogress: (p) => uploads.push(p) },
    );
    expect(uploaded.isError, texts(uploaded).join()).toBeFalsy();
    expect(uploads.length).toBeGreaterThan(0);
    expect(uploads.at(-1)!.total).toBe(image.length);
    expect(uploads.at(-1)!.progress).toBeGreaterThanOrEqual(image.length);
    const reads: { progress: number }[] = [];
    const shown = await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_demo' } }, CallToolResultSchema, {
      onprogress: (p) => reads.push(p),
    });
    expect(shown.isError).toBeFalsy();
    expect(reads.map((p) => p.progress)).toContain(sb.state.conversations.conv_demo!.messages.length);
  });

  it('a result over 4 MiB is not sent: the error names its size and how to ask for less', async () => {
    const sb = await startSandbox();
    sb.state.conversations.conv_big = {
      conversation: { id: 'conv_big', title: 'Big' },
      state: 'idle',
      messages: Array.from({ length: 60 }, (_, i) => ({
        kind: 'request',
        parts: [{ part_kind: 'user-prompt', content: `${i} ${'x'.repeat(100_000)}` }],
      })),
    } as never;
    const { client } = await server({}, sb.env);
    const big = await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_big' } });
    expect(big.isError).toBe(true);
    expect(big.structuredContent).toBeUndefined();
    expect(texts(big)[0]).toMatch(
      /^Error: The result is \d+\.\d MiB, more than the 4 MiB a tool returns: pass a smaller tail, or a jq filter that keeps less\. \(exit code 2\)$/,
    );
    const small = await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_big', tail: 5 } });
    expect(small.isError, texts(small).join()).toBeFalsy();
  });
});

describe('resources and completion', () => {
  it('capabilities and settings are the --json documents; a conversation is its whole transcript as Markdown; ids seen complete', async () => {
    const sb = await startSandbox();
    const { client } = await server({}, sb.env);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['wsctl://capabilities', 'wsctl://settings']);
    const caps = await client.readResource({ uri: 'wsctl://capabilities' });
    expect(JSON.parse((caps.contents[0] as { text: string }).text)).toEqual(
      (await client.callTool({ name: 'caps', arguments: {} })).structuredContent,
    );
    const settings = await client.readResource({ uri: 'wsctl://settings' });
    expect(JSON.parse((settings.contents[0] as { text: string }).text)).toMatchObject({ timezone: sb.state.settings.timezone });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['wsctl://conversations/{conversation_id}']);
    // The whole transcript, not the tool's last 50.
    sb.state.conversations.conv_long = {
      conversation: { id: 'conv_long', title: 'Long' },
      state: 'idle',
      messages: Array.from({ length: 70 }, (_, i) => ({ kind: 'request', parts: [{ part_kind: 'user-prompt', content: `message ${i}` }] })),
    } as never;
    const long = await client.readResource({ uri: 'wsctl://conversations/conv_long' });
    expect(long.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect((long.contents[0] as { text: string }).text.match(/^## /gm)).toHaveLength(70);
    // Completion offers the conversation ids seen: caps' text numbers and the conversations shown.
    await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_demo' } });
    const ref = { type: 'ref/resource' as const, uri: 'wsctl://conversations/{conversation_id}' };
    const all = await client.complete({ ref, argument: { name: 'conversation_id', value: '' } });
    const fromCaps = ((caps.contents[0] as { text: string }).text.match(/"conversation_id":\s*"([^"]+)"/g) ?? []).map(
      (m) => JSON.parse(`{${m}}`).conversation_id,
    );
    expect(fromCaps.length).toBeGreaterThan(0);
    expect(all.completion.values).toEqual(expect.arrayContaining(['conv_demo', ...fromCaps]));
    const some = await client.complete({ ref, argument: { name: 'conversation_id', value: 'conv_d' } });
    expect(some.completion.values).toEqual(['conv_demo']);
  });
});
