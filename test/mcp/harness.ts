// wsctl mcp in this process: the server of src/mcp with a context as main.ts builds it, and the
// SDK's own Client over its linked in-memory transport.
import { PassThrough, Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Command } from 'commander';
import type { App } from '../../src/verbs/declare.js';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createCtx } from '../../src/cli/context.js';
import { tempDir } from '../helpers.js';
import type { Clock } from '../../src/common/clock.js';
import type { Globals } from '../../src/common/globals.js';
import { createServer, type McpOptions } from '../../src/mcp/mcp-server.js';
import { toolsOf, type ToolDef } from '../../src/mcp/tools.js';
import { declaredVerbs } from '../../src/cli/program.js';
import { buildProgram, loadCommands } from '../../src/cli/program.js';

/** The tools wsctl mcp makes from the declarations, in the order of `wsctl --help`. */
export async function loadTools(): Promise<ToolDef[]> {
  return toolsOf(await declaredVerbs());
}

/** The whole command tree, as `wsctl mcp` loads it; run hears which command an action ran, without running it. */
export async function commandTree(run: (command: Command) => void = () => {}): Promise<Command> {
  const program = buildProgram('0.0.0-test', { writeOut() {}, writeErr() {}, onUsageError() {} });
  const app: App = { run: async (command) => run(command), loadAll: (p) => loadCommands(p, app, 'all') };
  await app.loadAll(program);
  return program;
}

export interface Connected {
  client: Client;
  /** The server's own signal (its context's), which every call follows until it ends. */
  signal: AbortSignal;
  stderr(): string;
  stdout(): string;
  close(): Promise<void>;
}

export interface ClientSide {
  /** The client declares elicitation and answers each question so (the questions are kept in `asked`). */
  answer?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
}

/** A context as `wsctl mcp` builds it, over streams the test reads (stdin: what the client sends); `clock` for bounds of minutes. */
export async function serverContext(
  env: Record<string, string>,
  globals: Globals = {},
  clock?: Clock,
  stdin: Readable = Readable.from([]),
) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const io = { stdin, stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, columns: 0 };
  const never = () => Promise.reject(new Error('no prompts in tests'));
  const signal = new AbortController().signal;
  const ctx = await createCtx(
    {
      io,
      // A home of its own, as the in-process runs of test/helpers.ts have: ids remembered by a
      // context whose env names none would land in the tester's ~/.cache.
      env: { HOME: tempDir(), WSCTL_RETRY_BASE_MS: '10', ...env },
      signal,
      version: '0.0.0-test',
      prompt: { secret: never, confirm: never },
      ...(clock ? { clock } : {}),
    },
    globals,
  );
  return { ctx, signal, stdout: () => out, stderr: () => err };
}

export async function connect(
  options: McpOptions,
  env: Record<string, string>,
  globals: Globals = {},
  side: ClientSide = {},
): Promise<Connected> {
  const { ctx, signal, stdout, stderr } = await serverContext(env, globals);
  const { server } = createServer(options, ctx, await loadTools());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'wsctl-test', version: '1.0.0' }, { capabilities: side.answer ? { elicitation: { form: {} } } : {} });
  if (side.answer) client.setRequestHandler(ElicitRequestSchema, (request) => side.answer!(request));
  await client.connect(clientSide);
  return {
    client,
    signal,
    stderr,
    stdout,
    async close() {
      await client.close();
      await server.close();
      await ctx.close();
    },
  };
}

/** The texts of a tool result's content. */
export function texts(result: object): string[] {
  return (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '');
}

/** A clock whose sleeps end only when the test says so: ten minutes pass without waiting. */
export function manualClock(): Clock & { sleeps: number[]; pass(): void } {
  const waiting: (() => void)[] = [];
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => 0,
    sleep(ms, signal) {
      sleeps.push(ms);
      return new Promise((resolve, reject) => {
        waiting.push(resolve);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
    pass() {
      for (const wake of waiting.splice(0)) wake();
    },
  };
}
