// wsctl mcp through the SDK's own Client over its linked in-memory transport, against a real
// sandbox server on 127.0.0.1: the tool list, annotations, offering rules, masking, every tool's
// call and its errors.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, silentDoor, startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { createCtx } from '../../src/cli/context.js';
import { ToolRunner } from '../../src/mcp/mcp-server.js';
import { endpoints } from '../../src/service.js';
import { connect, texts, type Connected, loadTools } from './harness.js';

const TOOLS = await loadTools();
const ALL = TOOLS.map((t) => t.name);
/** From the endpoint table: a tool that calls only GETs reads; one that calls a DELETE deletes. */
const methodsOf = (name: string) =>
  (TOOLS.find((t) => t.name === name)!.verb.endpoints as (keyof typeof endpoints)[]).map((e) => endpoints[e].method as string);
const DESTRUCTIVE = ALL.filter((n) => methodsOf(n).includes('DELETE'));
const READS = ALL.filter((n) => methodsOf(n).every((m) => m === 'GET'));
/** Calling again changes nothing more: the reads, the deletions, and what the table marks idempotent. */
const IDEMPOTENT = ALL.filter((n) =>
  (TOOLS.find((t) => t.name === n)!.verb.endpoints as (keyof typeof endpoints)[]).every(
    (e) => ['GET', 'DELETE'].includes(endpoints[e].method) || 'idempotent' in endpoints[e],
  ),
);
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f000500020127efa3d50000000049454e44ae426082',
  'hex',
);

let sb: TestSandbox;
const open: Connected[] = [];
beforeEach(async () => {
  sb = await startSandbox();
});
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function server(options: Parameters<typeof connect>[0] = {}, env: Record<string, string> = sb.env): Promise<Connected> {
  const c = await connect(options, env);
  open.push(c);
  return c;
}

describe('the tool list', () => {
  it('offers the reads and writes by default, the deletions too with --allow-destructive, the reads alone with --read-only', async () => {
    const names = async (options: Parameters<typeof connect>[0]) =>
      (await (await server(options)).client.listTools()).tools.map((t) => t.name);
    expect(await names({})).toEqual(ALL.filter((n) => !DESTRUCTIVE.includes(n)));
    expect(await names({ allowDestructive: true })).toEqual(ALL);
    expect(await names({ readOnly: true })).toEqual(READS);
    expect(DESTRUCTIVE.length).toBeGreaterThan(0);
    expect(READS.length).toBeGreaterThan(0);
  });

  it('describes the tools for agents: no terminals, prompts, stdin or --yes', async () => {
    const { tools } = await (await server({ allowDestructive: true })).client.listTools();
    for (const tool of tools) expect(tool.description, tool.name).not.toMatch(/terminal|\bprompt\b|stdin|--yes|WSCTL_BYOK_API_KEY/);
    expect(tools.find((t) => t.name === 'device_rm')!.description).toMatch(/^Remove a registered device/);
    expect(tools.find((t) => t.name === 'byok_add')!.description).toMatch(/API key never passes through the model/);
  });

  it('keys_create with the key masked says nothing on stderr about copying it', async () => {
    const masked = await server();
    expect((await masked.client.callTool({ name: 'keys_create', arguments: { name: 'agent' } })).isError).toBeFalsy();
    expect(masked.stderr()).not.toContain('Copy the key');
  });

  it('force, which replaces what exists, waits for a person: refused naming the command line when the client cannot ask', async () => {
    const { client } = await server({}, sb.env);
    await client.callTool({ name: 'site_create', arguments: { name: 'launch' } });
    const before = sb.requests.length;
    const refused = await client.callTool({ name: 'site_create', arguments: { name: 'launch', force: true } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
    expect(texts(refused)[0]).toBe(
      'Error: site_create needs a person to confirm, and this client cannot ask: nothing was sent. A person can run `wsctl site create launch --force`. (exit code 2)',
    );
    expect(sb.requests.length).toBe(before);
    // --no-confirm: force replaces.
    const replaced = await (await server({ noConfirm: true })).client.callTool({
      name: 'site_create',
      arguments: { name: 'launch', force: true },
    });
    expect(replaced.isError, texts(replaced).join()).toBeFalsy();
    expect(JSON.parse(lastRequest(sb).body)).toMatchObject({ name: 'launch', force: true });
  });

  it('annotates reads, writes and deletions, with input and output schemas', async () => {
    const { tools } = await (await server({ allowDestructive: true })).client.listTools();
    for (const tool of tools) {
      const read = READS.includes(tool.name);
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: read, destructiveHint: DESTRUCTIVE.includes(tool.name) });
      expect(tool.annotations?.idempotentHint, tool.name).toBe(IDEMPOTENT.includes(tool.name));
      expect(tool.annotations?.openWorldHint, tool.name).toBe(tool.name === 'notes_import');
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description, tool.name).toBeTruthy();
    }
    const byok = tools.find((t) => t.name === 'byok_add')!;
    expect(byok.inputSchema.required?.sort()).toEqual(['format', 'model', 'name', 'provider_url']);
    expect((byok.inputSchema.properties as Record<string, { enum?: string[] }>).format?.enum).toEqual(['openai', 'anthropic', 'groq']);
    const site = tools.find((t) => t.name === 'site_create')!;
    expect((site.inputSchema.properties as Record<string, { enum?: string[] }>).variant?.enum).toEqual([
      'blank',
      'blog',
      'event',
      'slides',
      'data',
      'marketing',
    ]);
    // Descriptions come from the command tree.
    expect(
      (tools.find((t) => t.name === 'persona_versions')!.inputSchema.properties as Record<string, { description?: string }>).persona_id
        ?.description,
    ).toBe('the persona id');
  });
});

