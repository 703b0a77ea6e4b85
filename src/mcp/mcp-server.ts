// `wsctl mcp`: a Model Context Protocol server on stdin/stdout (cli.md §8), on the official SDK's
// stdio server parts only (its HTTP transports would bring express and hono). Loaded by this
// command alone. Each tool call runs its verb with a context of its own, built as the command's
// would be (profile, key, base URL, --sandbox, timeouts, retries, redaction), whose stdout is a
// buffer: stdout carries protocol messages only, whatever a call does.
import { PassThrough, Readable, Writable } from 'node:stream';
import * as z from 'zod/mini';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Ctx } from '../command.js';
import { createCtx, type BaseCtx, type Globals } from '../context.js';
import { WsctlError } from '../errors.js';
import type { IO } from '../terminal/index.js';
import { cleanErrorMessage } from '../sanitize.js';
import { offered, TOOLS, type Tool } from './tools.js';

export interface McpOptions {
  readOnly?: boolean;
  allowDestructive?: boolean;
  showSecrets?: boolean;
}

/** What the command tree says about a command: its description and what each parameter means. */
export interface CommandInfo {
  description: string;
  params: Record<string, string>;
}

/** The longest protocol message taken: a longer line is answered with an error and dropped. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** JSON Schema of a zod definition, as MCP clients read it (objects open unless the schema says strict). */
export function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** The tool as tools/list shows it. */
export function describeTool(tool: Tool, info: CommandInfo | undefined): McpTool {
  const input = jsonSchema(tool.input, 'input') as { properties?: Record<string, Record<string, unknown>> };
  for (const [name, property] of Object.entries(input.properties ?? {})) {
    const said = info?.params[name];
    if (said && property.description === undefined) property.description = said;
  }
  if (tool.name === 'byok_add' && input.properties?.api_key) input.properties.api_key.description = "the provider's API key (never shown back in full)";
  if (tool.name === 'convo_show' && input.properties?.tail) input.properties.tail.description = 'only the last n messages (default 50)';
  return {
    name: tool.name,
    title: `wsctl ${tool.command.join(' ')}`,
    description: [tool.description ?? info?.description ?? '', tool.note ?? ''].filter(Boolean).join('. ').replace(/\.\./g, '.'),
    inputSchema: input as McpTool['inputSchema'],
    outputSchema: jsonSchema(tool.output, 'input') as McpTool['outputSchema'],
    annotations: {
      title: `wsctl ${tool.command.join(' ')}`,
      readOnlyHint: tool.kind === 'read',
      destructiveHint: tool.kind === 'destructive',
      idempotentHint: tool.idempotent,
      openWorldHint: tool.openWorld,
    },
  };
}

const noPrompt: BaseCtx['prompt'] = {
  secret: () => Promise.reject(new Error('wsctl mcp never prompts')),
  confirm: () => Promise.reject(new Error('wsctl mcp never prompts')),
};

/** A call's own streams: no input, its output kept away from the protocol's stdout. */
function callIO(stderr: Writable): IO {
  return {
    stdin: Readable.from([]),
    stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns: 0,
  };
}

function text(value: string): { type: 'text'; text: string } {
  return { type: 'text', text: value };
}

