// The built bin/wsctl mcp, spawned over stdio by the SDK's StdioClientTransport (and by hand, for
// what no client would send), against `wsctl sandbox serve`, the embedded sandbox and a server
// that fails in every way: stdout carries protocol messages only, the server outlives every
// failure, and it ends cleanly on SIGTERM, SIGINT and a closed stdin.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realpathSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CallToolResultSchema, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, ROOT, runBin, tempDir } from '../helpers.js';
import { offered } from '../../src/mcp/tools.js';
import { texts, loadTools } from './harness.js';

const TOOLS = await loadTools();
/** The tools a server offers by default, and with --allow-destructive. */
const DEFAULT = offered(TOOLS, {}).map((t) => t.name);
const ALL = TOOLS.map((t) => t.name);

const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

interface Spawned {
  client: Client;
  stderr(): string;
  /** Lines of stdout the client could not read as JSON-RPC. */
  garbage: unknown[];
  transport: StdioClientTransport;
}

async function spawnServer(args: string[], env: Record<string, string>): Promise<Spawned> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: tempDir(), WSCTL_RETRY_BASE_MS: '10', ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c) => (err += c));
  const garbage: unknown[] = [];
  const client = new Client({ name: 'wsctl-e2e', version: '1.0.0' });
  await client.connect(transport);
  // Set after connect: the client installs its own handler there.
  const own = transport.onerror;
  transport.onerror = (error) => {
    garbage.push(error);
    own?.(error);
  };
  closers.push(() => client.close());
  return { client, stderr: () => err, garbage, transport };
}

/** `wsctl sandbox serve --port 0` as a child: its URL and key from its first two lines. */
async function sandboxServe(): Promise<Record<string, string>> {
  const config = tempDir();
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0'], {
    env: { PATH: process.env.PATH, HOME: tempDir(), WSCTL_CONFIG_DIR: config },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  closers.push(() => child.kill('SIGTERM'));
  const lines = createInterface({ input: child.stdout });
  const env: Record<string, string> = { WSCTL_CONFIG_DIR: tempDir() };
  for await (const line of lines) {
    const [, name, value] = /^(WSCTL_BASE_URL|WSCTL_API_KEY)=(.*)$/.exec(line) ?? [];
    if (name && value) env[name] = value;
    if (env.WSCTL_BASE_URL && env.WSCTL_API_KEY) break;
  }
  return env;
}

const HOSTILE = '\u001b]52;c;aGk=\u0007\u001b[2J\r\n{"jsonrpc":"2.0","id":1,"result":{}}\n\u009b31m\u202eevil\u0000';