describe('calls', () => {
  it('keys_list, caps and settings return the --json document as structuredContent and as text', async () => {
    const { client } = await server();
    for (const name of ['keys_list', 'caps', 'settings']) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBeFalsy();
      expect(JSON.parse(texts(result)[0]!)).toEqual(result.structuredContent);
    }
    const keys = await client.callTool({ name: 'keys_list', arguments: {} });
    expect((keys.structuredContent as { keys: { id: string }[] }).keys.map((k) => k.id)).toEqual(sb.state.keys.map((k) => k.id));
    expect(JSON.stringify(keys)).not.toContain(sb.key);
  });

  it('convo_show returns the last 50 messages, or tail, and the transcript as Markdown', async () => {
    const { client } = await server();
    const all = await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_demo' } });
    const doc = all.structuredContent as { conversation: { id: string; title: string }; messages: unknown[] };
    expect(doc.conversation.id).toBe('conv_demo');
    expect(doc.messages.length).toBe(Math.min(50, sb.state.conversations.conv_demo!.messages.length));
    // One text part: the transcript as Markdown, never the transcript twice.
    expect(texts(all)).toHaveLength(1);
    const [markdown] = texts(all);
    expect(markdown).toMatch(new RegExp(`^# ${doc.conversation.title}\\n`));
    expect(markdown).toContain('**Totals:**');
    // Default 50 of a longer conversation.
    const long = {
      conversation: { id: 'conv_long', title: 'Long' },
      state: 'idle',
      messages: Array.from({ length: 70 }, (_, i) => ({ kind: 'request', parts: [{ part_kind: 'user-prompt', content: `message ${i}` }] })),
    };
    sb.state.conversations.conv_long = long;
    const fifty = await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_long' } });
    expect((fifty.structuredContent as { messages: unknown[] }).messages).toEqual(long.messages.slice(-50));
    expect(texts(fifty)[0]).toContain('message 69');
    expect(texts(fifty)[0]).not.toContain('message 19\n');
    const two = await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_long', tail: 2 } });
    expect((two.structuredContent as { messages: unknown[] }).messages).toEqual(long.messages.slice(-2));
    expect(texts(two)[0]!.match(/^## /gm)).toHaveLength(2);
  });

  it('the writes send what the commands send', async () => {
    const { client } = await server();
    const imported = await client.callTool({
      name: 'notes_import',
      arguments: { page_id: 'page_demo', to: 'projects/2027', title: 'Roadmap' },
    });
    expect(imported.isError, texts(imported).join()).toBeFalsy();
    expect(JSON.parse(lastRequest(sb).body)).toEqual({ page_id: 'page_demo', title: 'Roadmap', target_path: ['projects', '2027'] });
    const perm = await client.callTool({
      name: 'conn_set_permission',
      arguments: { app_slug: 'gmail', pd_conn_id: 'pdc_gmail', permission: 'read' },
    });
    expect(perm.structuredContent).toEqual({ success: true });
    expect([lastRequest(sb).method, lastRequest(sb).path]).toEqual(['PATCH', '/connections/gmail/pdc_gmail/permission']);
    const site = await client.callTool({
      name: 'site_create',
      arguments: { name: 'launch', variant: 'marketing', parent: 'a/b', display_name: 'Launch' },
    });
    expect(site.isError, texts(site).join()).toBeFalsy();
    expect(JSON.parse(lastRequest(sb).body)).toEqual({
      name: 'launch',
      variant: 'marketing',
      parent_path_parts: ['a', 'b'],
      display_name: 'Launch',
    });
    // The same name again: the service's `error` makes the call fail (exit 1), with the document.
    const again = await client.callTool({ name: 'site_create', arguments: { name: 'launch' } });
    expect(again.isError).toBe(true);
    expect(texts(again)[0]).toMatch(/^Error: Could not create site 'launch': .*\(exit code 1\)$/);
    expect(JSON.parse(texts(again)[2]!).error).toBeTruthy();
    const versions = await client.callTool({ name: 'persona_versions', arguments: { persona_id: 'persona_demo' } });
    expect((versions.structuredContent as { published: unknown[] }).published.length).toBeGreaterThan(0);
  });

  it('byok_add sends the provider key and returns it masked; nothing secret on stderr', async () => {
    const secret = 'sk-provider-0123456789abcdef';
    // The key from the server's environment (a page otherwise: test/mcp/key-page.test.ts).
    const c = await server({ noConfirm: true }, { ...sb.env, WSCTL_DEBUG: '1', WSCTL_BYOK_API_KEY: secret });
    const result = await c.client.callTool({
      name: 'byok_add',
      arguments: { name: 'fast', provider_url: 'https://api.groq.com/openai/v1', format: 'groq', model: 'llama-3.3-70b' },
    });
    expect(result.isError, texts(result).join()).toBeFalsy();
    expect(JSON.parse(lastRequest(sb).body).api_key).toBe(secret);
    expect((result.structuredContent as { api_key: string }).api_key).toBe('sk-p…cdef');
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(c.stderr()).toContain('POST');
    expect(c.stderr()).not.toContain(secret);
    expect(c.stderr()).not.toContain(sb.key);
  });

  it('byok_add takes the provider key whole: a newline or control character in it is refused (exit 2), nothing sent', async () => {
    const args = { name: 'fast', provider_url: 'https://api.groq.com/openai/v1', format: 'groq', model: 'llama-3.3-70b' };
    for (const api_key of ['sk-first-line\nsk-second-line', 'sk-abc\u0007def', 'sk-abc def']) {
      const { client } = await server({ noConfirm: true }, { ...sb.env, WSCTL_BYOK_API_KEY: api_key });
      const result = await client.callTool({ name: 'byok_add', arguments: args });
      expect(result.isError, JSON.stringify(api_key)).toBe(true);
      expect(texts(result)[0]).toMatch(/^Error: The provider key [^\n]*\(exit code 2\)$/);
    }
    expect(sb.requests.filter((r) => r.path.startsWith('/byok'))).toEqual([]);
  });

  it('keys_create masks the new key unless --show-secrets; save_as stores it in a profile', async () => {
    const masked = await (await server()).client.callTool({ name: 'keys_create', arguments: { name: 'agent' } });
    const made = sb.state.keys.at(-1)!;
    const doc = masked.structuredContent as { id: string; key: string };
    expect(doc.id).toBe(made.id);
    expect(doc.key).toMatch(/^.{4}….{4}$/);
    expect(JSON.stringify(masked)).not.toMatch(/wsk_[A-Za-z0-9]{20,}/);
    const debugging = await server({ showSecrets: true }, { ...sb.env, WSCTL_DEBUG: '1' });
    const shown = await debugging.client.callTool({ name: 'keys_create', arguments: { name: 'agent2' } });
    const full = (shown.structuredContent as { key: string }).key;
    expect(full).toMatch(/^wsk_[A-Za-z0-9]{20,}$/);
    // --debug traces the exchange on stderr, the new key redacted.
    expect(debugging.stderr()).toContain('/api-keys/');
    expect(debugging.stderr()).not.toContain(full);

    const config = tempDir();
    const c = await server({}, { ...sb.env, WSCTL_CONFIG_DIR: config });
    const saved = await c.client.callTool({ name: 'keys_create', arguments: { name: 'ci', save_as: 'ci', insecure_storage: true } });
    expect(saved.isError, texts(saved).join()).toBeFalsy();
    const stored = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.ci;
    expect(stored.base_url).toBe(sb.url);
    expect(stored.api_key).toMatch(/^wsk_/);
    expect((saved.structuredContent as { key: string }).key).toBe(`${stored.api_key.slice(0, 4)}…${stored.api_key.slice(-4)}`);
    expect(c.stderr()).not.toContain(stored.api_key);
    // An existing profile is replaced only with force, as --save-as does off a terminal.
    const twice = await c.client.callTool({ name: 'keys_create', arguments: { name: 'ci', save_as: 'ci' } });
    expect(twice.isError).toBe(true);
    expect(texts(twice)[0]).toContain('pass --force');
  });

  it('keys_create whose save_as fails returns the new key in full, named, so that it is not lost', async () => {
    // A configuration folder nothing can write, not even root (chmod fails there).
    const c = await server({}, { ...sb.env, WSCTL_CONFIG_DIR: '/proc/self/fdinfo' });
    const result = await c.client.callTool({ name: 'keys_create', arguments: { name: 'lost', save_as: 'ci', insecure_storage: true } });
    const made = sb.state.keys.at(-1)!;
    expect(made.name).toBe('lost');
    expect(result.isError).toBe(true);
    const [line, error, document] = texts(result);
    expect(line).toMatch(
      new RegExp(`^Error: [^\\n]*The key 'lost' \\(id ${made.id}\\) was created but its secret was not written[^\\n]*\\(exit code 1\\)$`),
    );
    expect(JSON.parse(error!).error).toMatchObject({ exit_code: 1, reason: 'local_error' });
    const key = JSON.parse(document!) as { id: string; key: string };
    expect(key.id).toBe(made.id);
    expect(key.key).toMatch(/^wsk_[A-Za-z0-9]{20,}$/);
    // The server goes on.
    expect((await c.client.callTool({ name: 'caps', arguments: {} })).isError).toBeFalsy();
  });

  it('persona_upload_avatar uploads a local image, and applies the file checks before sending', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ada.png'), PNG);
    writeFileSync(join(dir, 'notes.txt'), 'not an image');
    const { client } = await server({ noConfirm: true, uploadDir: dir });
    const ok = await client.callTool({ name: 'persona_upload_avatar', arguments: { file: join(dir, 'ada.png') } });
    expect(ok.isError, texts(ok).join()).toBeFalsy();
    expect((ok.structuredContent as { url: string }).url).toMatch(/^https?:\/\//);
    const before = sb.requests.length;
    for (const file of [join(dir, 'notes.txt'), join(dir, 'missing.png'), dir]) {
      const bad = await client.callTool({ name: 'persona_upload_avatar', arguments: { file } });
      expect(bad.isError, file).toBe(true);
      expect(texts(bad)[0]).toMatch(/\(exit code 2\)$/);
    }
    expect(sb.requests.length).toBe(before);
  });

  it('destructive tools delete at once when offered with --no-confirm', async () => {
    const { client } = await server({ allowDestructive: true, noConfirm: true });
    const device = await client.callTool({ name: 'device_rm', arguments: { device_id: 'dev_phone' } });
    expect(device.structuredContent).toEqual({ success: true });
    expect(sb.state.devices.map((d) => d.id)).not.toContain('dev_phone');
    expect((await client.callTool({ name: 'pub_rm', arguments: { pub_id: 'pub_demo' } })).isError).toBeFalsy();
    expect(
      (await client.callTool({ name: 'conn_rm', arguments: { app_slug: 'notion', pd_conn_id: 'pdc_notion' } })).structuredContent,
    ).toEqual({ success: true });
    const gone = await client.callTool({ name: 'device_rm', arguments: { device_id: 'dev_phone' } });
    expect(gone.isError).toBe(true);
    expect(texts(gone)[0]).toMatch(/^Error: .*\(exit code 5\)$/);
    expect(JSON.parse(texts(gone)[1]!).error).toMatchObject({ exit_code: 5, status: 404, reason: 'not_found' });
  });
});

describe('errors', () => {
  it('unknown tools and tools not offered are protocol errors; wrong arguments are results with exit code 2', async () => {
    const { client } = await server();
    const protocol = async (name: string, args: Record<string, unknown>) => {
      const error = await client.callTool({ name, arguments: args }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, `${name} ${JSON.stringify(args)}`).toBeInstanceOf(McpError);
      return (error as McpError).code;
    };
    expect(await protocol('device_rm', { device_id: 'dev_phone' })).toBe(-32602);
    expect(sb.state.devices.map((d) => d.id)).toContain('dev_phone');
    expect(await protocol('nope', {})).toBe(-32602);
    const refused = async (name: string, args: Record<string, unknown>, said: string) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(texts(result)[0]).toBe(`Error: ${said} (exit code 2)`);
    };
    await refused(
      'convo_show',
      {},
      "Missing required argument 'conversation_id'. `wsctl caps` shows conversation ids (its text numbers), and `wsctl ids conversation` lists those seen before.",
    );
    await refused('convo_show', { conversation_id: 'conv_demo', tail: -1 }, "Invalid tail '-1': give a whole number of messages.");
    await refused('convo_show', { conversation_id: 'conv_demo', tail: 'x' }, 'Invalid tail: expected a whole number, got a string.');
    await refused('convo_show', { conversation_id: 7 }, 'Invalid conversation_id: expected a string, got a number.');
    await refused(
      'byok_add',
      { name: 'n', provider_url: 'ftp://x', format: 'openai', model: 'm' },
      "Invalid provider_url 'ftp://x': give an http:// or https:// URL.",
    );
    await refused(
      'byok_add',
      { name: 'n', provider_url: 'https://x', format: 'nope', model: 'm' },
      "Option 'format' argument 'nope' is invalid. Allowed choices are openai, anthropic, groq.",
    );
    await refused('byok_add', { name: 'n' }, 'Missing required options provider_url, format, model.');
    await refused('keys_list', { surprise: 1 }, "Unknown argument 'surprise' for keys_list. Arguments: jq.");
    await refused('keys_create', { name: ' ' }, 'The key name must not be empty.');
    await refused('keys_create', { name: 'x', force: true }, 'force goes with save_as: without it no key is saved.');
    await refused('keys_create', { name: 'x', force: 'yes' }, 'Invalid force: expected a boolean, got a string.');
    expect(sb.requests).toEqual([]);
  });

  it('protocol errors say their code once, and a tool not offered names the flag that offers it', async () => {
    const said = async (c: Connected, name: string, args: Record<string, unknown>) => {
      const error = await c.client.callTool({ name, arguments: args }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(McpError);
      expect((error as McpError).code, name).toBe(-32602);
      return (error as McpError).message;
    };
    const plain = await server();
    expect(await said(plain, 'nope', {})).toMatch(/^MCP error -32602: Unknown tool 'nope'\. Tools: keys_create, /);
    expect(await said(plain, 'device_rm', { device_id: 'dev_phone' })).toBe(
      "MCP error -32602: Tool 'device_rm' deletes, and is offered only when the server is started with --allow-destructive.",
    );
    const reads = await server({ readOnly: true });
    expect(await said(reads, 'site_create', { name: 'x' })).toBe(
      "MCP error -32602: Tool 'site_create' is not offered: the server was started with --read-only, which offers the reads alone.",
    );
    expect(await said(reads, 'pub_rm', { pub_id: 'x' })).toMatch(/--read-only/);
    expect(sb.requests).toEqual([]);
  });

  it('arguments that are null or not an object are results with exit code 2; a name that is not a string is invalid params', async () => {
    const { client } = await server();
    for (const args of [null, [], 'x']) {
      const result = await client.request(
        { method: 'tools/call', params: { name: 'keys_list', arguments: args } as never },
        CallToolResultSchema,
      );
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(texts(result)[0]).toBe('Error: Invalid arguments for keys_list: arguments must be an object. (exit code 2)');
    }
    const error = await client.request({ method: 'tools/call', params: { name: 42 } as never }, CallToolResultSchema).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('Invalid tools/call request: params.name must be a string.');
    expect(sb.requests).toEqual([]);
  });

  it('a failed call is a result with the one-line message and exit code, and the server goes on', async () => {
    const { client } = await server({}, { ...sb.env, WSCTL_API_KEY: 'wsk_wrong_key_000000000000' });
    const denied = await client.callTool({ name: 'keys_list', arguments: {} });
    expect(denied.isError).toBe(true);
    expect(texts(denied)[0]).toMatch(/^Error: [^\n]+\(exit code 4\)$/);
    expect(JSON.parse(texts(denied)[1]!).error).toMatchObject({ exit_code: 4, status: 401, reason: 'auth_rejected' });
    const good = await (await server()).client.callTool({ name: 'caps', arguments: {} });
    expect(good.isError).toBeFalsy();
    // No base URL at all: exit 4, and the server still answers.
    const none = await server({}, { WSCTL_CONFIG_DIR: tempDir() });
    const missing = await none.client.callTool({ name: 'settings', arguments: {} });
    expect(texts(missing)[0]).toMatch(/No base URL.*\(exit code 4\)$/);
    expect((await none.client.listTools()).tools.map((t) => t.name)).toEqual(ALL.filter((n) => !DESTRUCTIVE.includes(n)));
  });
});

describe('a call that crashes', () => {
  it('is a result (exit 1, one line), never the end of the server', async () => {
    const ctx = await createCtx(
      { ...silentDoor(), env: { HOME: tempDir(), ...sb.env }, signal: new AbortController().signal, version: '0.0.0-test' },
      {},
    );
    const runner = new ToolRunner(ctx, {});
    const crashing = [new TypeError("Cannot read properties of undefined (reading 'x')\n    at somewhere"), 'a string', undefined];
    const keysList = TOOLS.find((t) => t.name === 'keys_list')!;
    const signal = new AbortController().signal;
    for (const thrown of crashing) {
      const result = await runner.call(
        { ...keysList, verb: { ...keysList.verb, run: async () => Promise.reject(thrown) } },
        {},
        { signal },
      );
      expect(result.isError).toBe(true);
      expect(texts(result)[0]).toMatch(/^Error: Unexpected error: [^\n]*Run with --debug for details\. \(exit code 1\)$/);
    }
    const after = await runner.call(keysList, {}, { signal });
    expect(after.isError).toBeFalsy();
    await ctx.close();
  });

  it("that ends with the verb's own exit code reports that code, with the document", async () => {
    const ctx = await createCtx(
      { ...silentDoor(), env: { HOME: tempDir(), ...sb.env }, signal: new AbortController().signal, version: '0.0.0-test' },
      {},
    );
    const runner = new ToolRunner(ctx, {});
    const keysList = TOOLS.find((t) => t.name === 'keys_list')!;
    const verb = {
      ...keysList.verb,
      run: async () => ({ json: { valid: false }, exitCode: 4, exitMessage: 'The key was refused.', human: () => {} }),
    };
    const result = await runner.call({ ...keysList, verb }, {}, { signal: new AbortController().signal });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toBe('Error: The key was refused. (exit code 4)');
    expect(JSON.parse(texts(result)[1]!).error).toMatchObject({ exit_code: 4, reason: 'not_logged_in' });
    expect(JSON.parse(texts(result)[2]!)).toEqual({ valid: false });
    await ctx.close();
  });
});