/** A failed call: wsctl's one-line message and exit code, and the error document of --json. */
export function errorResult(error: unknown, debug: boolean, stderr: Writable, exitCode?: number): CallToolResult {
  const known = error instanceof WsctlError;
  const code = exitCode ?? (known ? error.exitCode : 1);
  const said = error instanceof Error ? error.message : String(error);
  const message = cleanErrorMessage(known ? error.message : `Unexpected error: ${said.split('\n')[0]?.slice(0, 300) ?? ''}. Run with --debug for details.`);
  const doc: Record<string, unknown> = { message, exit_code: code };
  if (known && error.status !== undefined) doc.status = error.status;
  if (known && error.requestId) doc.request_id = error.requestId;
  if (known && error.details !== undefined) doc.details = error.details;
  if (debug && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  return { isError: true, content: [text(`Error: ${message.replace(/\n/g, ' ')} (exit code ${code})`), text(JSON.stringify({ error: doc }, null, 2))] };
}

export class ToolRunner {
  constructor(
    private readonly outer: Ctx,
    private readonly options: McpOptions,
  ) {}

  /** Runs one call with a context of its own; every failure becomes a result, never a crash. */
  async call(tool: Tool, args: unknown, signal?: AbortSignal): Promise<CallToolResult> {
    const { outer } = this;
    const globals: Globals = { ...outer.globals, json: true, input: false, jq: undefined, dryRun: undefined, color: false };
    const base: BaseCtx = {
      io: callIO(outer.io.stderr),
      env: outer.env,
      signal: signal ? AbortSignal.any([outer.signal, signal]) : outer.signal,
      version: outer.version,
      prompt: noPrompt,
    };
    let ctx: Ctx | undefined;
    try {
      ctx = await createCtx(base, globals);
      const { result, text: extra, shown } = await tool.call(args as never, ctx, { showSecrets: !!this.options.showSecrets });
      if (!result) throw new Error(`${tool.name} returned nothing`);
      try {
        await result.after?.();
      } catch (error) {
        // The work after the output failed (saving a new key): the document goes back in full,
        // unmasked, with the error naming what was lost, or nobody would ever have the secret.
        if (!result.lost) throw error;
        const known = error instanceof WsctlError;
        const said = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300).replace(/[.\s]*$/, '.');
        const failed = errorResult(new WsctlError(`${known ? said : `Could not save: ${said}`} ${result.lost}`), outer.debug, outer.io.stderr, known ? error.exitCode : 1);
        return { ...failed, content: [...failed.content, text(JSON.stringify(result.json, null, 2))] };
      }
      const document = shown === undefined ? result.json : shown.document;
      const content = [text(JSON.stringify(document, null, 2))];
      if (result.failure || result.exitCode) {
        // The verb's own exit code (auth status's 4), or 1 for a body that reports failure.
        const code = result.failure ? 1 : result.exitCode;
        const failed = errorResult(new WsctlError(result.failure ?? result.exitMessage ?? 'The command failed.'), outer.debug, outer.io.stderr, code);
        return { ...failed, content: [...failed.content, ...content] };
      }
      if (extra) content.push(text(extra(document)));
      const structured = document && typeof document === 'object' && !Array.isArray(document) ? (document as Record<string, unknown>) : { result: document };
      return { content, structuredContent: structured };
    } catch (error) {
      return errorResult(error, outer.debug, outer.io.stderr);
    } finally {
      await ctx?.close().catch(() => {});
    }
  }
}

/**
 * stdin, line by line, without any line longer than MAX_MESSAGE_BYTES: such a line is dropped
 * (with an error response when its id can be read), so that the SDK's buffer never overflows,
 * which would end the server.
 */
function boundedLines(stdin: Readable, tooLong: (head: string) => void): PassThrough {
  const out = new PassThrough();
  let pending: Buffer[] = [];
  let size = 0;
  let dropping = false;
  let head = '';
  stdin.on('data', (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0) {
      const newline = data.indexOf(10);
      const piece = newline < 0 ? data : data.subarray(0, newline + 1);
      data = newline < 0 ? Buffer.alloc(0) : data.subarray(newline + 1);
      if (!dropping) {
        if (size === 0) head = '';
        if (head.length < 256) head += piece.subarray(0, 256).toString('utf8');
        if (size + piece.length > MAX_MESSAGE_BYTES) {
          dropping = true;
          pending = [];
          size = 0;
        } else {
          pending.push(piece);
          size += piece.length;
        }
      }
      if (newline >= 0) {
        if (dropping) tooLong(head);
        else out.write(Buffer.concat(pending));
        pending = [];
        size = 0;
        dropping = false;
      }
    }
  });
  stdin.on('end', () => out.end());
  stdin.on('close', () => out.end());
  stdin.on('error', (error) => out.destroy(error));
  return out;
}

/**
 * A protocol error whose message is said once: the SDK's McpError puts "MCP error <code>: " in
 * its message, which the client's McpError prefixes again.
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Why a tool of wsctl is not offered by this server, and which flag offers it. */
function notOffered(name: string, options: McpOptions): string | undefined {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) return undefined;
  if (options.readOnly && tool.kind !== 'read') return `Tool '${name}' is not offered: the server was started with --read-only, which offers the reads alone.`;
  if (tool.kind === 'destructive' && !options.allowDestructive) return `Tool '${name}' deletes, and is offered only when the server is started with --allow-destructive.`;
  return undefined;
}

