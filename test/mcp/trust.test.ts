// What a person is asked, and what their answer does (cli.md §8, §11): any answer but accept with
// confirm: true is a no, as a raw JSON-RPC client can send it; no answer within 10 minutes (on an
// injected clock) is said so; a client that declared no mode wsctl uses is not asked; the question
// puts the facts first and every value the agent chose quoted, on one line, at most 64 characters;
// the sandbox is `the sandbox`; a tool a profile's policy refuses is named with the policy.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { createServer, type McpOptions } from '../../src/mcp/mcp-server.js';
import { mcpOffer } from '../../src/verbs/agent-policy.js';
import { connect, loadTools, manualClock, serverContext, texts, type Connected } from './harness.js';

const DECLINED = 'Error: Declined: nothing was sent. (exit code 2)';
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f000500020127efa3d50000000049454e44ae426082',
  'hex',
);

let sb: TestSandbox;
const open: (() => Promise<void>)[] = [];
beforeEach(async () => {
  sb = await startSandbox();
});
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

type Reply = (id: string | number) => JSONRPCMessage | undefined;

/**
 * The server of src/mcp with a raw JSON-RPC client: it declares `capabilities`, answers each
 * elicitation/create with `reply` (or not at all), and hands back the tool call's response.
 */
async function rawClient(capabilities: Record<string, unknown>, reply: Reply, options: McpOptions = { allowDestructive: true }) {
  const clock = manualClock();
  const { ctx } = await serverContext(sb.env, {}, clock);
  const { server } = createServer(options, ctx, await loadTools());
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map<string | number, (m: Record<string, unknown>) => void>();
  const asked: Record<string, unknown>[] = [];
  client.onmessage = (message) => {
    const m = message as Record<string, unknown>;
    if (m.method === 'elicitation/create') {
      asked.push(m);
      const answer = reply(m.id as string | number);
      if (answer) void client.send(answer);
    } else if ('id' in m && answers.has(m.id as string | number)) answers.get(m.id as string | number)!(m);
  };
  await server.connect(serverSide);
  await client.start();
  open.push(async () => {
    await client.close();
    await server.close();
    await ctx.close();
  });
  let next = 1;
  const request = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = next++;
      answers.set(id, resolve);
      void client.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    });
  await request('initialize', { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  const call = async (name: string, args: Record<string, unknown>) =>
    ((await request('tools/call', { name, arguments: args })).result ?? {}) as { isError?: boolean; content?: { text: string }[] };
  return { call, asked, clock, client };
}

const said = (result: { content?: { text: string }[] }) => result.content?.[0]?.text;

describe('the answer', () => {
  const form = { elicitation: { form: {} } };
  const result =
    (content: unknown, action = 'accept'): Reply =>
    (id) =>
      ({ jsonrpc: '2.0', id, result: { action, content } }) as JSONRPCMessage;

  it.each<[string, Reply]>([
    ['accept with {}', result({})],
    ['accept with "true"', result('true')],
    ['accept with confirm "true"', result({ confirm: 'true' })],
    ['accept with confirm 1', result({ confirm: 1 })],
    ['accept without content', (id) => ({ jsonrpc: '2.0', id, result: { action: 'accept' } }) as JSONRPCMessage],
    ['ACCEPT with confirm true', result({ confirm: true }, 'ACCEPT')],
    ['an error reply', (id) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: 'the dialog crashed' } }) as JSONRPCMessage],
    ['decline', (id) => ({ jsonrpc: '2.0', id, result: { action: 'decline' } }) as JSONRPCMessage],
    ['cancel', (id) => ({ jsonrpc: '2.0', id, result: { action: 'cancel' } }) as JSONRPCMessage],
  ])('%s is a no: "Declined: nothing was sent.", exit code 2', async (_what, reply) => {
    const c = await rawClient(form, reply);
    const r = await c.call('device_rm', { device_id: 'dev_phone' });
    expect(c.asked).toHaveLength(1);
    expect(r.isError).toBe(true);
    expect(said(r)).toBe(DECLINED);
    expect(sb.requests).toEqual([]);
  });

  it('accept with confirm: true goes on', async () => {
    const c = await rawClient(form, result({ confirm: true }));
    const r = await c.call('device_rm', { device_id: 'dev_phone' });
    expect(r.isError, said(r)).toBeFalsy();
    expect(sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['DELETE /devices/dev_phone']);
  });

  it('none within 10 minutes: "No answer within 10 minutes: nothing was sent." (exit code 2), and a later one changes nothing', async () => {
    let late: string | number | undefined;
    const c = await rawClient(form, (id) => {
      late = id;
      return undefined;
    });
    const pending = c.call('device_rm', { device_id: 'dev_phone' });
    await expect.poll(() => c.clock.sleeps).toEqual([10 * 60 * 1000]);
    c.clock.pass();
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(said(r)).toBe('Error: No answer within 10 minutes: nothing was sent. (exit code 2)');
    await c.client.send({ jsonrpc: '2.0', id: late!, result: { action: 'accept', content: { confirm: true } } } as JSONRPCMessage);
    // The server goes on, and the late yes deleted nothing.
    const list = await c.call('keys_list', {});
    expect(list.isError, said(list)).toBeFalsy();
    expect(sb.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
    expect(sb.state.devices.map((d) => d.id)).toContain('dev_phone');
  });
});