/** A service that fails in every way the brief names, with hostile text in every string. */
async function faultServer(): Promise<string> {
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': HOSTILE.replace(/[\r\n\u0000\u0007\u001b\u009b\u202e]/g, ''),
    });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/api-keys/') return json(res, 401, { detail: HOSTILE });
    if (url === '/capabilities/') return json(res, 500, { detail: HOSTILE });
    if (url.startsWith('/conversations/')) return json(res, 404, { detail: HOSTILE });
    if (url === '/byok/') return json(res, 422, { detail: [{ loc: ['body', HOSTILE], msg: HOSTILE, type: 'value_error' }] });
    if (url.startsWith('/pub/personas/')) return; // never answers: a timeout
    if (url === '/settings/')
      return json(res, 200, { name: HOSTILE, suggested_name: HOSTILE, timezone: HOSTILE, bio: HOSTILE, [HOSTILE]: HOSTILE });
    if (url === '/connections/notes/import') return json(res, 200, { filename: HOSTILE });
    return json(res, 404, { detail: 'no route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the built wsctl mcp over stdio', () => {
  it("serves `wsctl sandbox serve`: lists and calls tools with the CLI's profile variables", async () => {
    const env = await sandboxServe();
    const s = await spawnServer([], env);
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(DEFAULT);
    const keys = await s.client.callTool({ name: 'keys_list', arguments: {} });
    expect(keys.isError).toBeFalsy();
    expect((keys.structuredContent as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    const caps = await s.client.callTool({ name: 'caps', arguments: {} });
    expect(JSON.stringify(caps.structuredContent)).toContain('"app_slug":"gmail"');
    const convo = await s.client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_demo', tail: 1 } });
    expect(texts(convo)).toHaveLength(1);
    expect(texts(convo)[0]).toMatch(/^# /);
    expect(s.garbage).toEqual([]);
    expect(s.stderr()).not.toContain(env.WSCTL_API_KEY);
  });

  it('takes --profile, --base-url and --timeout as the CLI does', async () => {
    const env = await sandboxServe();
    const config = tempDir();
    const login = await runBin(
      ['auth', 'login', '--profile', 'work', '--base-url', env.WSCTL_BASE_URL!, '--with-key', '--insecure-storage', '--no-verify'],
      { env: { WSCTL_CONFIG_DIR: config }, stdin: `${env.WSCTL_API_KEY}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    const work = await spawnServer(['--profile', 'work', '--timeout', '5'], { WSCTL_CONFIG_DIR: config });
    expect((await work.client.callTool({ name: 'settings', arguments: {} })).isError).toBeFalsy();
    // Another profile has no base URL: the call says how to set one.
    const other = await spawnServer(['--profile', 'nope'], { WSCTL_CONFIG_DIR: config });
    expect(texts(await other.client.callTool({ name: 'settings', arguments: {} }))[0]).toMatch(/No profile 'nope'.*\(exit code 4\)$/);
    // --base-url wins over WSCTL_BASE_URL.
    const flag = await spawnServer(['--base-url', env.WSCTL_BASE_URL!], {
      WSCTL_BASE_URL: 'http://127.0.0.1:9',
      WSCTL_API_KEY: env.WSCTL_API_KEY!,
      WSCTL_CONFIG_DIR: tempDir(),
    });
    expect((await flag.client.callTool({ name: 'keys_list', arguments: {} })).isError).toBeFalsy();
  });

  it('--sandbox --allow-destructive: the embedded sandbox, deletions included', async () => {
    const s = await spawnServer(['--sandbox', '--allow-destructive', '--no-confirm'], { WSCTL_CONFIG_DIR: tempDir() });
    expect((await s.client.listTools()).tools.map((t) => t.name)).toEqual(ALL);
    const removed = await s.client.callTool({ name: 'device_rm', arguments: { device_id: 'dev_laptop' } });
    expect(removed.structuredContent).toEqual({ success: true });
    const again = await s.client.callTool({ name: 'device_rm', arguments: { device_id: 'dev_laptop' } });
    expect(texts(again)[0]).toMatch(/\(exit code 5\)$/);
    expect(s.garbage).toEqual([]);
  });

  it('against a failing service: 401, 404, 422, 500, a timeout and hostile text are results, and the server goes on', {
    timeout: 60_000,
  }, async () => {
    const url = await faultServer();
    const s = await spawnServer(['--timeout', '0.3', '--debug'], {
      WSCTL_BASE_URL: url,
      WSCTL_API_KEY: 'wsk_fault_test_key_123456',
      WSCTL_CONFIG_DIR: tempDir(),
    });
    const call = (name: string, args: Record<string, unknown> = {}) => s.client.callTool({ name, arguments: args });
    const code = (result: object) => JSON.parse(texts(result)[1]!).error.exit_code;
    expect(code(await call('keys_list'))).toBe(4);
    expect(code(await call('caps'))).toBe(1);
    expect(code(await call('convo_show', { conversation_id: HOSTILE }))).toBe(5);
    const invalid = await call('byok_add', {
      name: 'n',
      provider_url: 'https://p.example',
      format: 'openai',
      model: 'm',
      api_key: 'sk-provider-secret-0123456789',
    });
    expect(code(invalid)).toBe(2);
    expect(code(await call('persona_versions', { persona_id: 'slow' }))).toBe(3);
    for (const r of [invalid, await call('keys_list')]) {
      // One line: service text never forges lines or drives a terminal.
      expect(texts(r)[0]).not.toMatch(/[\n\r\u0000-\u0008\u001b\u009b]/);
    }
    const settings = await call('settings');
    expect(settings.isError).toBeFalsy();
    expect((settings.structuredContent as Record<string, string>).name).toBe(HOSTILE);
    expect(JSON.parse(texts(settings)[0]!)[HOSTILE]).toBe(HOSTILE);
    expect((await call('notes_import', { page_id: HOSTILE })).structuredContent).toEqual({ filename: HOSTILE });
    expect((await s.client.listTools()).tools.map((t) => t.name)).toEqual(DEFAULT);
    expect(s.garbage).toEqual([]);
    expect(s.stderr()).not.toContain('wsk_fault_test_key_123456');
    expect(s.stderr()).not.toContain('sk-provider-secret-0123456789');
    expect(s.stderr()).toContain('GET');
  });
});

/** bin/wsctl mcp with stdin and stdout by hand: every stdout line must be a JSON-RPC message. */
function raw(
  args: string[],
  env: Record<string, string>,
): {
  child: ChildProcessWithoutNullStreams;
  lines: unknown[];
  next(id: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  stderr(): string;
} {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], {
    env: { PATH: process.env.PATH, HOME: tempDir(), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  closers.push(() => child.kill('SIGKILL'));
  const lines: unknown[] = [];
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    lines.push(message);
    waiting.get(message.id)?.(message);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    stderr: () => err,
    next: (id) => new Promise((resolve) => waiting.set(id, resolve)),
  };
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('stdout carries protocol messages only', () => {
  it('every malformed line is answered (-32700, -32600, id null where unreadable), wrong arguments are results, and the server goes on', {
    timeout: 120_000,
  }, async () => {
    const s = raw(['--sandbox'], { WSCTL_CONFIG_DIR: tempDir() });
    const send = (text: string) => s.child.stdin.write(`${text}\n`);
    const init = s.next(0);
    send(INIT);
    await init;
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const errors = () => s.lines.filter((l) => (l as { id: unknown }).id === null) as { error: { code: number } }[];
    send('{not json');
    send('[1, 2, 3]');
    send('"just a string"');
    send(JSON.stringify({ jsonrpc: '2.0', method: 'no/such/notification' }));
    const notARequest = s.next(7);
    send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 42 }));
    expect((await notARequest).error).toMatchObject({ code: -32600 });
    expect(errors().map((e) => e.error.code)).toEqual([-32700, -32600, -32600]);
    const unknown = s.next(1);
    send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'no/such/method' }));
    expect((await unknown).error).toMatchObject({ code: -32601 });
    const huge = s.next(3);
    send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'keys_create', arguments: { name: 'y'.repeat(40_000_000) } },
      }),
    );
    expect((await huge).error).toMatchObject({ code: -32600 });
    const deep = s.next(4);
    send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"caps","arguments":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}}`);
    const deepResult = (await deep).result as { isError: boolean; content: { text: string }[] };
    expect([deepResult.isError, deepResult.content[0]!.text]).toEqual([
      true,
      "Error: Unknown argument 'a' for caps. Arguments: jq. (exit code 2)",
    ]);
    const deeper = s.next(99);
    send(
      `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"caps","arguments":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
    );
    const answer = await deeper;
    expect(answer.error ?? answer.result).toMatchObject(answer.error ? { code: -32600 } : { isError: true });
    const list = s.next(5);
    send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }));
    expect(((await list).result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(DEFAULT);
    const call = s.next(6);
    send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'keys_list', arguments: {} } }));
    expect((await call).result).toMatchObject({ structuredContent: { keys: expect.any(Array) } });
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    for (const line of s.lines) expect(line).toMatchObject({ jsonrpc: '2.0' });
    expect(s.lines.map((l) => (l as { id: number }).id)).toEqual([0, null, null, null, 7, 1, 3, 4, 99, 5, 6]);
    expect(s.stderr()).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s ends the server cleanly', async (signal) => {
    const s = raw(['--sandbox'], { WSCTL_CONFIG_DIR: tempDir() });
    const init = s.next(0);
    s.child.stdin.write(`${INIT}\n`);
    await init;
    s.child.kill(signal);
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toBe('');
  });

  /** The server against a service that never answers, with a call to it under way. */
  async function hanging(): Promise<ReturnType<typeof raw>> {
    const url = await faultServer();
    const s = raw(['--timeout', '600', '--debug'], {
      WSCTL_BASE_URL: url,
      WSCTL_API_KEY: 'wsk_fault_test_key_123456',
      WSCTL_CONFIG_DIR: tempDir(),
    });
    const init = s.next(0);
    s.child.stdin.write(`${INIT}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await init;
    s.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'persona_versions', arguments: { persona_id: 'p1' } } })}\n`,
    );
    // --debug traces the request once it is sent.
    while (!s.stderr().includes('/pub/personas/')) await new Promise((resolve) => setTimeout(resolve, 20));
    return s;
  }

  it.each(['SIGTERM', 'SIGINT'] as const)('%s ends the server cleanly with a call in flight', { timeout: 30_000 }, async (signal) => {
    const s = await hanging();
    s.child.kill(signal);
    expect(await s.exited).toBe(0);
    for (const line of s.lines) expect(line).toMatchObject({ jsonrpc: '2.0' });
  });

  it('closing stdin stops a call that would go on for minutes, answered as interrupted', { timeout: 30_000 }, async () => {
    const s = await hanging();
    const answer = s.next(1);
    s.child.stdin.end();
    const result = (await answer).result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^Error: .*\(exit code 130\)$/);
    expect(await s.exited).toBe(0);
  });

  it('a request sent before stdin closes is still answered', async () => {
    const r = await runBin(['mcp', '--sandbox'], {
      env: { WSCTL_CONFIG_DIR: tempDir() },
      stdin: `${INIT}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'settings', arguments: {} } })}\n`,
    });
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual([0, 1]);
    expect(lines[1].result.structuredContent).toBeTruthy();
  });
});

describe('wsctl mcp config', () => {
  const script = realpathSync(BIN);

  it('prints the mcpServers entry: Node and this wsctl by absolute path, then the flags given', async () => {
    const plain = await runBin(['mcp', 'config']);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout)).toEqual({ mcpServers: { wsctl: { command: process.execPath, args: [script, 'mcp'] } } });
    const flags = await runBin([
      '--profile',
      'work',
      'mcp',
      'config',
      '--read-only',
      '--sandbox',
      '--timeout',
      '10',
      '--debug',
      '--no-confirm',
      '--upload-dir',
      '/tmp',
    ]);
    expect(JSON.parse(flags.stdout).mcpServers.wsctl.args).toEqual([
      script,
      'mcp',
      '--sandbox',
      '--profile',
      'work',
      '--timeout',
      '10',
      '--debug',
      '--read-only',
      '--no-confirm',
      '--upload-dir',
      '/tmp',
    ]);
    expect((await runBin(['--help'])).stdout).toMatch(/^ {2}mcp {2,}Serve the workspace to AI agents/m);
    const both = await runBin(['mcp', '--read-only', '--allow-destructive']);
    expect([both.code, both.stderr]).toEqual([2, 'Error: --read-only and --allow-destructive cannot be used together.\n']);
  });

  it("prints each client's shape", async () => {
    const shapes = {
      'claude-desktop': 'mcpServers',
      'claude-code': 'mcpServers',
      cursor: 'mcpServers',
      windsurf: 'mcpServers',
      vscode: 'servers',
      zed: 'context_servers',
    };
    for (const [client, key] of Object.entries(shapes)) {
      const r = await runBin(['mcp', 'config', '--client', client, '--allow-destructive']);
      const entry = { command: process.execPath, args: [script, 'mcp', '--allow-destructive'] };
      const shaped = client === 'vscode' ? { type: 'stdio', ...entry } : client === 'zed' ? { source: 'custom', ...entry } : entry;
      expect(JSON.parse(r.stdout), client).toEqual({ [key]: { wsctl: shaped } });
    }
    const json = await runBin(['mcp', 'config', '--client', 'zed', '--json'], { env: { HOME: '/home/someone' } });
    expect(JSON.parse(json.stdout)).toEqual({
      client: 'zed',
      file: '/home/someone/.config/zed/settings.json',
      snippet: { context_servers: { wsctl: { source: 'custom', command: process.execPath, args: [script, 'mcp'] } } },
    });
    const bad = await runBin(['mcp', 'config', '--client', 'emacs']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      "Error: Option '--client <name>' argument 'emacs' is invalid. Allowed choices are claude-desktop, claude-code, cursor, vscode, windsurf, zed, codex, gemini-cli, opencode. Run `wsctl mcp config --help` for usage.\n",
    ]);
  });

  it('carries the WSCTL_* settings of its environment into the entry, checked, and never the API key nor a base URL', async () => {
    const config = tempDir();
    const env = {
      WSCTL_PROFILE: 'work',
      WSCTL_BASE_URL: 'https://api.example.com',
      WSCTL_SANDBOX: ' True ',
      WSCTL_TIMEOUT: '12',
      WSCTL_CONFIG_DIR: config,
      WSCTL_API_KEY: 'wsk_secret_never_in_the_snippet',
    };
    const r = await runBin(['mcp', 'config', '--read-only'], { env });
    expect(r.code).toBe(0);
    // Under the sandbox the base URL is ignored, as everywhere.
    expect(JSON.parse(r.stdout)).toEqual({
      mcpServers: {
        wsctl: {
          command: process.execPath,
          args: [script, 'mcp', '--sandbox', '--profile', 'work', '--timeout', '12', '--read-only'],
          env: { WSCTL_CONFIG_DIR: config },
        },
      },
    });
    expect(r.stdout + r.stderr).not.toContain('wsk_secret');
    expect(r.stderr).toMatch(/WSCTL_API_KEY is not put in the entry/);
    const off = await runBin(['mcp', 'config'], { env: { WSCTL_SANDBOX: 'off', WSCTL_DEBUG: 'yes' } });
    expect(JSON.parse(off.stdout).mcpServers.wsctl.args).toEqual([script, 'mcp', '--debug']);
    const wrong = await runBin(['mcp', 'config'], { env: { WSCTL_SANDBOX: 'sure' } });
    expect([wrong.code, wrong.stdout]).toEqual([2, '']);
    expect(wrong.stderr).toMatch(/^Error: Invalid WSCTL_SANDBOX 'sure'/);
    // Flags win over the environment (under --sandbox: a profile named otherwise must exist).
    const flags = await runBin(['--profile', 'ci', 'mcp', 'config', '--sandbox'], { env: { WSCTL_PROFILE: 'work' } });
    expect(JSON.parse(flags.stdout).mcpServers.wsctl.args).toEqual([script, 'mcp', '--sandbox', '--profile', 'ci']);
    // A base URL the server would not read is refused, not dropped; the profile's own is fine.
    const url = await runBin(['mcp', 'config'], { env: { WSCTL_BASE_URL: 'https://other.example.com' } });
    expect([url.code, url.stdout]).toEqual([2, '']);
    expect(url.stderr).toBe(
      "Error: The server reads its base URL from profile 'default', which has none, not from WSCTL_BASE_URL. Log in a profile for https://other.example.com (`wsctl auth login --profile <name> --base-url https://other.example.com`) and pass --profile <name>, with WSCTL_BASE_URL unset.\n",
    );
    const flag = await runBin(['mcp', 'install', '--client', 'cursor', '--base-url', 'https://other.example.com']);
    expect([flag.code, flag.stderr]).toEqual([
      2,
      expect.stringMatching(
        /^Error: The server reads its base URL from profile 'default', which has none, not from --base-url\. .* and pass --profile <name> instead\.\n$/,
      ),
    ]);
    const profiles = tempDir();
    const login = await runBin(
      ['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'work', '--base-url', 'https://api.example.com'],
      { env: { WSCTL_CONFIG_DIR: profiles }, stdin: 'wsk_0123456789abcdef\n' },
    );
    expect(login.code, login.stderr).toBe(0);
    const same = await runBin(['mcp', 'config', '--profile', 'work'], {
      env: { WSCTL_CONFIG_DIR: profiles, WSCTL_BASE_URL: 'https://api.example.com/' },
    });
    expect(JSON.parse(same.stdout).mcpServers.wsctl.args).toEqual([script, 'mcp', '--profile', 'work']);
    const name = await runBin(['mcp', 'config'], { env: { WSCTL_PROFILE: 'no/such' } });
    expect([name.code, name.stdout]).toEqual([2, '']);
    expect(name.stderr).toMatch(/^Error: Invalid profile name 'no\/such'/);
  });
});