/** tools/call with its params unchecked: the handler checks them. */
const LooseCallRequest = z.object({ method: z.literal('tools/call'), params: z.optional(z.unknown()) });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The server with its tools, before it is connected to a transport; inflight holds the calls under way. */
export function createServer(
  options: McpOptions,
  ctx: Ctx,
  describe: (command: string[]) => CommandInfo | undefined,
): { server: Server; inflight: Set<Promise<unknown>>; abortCalls: () => void } {
  const calls = new AbortController();
  const tools = offered(options);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map((t) => describeTool(t, describe(t.command)));
  const runner = new ToolRunner(ctx, options);

  const server = new Server(
    { name: 'wsctl', title: 'wsctl', version: ctx.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Administers a personal AI-assistant workspace through wsctl: API keys, conversations, capabilities, settings, connections, models, devices, personas, publications and sites.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  const inflight = new Set<Promise<unknown>>();
  // Installed past the Server's own tools/call wrapper, whose schema checks turn `arguments: null`
  // into an internal error with a schema dump: the request is checked here, in one clean line.
  Protocol.prototype.setRequestHandler.call(server, LooseCallRequest, async (request: z.infer<typeof LooseCallRequest>, extra: { signal: AbortSignal }) => {
    const params = request.params;
    if (!isObject(params) || typeof params.name !== 'string') throw protocolError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be a string.');
    const tool = byName.get(params.name);
    if (!tool) throw protocolError(ErrorCode.InvalidParams, notOffered(params.name, options) ?? `Unknown tool '${params.name}'. Tools: ${tools.map((t) => t.name).join(', ')}.`);
    if (params.arguments !== undefined && !isObject(params.arguments)) throw protocolError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: arguments must be an object.`);
    const parsed = z.safeParse(tool.input, params.arguments ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`).join('; ');
      throw protocolError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${problems}`);
    }
    const call = runner.call(tool, parsed.data, AbortSignal.any([extra.signal, calls.signal]));
    inflight.add(call);
    return call.finally(() => inflight.delete(call));
  });

  server.onerror = (error) => {
    // Lines that are not JSON-RPC: said on stderr, never answered on stdout with anything else.
    logTo(ctx)(ctx.debug ? String(error?.stack ?? error) : String(error?.message ?? error));
  };
  return { server, inflight, abortCalls: () => calls.abort() };
}

/** How long calls in flight when stdin closes may go on before they are stopped. */
export const DRAIN_MS = 3000;

function logTo(ctx: Ctx): (line: string) => void {
  return (line) => ctx.io.stderr.write(`wsctl mcp: ${cleanErrorMessage(line).replace(/\n/g, ' ')}\n`);
}

/** Runs the server on stdin/stdout until stdin closes, SIGINT (ctx.signal) or SIGTERM. */
export async function serve(options: McpOptions, ctx: Ctx, describe: (command: string[]) => CommandInfo | undefined): Promise<void> {
  const { server, inflight, abortCalls } = createServer(options, ctx, describe);
  const tools = offered(options);
  const log = logTo(ctx);
  const stdout = ctx.io.stdout;
  const input = boundedLines(ctx.io.stdin, (head) => {
    const id = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*("(?:[^"\\]|\\.){0,100}"|-?\d{1,16})/.exec(head)?.[1];
    log(`a message longer than ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB was dropped`);
    if (id !== undefined) stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(id), error: { code: ErrorCode.InvalidRequest, message: `Message too large: the limit is ${MAX_MESSAGE_BYTES} bytes.` } })}\n`);
  });
  const transport = new StdioServerTransport(input, stdout as NodeJS.WritableStream as never, { maxBufferSize: 2 * MAX_MESSAGE_BYTES + 1 });
  // Nothing but protocol messages on stdout, whatever a library may print.
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...args: unknown[]) => ctx.io.stderr.write(`${args.map(String).join(' ')}\n`);
  // One call's crash never ends the server: an error nobody caught is logged, the server goes on.
  const handlers = { uncaughtException: process.listeners('uncaughtException'), unhandledRejection: process.listeners('unhandledRejection') };
  const survive = (error: unknown) => log(`unexpected error (the server goes on): ${error instanceof Error ? error.message : String(error)}`);
  process.removeAllListeners('uncaughtException').removeAllListeners('unhandledRejection');
  process.on('uncaughtException', survive).on('unhandledRejection', survive);

  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const onTerm = () => stop();
  process.once('SIGTERM', onTerm);
  ctx.signal.addEventListener('abort', () => stop(), { once: true });
  // A client that sends its requests and closes stdin still gets its answers, for a few seconds:
  // then the calls still under way (a service that does not answer, retries) are stopped, and
  // answered as interrupted.
  input.on('end', () => {
    const settled = Promise.allSettled([...inflight]);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_MS)));
    void Promise.race([settled, late])
      .then(() => {
        clearTimeout(timer);
        abortCalls();
        return settled;
      })
      .then(() => setImmediate(stop));
  });
  input.on('error', () => stop());
  transport.onclose = () => stop();

  try {
    await server.connect(transport);
    if (ctx.debug) log(`serving ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}`);
    if (!ctx.signal.aborted) await stopped;
  } finally {
    abortCalls();
    process.off('SIGTERM', onTerm);
    await server.close().catch(() => {});
    Object.assign(console, saved);
    process.off('uncaughtException', survive).off('unhandledRejection', survive);
    for (const h of handlers.uncaughtException) process.on('uncaughtException', h as never);
    for (const h of handlers.unhandledRejection) process.on('unhandledRejection', h as never);
  }
}