describe('a client that cannot ask is not asked', () => {
  it.each([
    ['a mode wsctl does not know', { elicitation: { foo: {} } }],
    ['url mode alone', { elicitation: { url: {} } }],
    ['no elicitation', {}],
  ])('%s: the command line to run instead, exit code 2, nothing sent', async (_what, capabilities) => {
    const c = await rawClient(capabilities, () => undefined);
    const r = await c.call('device_rm', { device_id: 'dev_phone' });
    expect(c.asked).toEqual([]);
    expect(said(r)).toBe(
      'Error: device_rm needs a person to confirm, and this client cannot ask: nothing was sent. A person can run `wsctl device rm dev_phone --yes`. (exit code 2)',
    );
    expect(sb.requests).toEqual([]);
  });

  it("a server started in a pinned folder names the pin's profile on the line, which a person runs in another folder (built bin)", async () => {
    const folder = realpathSync(tempDir());
    const env = { WSCTL_CONFIG_DIR: sb.env.WSCTL_CONFIG_DIR, WSCTL_BASE_URL: sb.url };
    const login = await runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'work'], {
      env,
      stdin: `${sb.key}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    expect((await runBin(['profile', 'pin', 'work'], { env, cwd: folder })).code).toBe(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--allow-destructive'],
      env: { PATH: process.env.PATH ?? '', HOME: tempDir(), WSCTL_CONFIG_DIR: sb.env.WSCTL_CONFIG_DIR! },
      cwd: folder,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'no-elicitation', version: '1.0.0' });
    await client.connect(transport);
    open.push(() => client.close());
    const r = await client.callTool({ name: 'device_rm', arguments: { device_id: 'dev_phone' } });
    expect(texts(r)[0]).toBe(
      'Error: device_rm needs a person to confirm, and this client cannot ask: nothing was sent. A person can run `wsctl device rm --profile work dev_phone --yes`. (exit code 2)',
    );
    expect(sb.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
  });

  it('an empty elicitation: {} is form mode: the client is asked', async () => {
    const c = await rawClient({ elicitation: {} }, (id) => ({ jsonrpc: '2.0', id, result: { action: 'decline' } }) as JSONRPCMessage);
    const r = await c.call('device_rm', { device_id: 'dev_phone' });
    expect(c.asked).toHaveLength(1);
    expect(said(r)).toBe(DECLINED);
  });
});

describe('the question', () => {
  async function asking(options: McpOptions, globals = {}, env = sb.env) {
    const questions: string[] = [];
    const c: Connected = await connect(options, env, globals, {
      answer: (r) => {
        questions.push((r.params as { message: string }).message);
        return { action: 'decline' };
      },
    });
    open.push(() => c.close());
    return { ...c, questions };
  }

  it('byok_add: the action and the provider first; a name padded with 200 wide spaces is one quoted line; no doubled parentheses', async () => {
    // The key from the server's environment, which is confirmed (a page otherwise: test/mcp/key-page.test.ts).
    const c = await asking({}, {}, { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-provider-0123456789' });
    const name = `fast${'\u3000'.repeat(200)}\n\u2003tail`;
    const r = await c.client.callTool({
      name: 'byok_add',
      arguments: {
        name,
        provider_url: 'https://api.groq.com/openai/v1',
        format: 'groq',
        model: 'llama',
      },
    });
    expect(texts(r)[0]).toBe(DECLINED);
    const lines = c.questions[0]!.split('\n');
    expect(lines[0]).toMatch(/^Action: register model provider\b/);
    expect(lines.slice(1, 4)).toEqual(['provider_url: "https://api.groq.com/openai/v1"', 'model: "llama"', 'name: "fast tail"']);
    expect(lines.slice(4)).toEqual(["Profile: 'default'", `Base URL: ${sb.url}`, 'Allow the agent to do this?']);
    expect(c.questions[0]).not.toMatch(/\) \(/);
  });

  it('a long value is cut to 64 characters with …; a long path in its middle, keeping the file name', async () => {
    const c = await asking({ allowDestructive: true });
    await c.client.callTool({ name: 'device_rm', arguments: { device_id: `dev_${'x'.repeat(100)}` } });
    expect(c.questions[0]).toContain(`\ndevice_id: "dev_${'x'.repeat(59)}…"\n`);

    const dir = realpathSync(tempDir());
    const deep = join(dir, 'a-folder-with-a-long-name', 'another-folder-with-a-long-name', 'and-one-more');
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'avatar.png'), PNG);
    const files = await asking({ uploadDir: dir });
    await files.client.callTool({ name: 'persona_upload_avatar', arguments: { file: join(deep, 'avatar.png') } });
    const line = files.questions[0]!.split('\n').find((l) => l.startsWith('file: '))!;
    const shown = JSON.parse(line.slice('file: '.length, line.lastIndexOf(' ('))) as string;
    expect([...shown]).toHaveLength(64);
    expect(shown).toMatch(/^\/.*…\/avatar\.png$/);
    expect(join(deep, 'avatar.png').startsWith(shown.slice(0, shown.indexOf('…')))).toBe(true);
    expect(line).toMatch(/ \(\d+ bytes\)$/);
  });

  it('--sandbox is named "the sandbox", never its passing port', async () => {
    const env = { WSCTL_CONFIG_DIR: tempDir() };
    const c = await asking({ allowDestructive: true }, { sandbox: true }, env);
    await c.client.callTool({ name: 'device_rm', arguments: { device_id: 'dev_phone' } });
    expect(c.questions[0]).toContain('\nBase URL: the sandbox\n');
    expect(c.questions[0]).not.toMatch(/127\.0\.0\.1|localhost|:\d{2,5}/);
  });
});

describe("a profile's agent policy", () => {
  it('a tool it refuses is named with the policy and the profile, never as --read-only', async () => {
    for (const [policy, tool, args] of [
      ['read-only', 'site_create', { name: 'x' }],
      ['no-destructive', 'device_rm', { device_id: 'dev_phone' }],
    ] as const) {
      // As `wsctl mcp` starts under that policy (src/mcp/mcp-server.ts serve()), with --allow-destructive given.
      const c = await connect({ ...mcpOffer({ allowDestructive: true }, policy), policy: { profile: 'work', policy } }, sb.env);
      open.push(() => c.close());
      const error = await c.client.callTool({ name: tool, arguments: args }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(error, policy).toMatch(
        new RegExp(`^MCP error -32602: Tool '${tool}' is not offered: the agent policy of profile 'work' is ${policy}`),
      );
      expect(error).not.toContain('--read-only');
      expect(error).toContain('wsctl profile agents work');
    }
  });
});