describe('the built wsctl mcp with a person, progress, cancellation and many calls', () => {
  it('a client that declares elicitation is asked: accept removes, decline and cancel send nothing; one that does not is told the command line', {
    timeout: 60_000,
  }, async () => {
    const config = tempDir();
    const answers: ElicitResult[] = [{ action: 'accept', content: { confirm: true } }, { action: 'decline' }, { action: 'cancel' }];
    const asked: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--sandbox', '--allow-destructive'],
      env: { PATH: process.env.PATH ?? '', HOME: tempDir(), WSCTL_CONFIG_DIR: config },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'wsctl-e2e', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push((request.params as { message: string }).message);
      return answers.shift()!;
    });
    await client.connect(transport);
    closers.push(() => client.close());
    expect((await client.callTool({ name: 'device_rm', arguments: { device_id: 'dev_laptop' } })).structuredContent).toEqual({
      success: true,
    });
    for (const id of ['dev_phone', 'dev_phone'])
      expect(texts(await client.callTool({ name: 'device_rm', arguments: { device_id: id } }))[0]).toBe(
        'Error: Declined: nothing was sent. (exit code 2)',
      );
    expect(asked[0]).toBe(
      [
        'Action: remove device. It cannot be undone.',
        'device_id: "dev_laptop"',
        "Profile: 'sandbox'",
        'Base URL: the sandbox',
        'Allow the agent to do this?',
      ].join('\n'),
    );
    // Not asked: the phone is still there.
    const cannot = await spawnServer(['--sandbox', '--allow-destructive', '--profile', 'work'], { WSCTL_CONFIG_DIR: config });
    expect(texts(await cannot.client.callTool({ name: 'device_rm', arguments: { device_id: 'dev_phone' } }))[0]).toBe(
      'Error: device_rm needs a person to confirm, and this client cannot ask: nothing was sent. A person can run `wsctl device rm --profile work --sandbox dev_phone --yes`. (exit code 2)',
    );
    const again = await spawnServer(['--sandbox', '--allow-destructive', '--no-confirm'], { WSCTL_CONFIG_DIR: config });
    expect((await again.client.callTool({ name: 'device_rm', arguments: { device_id: 'dev_phone' } })).structuredContent).toEqual({
      success: true,
    });
  });

  it('progress tokens before the result, and 20 calls at once all answered', { timeout: 60_000 }, async () => {
    const s = raw(['--sandbox', '--upload-dir', join(ROOT, 'test', 'fixtures'), '--no-confirm'], { WSCTL_CONFIG_DIR: tempDir() });
    const send = (message: unknown) => s.child.stdin.write(`${JSON.stringify(message)}\n`);
    const init = s.next(0);
    send(JSON.parse(INIT));
    await init;
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const uploaded = s.next(1);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'persona_upload_avatar',
        arguments: { file: join(ROOT, 'test', 'fixtures', 'avatar.png') },
        _meta: { progressToken: 'up' },
      },
    });
    expect((await uploaded).result).toMatchObject({ structuredContent: { url: expect.any(String) } });
    const progress = s.lines.filter((l) => (l as { method?: string }).method === 'notifications/progress') as {
      params: { progressToken: string; progress: number; total?: number };
    }[];
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]!.params).toMatchObject({ progressToken: 'up', total: statSync(join(ROOT, 'test', 'fixtures', 'avatar.png')).size });
    expect(s.lines.indexOf(progress[0]!)).toBeLessThan(s.lines.findIndex((l) => (l as { id?: number }).id === 1));
    // Twenty at once, all answered.
    const many = Array.from({ length: 20 }, (_, i) => s.next(100 + i));
    for (let i = 0; i < 20; i++)
      send({ jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: i % 2 ? 'caps' : 'keys_list', arguments: {} } });
    for (const answer of await Promise.all(many)) expect((answer.result as { isError?: boolean }).isError).toBeFalsy();
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    // Each call waiting its turn listens to the server's signals: Node 20 would warn past ten listeners.
    expect(s.stderr()).not.toMatch(/MaxListeners|memory leak/);
  });

  it('a cancelled call aborts its request and is not answered; the server goes on', { timeout: 30_000 }, async () => {
    const url = await faultServer();
    const s = raw(['--timeout', '600', '--debug'], {
      WSCTL_BASE_URL: url,
      WSCTL_API_KEY: 'wsk_fault_test_key_123456',
      WSCTL_CONFIG_DIR: tempDir(),
    });
    const init = s.next(0);
    s.child.stdin.write(`${INIT}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await init;
    s.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'persona_versions', arguments: { persona_id: 'p1' } } })}\n`,
    );
    while (!s.stderr().includes('/pub/personas/')) await new Promise((resolve) => setTimeout(resolve, 20));
    s.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'no longer needed' } })}\n`,
    );
    const next = s.next(2);
    s.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'settings', arguments: {} } })}\n`,
    );
    expect((await next).result).toMatchObject({ structuredContent: expect.any(Object) });
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(s.lines.map((l) => (l as { id?: number }).id)).toEqual([0, 2]);
  });

  it('convo_show tells the messages read while the transcript arrives, not once it is all in', { timeout: 60_000 }, async () => {
    // 1,000 messages in pieces cut anywhere: the rest waits until the client has heard some progress
    // (or 15 s, and then the test fails), so a count told only at the end is seen as such.
    const count = 1000;
    const messages = Array.from({ length: count }, (_, i) =>
      JSON.stringify({ kind: 'request', parts: [{ part_kind: 'user-prompt', content: `message ${i} ${'x'.repeat(1000)}` }] }),
    );
    const body = `{"conversation":{"id":"c","title":"Slow"},"messages":[${messages.join(',')}],"state":"idle"}`;
    const firstCut = body.indexOf(messages[200]!) + 10;
    let heard!: () => void;
    const someProgress = new Promise<void>((resolve) => (heard = resolve));
    let sentAll = false;
    let waitedInVain = false;
    const slow = createServer(async (req, res) => {
      if (!req.url?.startsWith('/conversations/c')) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(body.slice(0, firstCut));
      const timeout = new Promise<void>((resolve) => setTimeout(() => resolve(void (waitedInVain = true)), 15_000).unref());
      await Promise.race([someProgress, timeout]);
      const rest = body.slice(firstCut);
      const piece = Math.ceil(rest.length / 4);
      for (let at = 0; at < rest.length; at += piece) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        res.write(rest.slice(at, at + piece));
      }
      sentAll = true;
      res.end();
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      slow.closeAllConnections();
      slow.close();
    });
    const s = await spawnServer([], {
      WSCTL_BASE_URL: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
      WSCTL_API_KEY: 'wsk_fault_test_key_123456',
      WSCTL_CONFIG_DIR: tempDir(),
    });
    const told: { progress: number; total?: number; whileSending: boolean }[] = [];
    const shown = await s.client.callTool({ name: 'convo_show', arguments: { conversation_id: 'c' } }, CallToolResultSchema, {
      onprogress: (p) => {
        told.push({ ...p, whileSending: !sentAll });
        heard();
      },
    });
    expect(shown.isError, texts(shown).join()).toBeFalsy();
    expect(waitedInVain, 'no progress while the body was still arriving').toBe(false);
    expect(told[0]).toMatchObject({ whileSending: true });
    expect(told[0]!.progress).toBeGreaterThan(0);
    expect(told[0]!.progress).toBeLessThan(count);
    // Strictly increasing, at a rate (not one per message), the last one every message read.
    for (let i = 1; i < told.length; i++) expect(told[i]!.progress).toBeGreaterThan(told[i - 1]!.progress);
    expect(told.length).toBeLessThan(count / 10);
    expect(told.at(-1)!.progress).toBe(count);
    // The document is the last 50, in order.
    const got = (shown.structuredContent as { messages: { parts: { content: string }[] }[] }).messages;
    expect(got.map((m) => m.parts[0]!.content.split(' ')[1])).toEqual(Array.from({ length: 50 }, (_, i) => String(count - 50 + i)));
    expect(shown.structuredContent).toMatchObject({ conversation: { id: 'c', title: 'Slow' }, state: 'idle' });
  });

  it('a result over 4 MiB is refused naming its size', { timeout: 30_000 }, async () => {
    const big = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          conversation: { id: 'c', title: 'Big' },
          state: 'idle',
          messages: Array.from({ length: 50 }, () => ({
            kind: 'request',
            parts: [{ part_kind: 'user-prompt', content: 'x'.repeat(100_000) }],
          })),
        }),
      );
    });
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    closers.push(() => big.close());
    const s = await spawnServer([], {
      WSCTL_BASE_URL: `http://127.0.0.1:${(big.address() as AddressInfo).port}`,
      WSCTL_API_KEY: 'wsk_fault_test_key_123456',
      WSCTL_CONFIG_DIR: tempDir(),
    });
    const result = await s.client.callTool({ name: 'convo_show', arguments: { conversation_id: 'c' } });
    expect(texts(result)[0]).toMatch(
      /^Error: The result is \d+\.\d MiB, more than the 4 MiB a tool returns: pass a smaller tail, or a jq filter that keeps less\. \(exit code 2\)$/,
    );
    expect((await s.client.callTool({ name: 'convo_show', arguments: { conversation_id: 'c', tail: 2 } })).isError).toBeFalsy();
  });
});
