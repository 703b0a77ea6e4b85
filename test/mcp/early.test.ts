// `wsctl mcp`'s answer to `initialize` from the boot file, before the program loads (a speed trick,
// src/mcp/early.ts): the same answer the SDK's Server gives, once, with the server then serving as
// usual; anything not plainly an `initialize` of a server that will start goes the plain way.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  InitializeRequestSchema,
  JSONRPCRequestSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainStart } from '../../src/mcp/early.js';
import { initializeAnswer, PROTOCOL_VERSIONS } from '../../src/mcp/initialize.js';
import { BIN, ROOT, tempDir } from '../helpers.js';
import { Terminal } from '../terminal.js';

const initialize = (id: unknown, protocolVersion: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'early-test', version: '1' }, ...extra },
});

/** Runs `wsctl mcp` with `input` written at once and stdin then closed; its stdout lines, parsed, and its exit code. */
function serve(input: unknown[], env: Record<string, string> = {}, bin = BIN, args: string[] = []) {
  const child = spawn(process.execPath, [bin, 'mcp', ...args], {
    env: { PATH: process.env.PATH, HOME: tempDir(), WSCTL_CONFIG_DIR: tempDir(), WSCTL_BASE_URL: 'http://127.0.0.1:9', ...ON, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  child.stdin.end(input.map((m) => `${JSON.stringify(m)}\n`).join(''));
  return new Promise<{ lines: Record<string, unknown>[]; code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) =>
      resolve({
        lines: out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
        code,
        stderr: err,
      }),
    ),
  );
}

// A start the boot file cannot vouch for (a variable the program checks): the program's server answers.
const ON = {};
const PROGRAM = { WSCTL_DEBUG: '0' };

describe('initialize answered by the boot file', () => {
  it('names the protocol versions of the pinned SDK, newest first', () => {
    expect(PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(PROTOCOL_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('answers as the SDK does, once, for every version asked and either kind of id; the server then serves', async () => {
    const requests = [initialize(0, '2025-11-25'), initialize('first', '2024-11-05'), initialize(7, '1999-01-01')];
    for (const request of requests) {
      const input = [
        request,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'list', method: 'tools/list' },
      ];
      const [early, plain] = await Promise.all([serve(input), serve(input, PROGRAM)]);
      expect(early.code, early.stderr).toBe(0);
      expect(early.lines.filter((l) => l.id === request.id)).toHaveLength(1);
      expect(early.lines[0]).toEqual(plain.lines[0]);
      expect(early.lines[0]).toMatchObject({ id: request.id, result: { serverInfo: { name: 'wsctl' } } });
      const list = early.lines.find((l) => l.id === 'list') as { result: { tools: unknown[] } };
      expect(list.result.tools.length).toBeGreaterThan(10);
      expect(early.lines).toHaveLength(2);
    }
  });

  it("answers only what the SDK takes: whenever it answers, the SDK's schemas accept the request", () => {
    // Mostly what clients send, with odd values and keys mixed in at every level.
    const odd = fc.oneof(
      fc.constant({}),
      fc.boolean(),
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.constant([]),
      fc.constant({ a: 1 }),
    );
    const often = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: usual }, { weight: 1, arbitrary: odd });
    const rare = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
    const object = <T extends Record<string, fc.Arbitrary<unknown>>>(parts: T) =>
      fc.record(parts).map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    const flag = often(fc.boolean());
    const capabilities = often(
      object({
        roots: rare(often(object({ listChanged: rare(flag), other: rare(odd) }))),
        sampling: rare(often(object({ context: rare(often(fc.constant({}))), tools: rare(odd) }))),
        elicitation: rare(often(object({ form: rare(often(fc.constant({}))), url: rare(often(fc.constant({}))) }))),
        experimental: rare(often(fc.dictionary(fc.string(), often(fc.constant({ x: 1 }))))),
        tasks: rare(
          often(object({ list: rare(often(fc.constant({}))), requests: rare(often(fc.constant({ sampling: { createMessage: {} } }))) })),
        ),
        extensions: rare(often(fc.dictionary(fc.string(), often(fc.constant({}))))),
      }),
    );
    const clientInfo = often(
      object({
        name: often(fc.string()),
        version: often(fc.string()),
        title: rare(often(fc.string())),
        description: rare(often(fc.string())),
        websiteUrl: rare(often(fc.webUrl())),
        icons: rare(often(fc.array(often(object({ src: often(fc.webUrl()), mimeType: rare(often(fc.constant('image/png'))) }))))),
      }),
    );
    const params = often(
      object({
        protocolVersion: often(fc.constantFrom(...PROTOCOL_VERSIONS, 'old')),
        capabilities,
        clientInfo,
        _meta: rare(often(object({ progressToken: rare(often(fc.oneof(fc.string(), fc.integer()))) }))),
        other: rare(odd),
      }),
    );
    const message = object({
      jsonrpc: often(fc.constant('2.0')),
      id: often(fc.oneof(fc.integer(), fc.string(), fc.double())),
      method: fc.constant('initialize'),
      params,
      x: rare(odd),
    });
    let answered = 0;
    fc.assert(
      fc.property(message, (m) => {
        if (!initializeAnswer(m, '1.0.0')) return;
        answered++;
        expect(JSONRPCRequestSchema.safeParse(m).success, JSON.stringify(m)).toBe(true);
        expect(InitializeRequestSchema.safeParse(m).success, JSON.stringify(m)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // The property saw answers, not only refusals.
    expect(answered).toBeGreaterThan(300);
  });

  it("answers what real clients send: the Inspector's, Claude Code's, a client with tasks, extensions, icons and a progress token", () => {
    const client = (capabilities: unknown, clientInfo: unknown = { name: 'c', version: '1' }, extra: Record<string, unknown> = {}) => ({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo, ...extra },
    });
    const requests = [
      client({ sampling: {}, elicitation: {}, roots: { listChanged: true } }, { name: 'inspector-client', version: '0.17.0' }),
      client({ roots: {}, elicitation: {} }, { name: 'claude-code', version: '2.0.0' }),
      client({
        elicitation: { form: { applyDefaults: true }, url: {} },
        tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } },
      }),
      client(
        { extensions: { 'io.modelcontextprotocol/ui': {} } },
        {
          name: 'c',
          version: '1',
          title: 'C',
          websiteUrl: 'https://c.example',
          icons: [{ src: 'https://c.example/i.png', mimeType: 'image/png' }],
        },
      ),
      client({}, { name: 'c', version: '1', description: 'A client' }, { _meta: { progressToken: 'p1' } }),
    ];
    for (const request of requests) {
      expect(initializeAnswer(request, '1.0.0'), JSON.stringify(request)).toBeDefined();
      expect(InitializeRequestSchema.safeParse(request).success).toBe(true);
    }
  });

  it('leaves a request that is not plainly an initialize to the SDK, which answers it, once', async () => {
    const base = initialize(0, '2025-11-25');
    const odd = [
      initialize(1, '2025-11-25', { clientInfo: { name: 'no version' } }),
      initialize(2, 20251125),
      initialize(3.5, '2025-11-25'),
      { jsonrpc: '2.0', id: 4, method: 'ping' },
      // Each is a valid JSON-RPC request the SDK's schemas refuse, or might.
      { ...base, id: 5, x: 1 },
      initialize(6, '2025-11-25', { clientInfo: { name: 'c', version: '1', title: 5 } }),
      initialize(7, '2025-11-25', { capabilities: { roots: { listChanged: 'y' } } }),
      initialize(8, '2025-11-25', { _meta: { progressToken: true } }),
      initialize(9, '2025-11-25', { capabilities: { experimental: { a: 1 } } }),
      initialize(10, '2025-11-25', { capabilities: { elicitation: { form: 1 } } }),
      initialize(11, '2025-11-25', { clientInfo: { name: 'c', version: '1', icons: 'x' } }),
      initialize(12, '2025-11-25', { capabilities: { tasks: { list: 5 } } }),
      initialize(13, '2025-11-25', { _meta: { progressToken: 1.5 } }),
    ];
    for (const request of odd) {
      const [early, plain] = await Promise.all([serve([request]), serve([request], PROGRAM)]);
      expect(early.lines, JSON.stringify(request)).toEqual(plain.lines);
      expect(early.lines).toHaveLength(1);
    }
  });

  it('is the boot file: with the program missing, initialize is still answered before the error', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'dist'));
    cpSync(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'dist', 'boot.cjs'), join(root, 'dist', 'boot.cjs'));
    cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
    const { lines, code, stderr } = await serve([initialize(0, '2025-11-25')], {}, join(root, 'bin', 'wsctl'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    expect(code).toBe(1);
    expect(stderr).toContain('wsctl is not built');
    // The plain way, and a start the boot file cannot vouch for, answer nothing without the program.
    for (const [env, args] of [
      [PROGRAM, []],
      [{}, ['--debug']],
      [{ WSCTL_DEBUG: '1' }, []],
    ] as const) {
      const plain = await serve([initialize(0, '2025-11-25')], env, join(root, 'bin', 'wsctl'), [...args]);
      expect(plain.lines, JSON.stringify({ env, args })).toEqual([]);
    }
    // Stdin a terminal is not read by the boot file (it would wait for a line): the program says at once that it is missing.
    const term = new Terminal({ PATH: process.env.PATH ?? '', HOME: tempDir(), WSCTL_CONFIG_DIR: tempDir(), ...ON, TERM: 'xterm' });
    try {
      term.send(`${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'bin', 'wsctl'))} mcp; echo "exit=$?"`, 'Enter');
      const screen = await term.waitFor(/exit=\d/, false, 15_000);
      expect(screen).toContain('wsctl is not built');
      expect(screen).toContain('exit=1');
    } finally {
      term.close();
    }
  });

  it('a client that waits for the answer before it goes on, and stdin a file, are each answered once', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      env: { PATH: process.env.PATH, HOME: tempDir(), WSCTL_CONFIG_DIR: tempDir(), WSCTL_BASE_URL: 'http://127.0.0.1:9', ...ON },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: Record<string, unknown>[] = [];
    const waiting = new Map<unknown, () => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line);
      lines.push(message);
      waiting.get(message.id)?.();
    });
    const answered = (id: unknown) => new Promise<void>((resolve) => waiting.set(id, resolve));
    const first = answered(0);
    child.stdin.write(`${JSON.stringify(initialize(0, '2025-11-25'))}\n`);
    await first;
    const list = answered('list');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' })}\n`);
    await list;
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    expect(lines.map((l) => l.id)).toEqual([0, 'list']);

    const file = join(tempDir(), 'input.jsonl');
    const input = [initialize(0, '2025-11-25'), { jsonrpc: '2.0', id: 'list', method: 'tools/list' }];
    writeFileSync(file, input.map((m) => `${JSON.stringify(m)}\n`).join(''));
    const fromFile = spawn(process.execPath, [BIN, 'mcp'], {
      env: { PATH: process.env.PATH, HOME: tempDir(), WSCTL_CONFIG_DIR: tempDir(), WSCTL_BASE_URL: 'http://127.0.0.1:9', ...ON },
      stdio: [openSync(file, 'r'), 'pipe', 'pipe'],
    });
    let out = '';
    fromFile.stdout?.on('data', (c) => (out += c));
    const code = await new Promise((resolve) => fromFile.on('close', resolve));
    expect(code).toBe(0);
    expect(
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([0, 'list']);
  });

  it('only for a start that cannot be refused', () => {
    expect(plainStart([], {})).toBe(true);
    expect(plainStart([], { WSCTL_PROFILE: 'work', WSCTL_CONFIG_DIR: '/tmp/c' })).toBe(true);
    expect(plainStart(['--read-only', '--profile', 'work', '--upload-dir', '/tmp/x', '--sandbox'], { WSCTL_API_KEY: 'k' })).toBe(true);
    expect(plainStart(['--read-only', '--allow-destructive'], {})).toBe(false);
    expect(plainStart(['--profile'], {})).toBe(false);
    expect(plainStart(['--upload-dir', ' '], {})).toBe(false);
    expect(plainStart(['--jq', '.'], {})).toBe(false);
    expect(plainStart(['--help'], {})).toBe(false);
    expect(plainStart(['config'], {})).toBe(false);
    expect(plainStart([], { WSCTL_TIMEOUT: 'soon' })).toBe(false);
    expect(plainStart([], { WSCTL_DEBUG: '1' })).toBe(false);
    // The one variable of the list the program checks at start.
    expect(plainStart([], { WSCTL_CONFIG_DIR: '~/wsctl' })).toBe(false);
  });
});
