// `wsctl mcp`: a Model Context Protocol server on stdin/stdout (cli.md §8), on the official SDK's
// server core only (its HTTP transports would bring express and hono). Each tool call goes through
// the pipeline every command takes (src/verbs/invoke.ts), with a context of its own built as the
// command's would be (profile, key, base URL, --sandbox, timeouts, retries, redaction), whose stdout
// is a sink: stdout carries protocol messages only, whatever a call does.
import { setMaxListeners } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { needsOf, type Ctx } from '../verbs/declare.js';
import type { BaseCtx } from '../verbs/context.js';
import { REASONS, reasonOfCode, UsageError, WsctlError } from '../errors.js';
import { invoke } from '../verbs/invoke.js';
import { cleanErrorMessage, cleanLine } from '../common/sanitize.js';
import { linkedSignal } from '../common/signals.js';
import type { IO } from '../terminal/index.js';
import { commandLine, jqOf, mcpDoor, openLocalImage, rawOptions, type Folders } from './door.js';
import type { CallFilter } from './jq-filter.js';
import { rememberedIds, type SeenIds } from './seen.js';
import { mcpOffer, policyCommand, policyInEffect, policyRefusal, refusedBy } from '../verbs/agent-policy.js';
import type { AgentPolicy } from '../common/agent.js';
import { AuthError } from '../errors.js';
import { offered, toolsOf, type DeclaredVerb, type ToolDef } from './tools.js';
import { questionOf, sendsDelete } from '../verbs/changes.js';
import { questionText } from './question.js';
import { askPerson, canAskForm, type Answer } from './elicit.js';
import {
  canShowPage,
  passesSecret,
  personSecret,
  secretPassed,
  withoutSecret,
  type PageAnswer,
  type PageRequest,
} from './person-secret.js';
import { LineTransport, MAX_MESSAGE_BYTES } from './transport.js';
import { CAPABILITIES, INSTRUCTIONS, serverInfo } from './initialize.js';

export { MAX_MESSAGE_BYTES };

export interface McpOptions {
  readOnly?: boolean;
  allowDestructive?: boolean;
  showSecrets?: boolean;
  /** Run what a person would confirm without asking (an unattended agent a person set up on purpose). */
  noConfirm?: boolean;
  /** A folder, besides the working folder, that persona_upload_avatar may read files from. */
  uploadDir?: string;
  /** The profile's agent policy (cli.md §11): tools it refuses are not offered, and `force` is refused under no-destructive. */
  policy?: { profile: string; policy: AgentPolicy };
}

/** The largest document a call returns (cli.md §8). */
export const MAX_RESULT_BYTES = 4 * 1024 * 1024;
/** Calls that run at once; more wait their turn, in order. */
export const MAX_CALLS = 4;

const noPrompt: BaseCtx['prompt'] = {
  secret: () => Promise.reject(new Error('wsctl mcp never prompts')),
  confirm: () => Promise.reject(new Error('wsctl mcp never prompts')),
  text: () => Promise.reject(new Error('wsctl mcp never prompts')),
} as BaseCtx['prompt'];

/** A call's own streams: no input, its output kept away from the protocol's stdout. */
function callIO(stderr: Writable): IO {
  let stdin: Readable | undefined;
  let stdout: Writable | undefined;
  return {
    // Made only for a verb that reads or writes them: a stream costs a call a few µs.
    get stdin() {
      stdin ??= Readable.from([]);
      return stdin;
    },
    get stdout() {
      stdout ??= new Writable({ write: (_chunk, _encoding, done) => done() });
      return stdout;
    },
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

/** A failed call: wsctl's one-line message ending in its exit code, then the error document of --json. */
export function errorResult(error: unknown, debug: boolean, stderr: Writable, exitCode?: number): CallToolResult {
  const known = error instanceof WsctlError;
  const code = exitCode ?? (known ? error.exitCode : 1);
  const said = error instanceof Error ? error.message : String(error);
  const message = cleanErrorMessage(
    known ? error.message : `Unexpected error: ${said.split('\n')[0]?.slice(0, 300) ?? ''}. Run with --debug for details.`,
  );
  const reason = known && REASONS[error.reason] === code ? error.reason : reasonOfCode(code, !known);
  const doc: Record<string, unknown> = { message, exit_code: code, reason };
  if (known && error.status !== undefined) doc.status = error.status;
  if (known && error.requestId) doc.request_id = error.requestId;
  if (known && error.details !== undefined) doc.details = error.details;
  if (debug && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  return {
    isError: true,
    content: [text(`Error: ${message.replace(/\n/g, ' ')} (exit code ${code})`), text(JSON.stringify({ error: doc }))],
  };
}

/**
 * A call's result through its `jq` filter (cli.md §8): what the filter gives replaces the document
 * and its text (convo_show's Markdown included). A filter that fails on a document that must not
 * be lost (a new key's) returns the document after the error.
 */
async function filtered(
  filter: CallFilter,
  json: string,
  lost: { type: 'text'; text: string } | undefined,
  debug: boolean,
  stderr: Writable,
): Promise<CallToolResult> {
  let values: string[];
  try {
    values = await filter.values(json);
  } catch (error) {
    if (!lost) throw error;
    const failed = errorResult(error, debug, stderr);
    return { ...failed, content: [...failed.content, lost] };
  }
  return { content: [text(values.join('\n'))], structuredContent: { jq: values.map((value) => JSON.parse(value) as unknown) } };
}

/** Runs work MAX_CALLS at a time, the rest in the order they came. */
class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= MAX_CALLS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      // The slot passes to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** What a call may do besides its work: ask the person, report progress. */
export interface CallExtra {
  signal: AbortSignal;
  /** Asks the client's person; undefined when the client cannot ask. */
  ask?(message: string): Promise<Answer>;
  /** Shows the client's person a page for a secret (URL-mode elicitation); undefined when the client cannot. */
  page?(request: PageRequest): Promise<PageAnswer>;
  progress?(progress: number, total?: number): void;
}

export const DECLINED = 'Declined: nothing was sent.';
export const UNANSWERED = 'No answer within 10 minutes: nothing was sent.';

export class ToolRunner {
  private readonly folders: Folders;

  constructor(
    private readonly outer: Ctx,
    private readonly options: McpOptions,
    private readonly cwd = process.cwd(),
  ) {
    this.folders = {
      working: this.cwd,
      uploadDirs: options.uploadDir ? [options.uploadDir] : [],
      home: outer.env.HOME || outer.env.USERPROFILE,
    };
  }

  /** Runs one call with a context of its own; every failure becomes a result, never a crash. */
  async call(tool: ToolDef, args: unknown, extra: CallExtra): Promise<CallToolResult> {
    const { outer } = this;
    const stderr = outer.term.streams.stderr;
    let ctx: Ctx | undefined;
    let filter: CallFilter | undefined;
    const link = linkedSignal([outer.signal, extra.signal]);
    try {
      if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
        throw new UsageError(`Invalid arguments for ${tool.name}: arguments must be an object.`);
      const raw = rawOptions(tool, withoutSecret(tool, (args ?? {}) as Record<string, unknown>));
      const expression = jqOf((args ?? {}) as Record<string, unknown>);
      // The door resolves the call's target once, before the pipeline: the call's verb sends with the client it is handed.
      ctx = await outer.forCall({ io: callIO(stderr), prompt: noPrompt, signal: link.signal }, needsOf(tool.verb));
      const callCtx = ctx;
      if (passesSecret(tool, (args ?? {}) as Record<string, unknown>)) throw secretPassed(tool, commandLine(tool, {}, raw, callCtx));
      let size: number | undefined;
      // An upload's bytes are counted with its multipart framing: said against the file's size.
      const progress = extra.progress;
      if (progress) ctx.progress = (done, total) => progress(size === undefined ? done : Math.min(done, size), total ?? size);
      const result = await invoke(tool.verb, raw, ctx, mcpDoor, {
        path: tool.path,
        extra: tool.spec.extra,
        before: async (opts) => {
          const policy = this.options.policy;
          const refusal = policy && policyRefusal(tool.verb, opts, policy.policy, policy.profile);
          if (refusal) throw new AuthError(refusal, { reason: 'policy_refused' });
          // The engine loads for a call that passes jq alone; a filter that does not compile sends nothing and asks nobody.
          if (expression !== undefined)
            filter = await (await import('./jq-filter.js')).compileFilter(expression, link.signal, MAX_RESULT_BYTES);
          const file = tool.spec.localFile;
          if (file !== undefined && typeof opts[file] === 'string') {
            // Opened and checked once, before anyone is asked; the verb sends these very bytes.
            const opened = await openLocalImage(opts[file] as string, this.folders);
            opts = { ...opts, [file]: opened.realPath, opened };
            size = opened.size;
          }
          const secret = tool.spec.secret;
          if (secret) {
            // The page's submission is the person's consent; the server's variable is confirmed as any such call.
            const given = opts;
            const key = await personSecret(tool, given, callCtx, {
              confirm: () => this.confirm(tool, given, raw, callCtx, extra, size),
              page: extra.page,
              line: () => commandLine(tool, given, raw, callCtx),
              declined: (late) => new UsageError(late ? UNANSWERED : DECLINED),
            });
            opts = { ...given, [secret.key]: key };
          } else await this.confirm(tool, opts, raw, callCtx, extra, size);
          // A deletion the person agreed to here (or --no-confirm) is not asked again on the way.
          return { ...opts, ...tool.spec.fixed, ...(sendsDelete(tool.verb, opts) ? { yes: true } : {}) };
        },
      });
      if (!result) throw new Error(`${tool.name} returned nothing`);
      try {
        await result.after?.();
      } catch (error) {
        // The work after the output failed (saving a new key): the document goes back in full,
        // unmasked, with the error naming what was lost, or nobody would ever have the secret.
        if (!result.lost) throw error;
        const known = error instanceof WsctlError;
        const said = (error instanceof Error ? error.message : String(error))
          .split('\n')[0]!
          .slice(0, 300)
          .replace(/[.\s]*$/, '.');
        const failed = errorResult(
          new WsctlError(`${known ? said : `Could not save: ${said}`} ${result.lost}`),
          outer.debug,
          stderr,
          known ? error.exitCode : 1,
        );
        return { ...failed, content: [...failed.content, text(JSON.stringify(result.json))] };
      }
      const document = tool.spec.shown ? tool.spec.shown(result.json, { showSecrets: !!this.options.showSecrets }) : result.json;
      const json = JSON.stringify(document);
      if (result.failure || result.exitCode) {
        // The verb's own exit code, or 1 for a body that reports failure: the document follows the error.
        const failed = errorResult(
          new WsctlError(
            result.failure ?? result.exitMessage ?? 'The command failed.',
            result.failure ? { reason: 'service_failure' } : { reason: result.exitReason },
          ),
          outer.debug,
          stderr,
          result.failure ? 1 : result.exitCode,
        );
        return { ...failed, content: [...failed.content, text(json.length > MAX_RESULT_BYTES ? '(document too large to return)' : json)] };
      }
      if (filter) return await filtered(filter, json, result.lost ? text(json) : undefined, outer.debug, stderr);
      const shown = tool.spec.text ? tool.spec.text(document) : json;
      const bytes = Buffer.byteLength(json) + (tool.spec.text ? Buffer.byteLength(shown) : 0);
      if (bytes > MAX_RESULT_BYTES) {
        const mib = (bytes / 1024 / 1024).toFixed(1);
        throw new UsageError(
          `The result is ${mib} MiB, more than the ${MAX_RESULT_BYTES / 1024 / 1024} MiB a tool returns: ${tool.spec.less ? `${tool.spec.less}, or` : 'pass'} a jq filter that keeps less.`,
        );
      }
      return { content: [text(shown)], structuredContent: document as Record<string, unknown> };
    } catch (error) {
      return errorResult(error, outer.debug, stderr);
    } finally {
      filter?.close();
      await ctx?.close().catch(() => {});
      link.unlink();
    }
  }

  /** A person agrees before anything is sent, when the call needs it (src/verbs/changes.ts, cli.md §8); --no-confirm skips it. */
  private async confirm(
    tool: ToolDef,
    opts: Record<string, unknown>,
    raw: Record<string, unknown>,
    ctx: Ctx,
    extra: CallExtra,
    size: number | undefined,
  ): Promise<void> {
    const asked = questionOf(tool.path, tool.verb, opts);
    if (!asked || this.options.noConfirm) return;
    if (!extra.ask) {
      throw new UsageError(
        `${tool.name} needs a person to confirm, and this client cannot ask: nothing was sent. A person can run \`${commandLine(tool, opts, raw, ctx)}\`.`,
      );
    }
    const t = await ctx.target();
    const message = questionText(tool, asked, { profile: t.profile, baseUrl: t.baseUrl, sandbox: t.keySource === 'sandbox' }, size);
    const answer = await extra.ask(message);
    if (answer !== 'yes') throw new UsageError(answer === 'late' ? UNANSWERED : DECLINED);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A protocol error whose message is said once: the SDK's McpError puts "MCP error <code>: " in
 * its message, which the client's McpError prefixes again.
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Why a tool of wsctl is not offered by this server: the profile's agent policy, or the flag that offers it. */
function notOffered(tool: ToolDef | undefined, options: McpOptions): string | undefined {
  if (!tool) return undefined;
  const policy = options.policy;
  if (policy && refusedBy(policy.policy, tool.changes))
    return `Tool '${tool.name}' is not offered: the agent policy of profile '${policy.profile}' is ${policy.policy}, which ${
      refusedBy(policy.policy, 'write') ? 'offers the reads alone' : 'offers no tool that deletes'
    }. A person can change it with \`${policyCommand(policy.profile)}\`.`;
  if (options.readOnly && tool.changes !== 'none')
    return `Tool '${tool.name}' is not offered: the server was started with --read-only, which offers the reads alone.`;
  if (tool.changes === 'destructive' && !options.allowDestructive)
    return `Tool '${tool.name}' deletes, and is offered only when the server is started with --allow-destructive.`;
  return undefined;
}

const CONVERSATION_TEMPLATE = 'wsctl://conversations/{conversation_id}';

/** The server with its tools, before it is connected to a transport; inflight holds the calls under way. */
export function createServer(
  options: McpOptions,
  ctx: Ctx,
  tools: ToolDef[] | Promise<ToolDef[]>,
  seen: SeenIds = rememberedIds(ctx),
): { server: Server; inflight: Set<Promise<unknown>>; abortCalls: () => void } {
  const calls = new AbortController();
  // Every call under way or waiting its turn listens to both (linkedSignal) until it ends: Node 20
  // would warn of a leak past ten.
  setMaxListeners(0, calls.signal, ctx.signal);
  // The tools are made while initialize is answered: it does not need them.
  const made = Promise.resolve(tools).then((all) => {
    const served = offered(all, options);
    return { all, served, byName: new Map(served.map((t) => [t.name, t])), listed: served.map((t) => t.listing) };
  });
  const runner = new ToolRunner(ctx, options);
  const turns = new Turns();

  const server = new Server(serverInfo(ctx.version), { capabilities: CAPABILITIES, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await made).listed }));
  const inflight = new Set<Promise<unknown>>();
  // tools/call has no handler of its own: the SDK's fallback for requests without one answers it.
  // The Server's setRequestHandler would wrap it in a schema check that turns `arguments: null`
  // into an internal error with a schema dump; here the request is checked, and wrong arguments
  // are a result the model can correct itself from (exit code 2), not a protocol error.
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== 'tools/call') throw protocolError(ErrorCode.MethodNotFound, 'Method not found');
    const params = request.params;
    if (!isObject(params) || typeof params.name !== 'string')
      throw protocolError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be a string.');
    const { all, served, byName } = await made;
    const tool = byName.get(params.name);
    if (!tool)
      throw protocolError(
        ErrorCode.InvalidParams,
        notOffered(
          all.find((t) => t.name === params.name),
          options,
        ) ?? `Unknown tool '${cleanLine(params.name)}'. Tools: ${served.map((t) => t.name).join(', ')}.`,
      );
    const token = extra._meta?.progressToken;
    const { signal, unlink } = linkedSignal([extra.signal, calls.signal]);
    // An empty elicitation capability means form mode (MCP 2025-11-25 keeps it for older clients;
    // the SDK reads it as `{form: {}}`); `url` alone, or a mode wsctl does not know, cannot confirm.
    const canAsk = canAskForm(server.getClientCapabilities()?.elicitation);
    const call = turns.run(() =>
      runner.call(tool, params.arguments, {
        signal,
        ask: canAsk ? (message) => askPerson(server, message, signal, ctx.clock) : undefined,
        // The page's server loads for a call that needs it alone.
        page: canShowPage(server.getClientCapabilities()?.elicitation)
          ? async (request) => (await import('./page-ask.js')).askOnPage(server, request, signal, ctx.clock)
          : undefined,
        progress:
          token === undefined
            ? undefined
            : (progress, total) =>
                void extra
                  .sendNotification({
                    method: 'notifications/progress',
                    params: { progressToken: token, progress, ...(total === undefined ? {} : { total }) },
                  })
                  .catch(() => {}),
      }),
    );
    inflight.add(call);
    return call.finally(() => {
      inflight.delete(call);
      unlink();
    });
  };

  // Resources: the documents of caps and settings, and any conversation's transcript as Markdown.
  const read = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const tool = (await made).all.find((t) => t.name === name) as ToolDef;
    return turns.run(() => runner.call(tool, args, { signal: calls.signal }));
  };
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: 'wsctl://capabilities',
        name: 'capabilities',
        title: 'Workspace capabilities',
        description: 'The document of `wsctl caps --json`',
        mimeType: 'application/json',
      },
      {
        uri: 'wsctl://settings',
        name: 'settings',
        title: 'User settings',
        description: 'The document of `wsctl settings --json`',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: CONVERSATION_TEMPLATE,
        name: 'conversation',
        title: 'Conversation transcript',
        description: 'The whole transcript as Markdown',
        mimeType: 'text/markdown',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const conversation = /^wsctl:\/\/conversations\/([^/?#]+)$/.exec(uri);
    const [name, args, mimeType] =
      uri === 'wsctl://capabilities'
        ? ['caps', {}, 'application/json']
        : uri === 'wsctl://settings'
          ? ['settings', {}, 'application/json']
          : conversation
            ? [
                'convo_show',
                { conversation_id: decodeURIComponent(conversation[1] as string), tail: Number.MAX_SAFE_INTEGER },
                'text/markdown',
              ]
            : [undefined, {}, ''];
    if (!name) throw protocolError(-32002, `Resource not found: ${cleanLine(uri)}.`);
    const result = await read(name, args);
    const first = (result.content[0] as { text: string }).text;
    if (result.isError) throw protocolError(ErrorCode.InternalError, first);
    return { contents: [{ uri, mimeType, text: first }] };
  });
  server.setRequestHandler(CompleteRequestSchema, (request) => {
    const { ref, argument } = request.params;
    if (ref.type !== 'ref/resource' || ref.uri !== CONVERSATION_TEMPLATE || argument.name !== 'conversation_id')
      return { completion: { values: [] } };
    const values = seen.ids('conversation').filter((id) => id.startsWith(argument.value));
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });

  server.onerror = (error) => {
    logTo(ctx)(ctx.debug ? String(error?.stack ?? error) : String(error?.message ?? error));
  };
  return { server, inflight, abortCalls: () => calls.abort() };
}

/** How long calls in flight when stdin closes may go on before they are stopped. */
export const DRAIN_MS = 3000;

function logTo(ctx: Ctx): (line: string) => void {
  return (line) => ctx.term.streams.stderr.write(`wsctl mcp: ${cleanErrorMessage(line).replace(/\n/g, ' ')}\n`);
}

/** Runs the server on stdin/stdout until stdin closes, SIGINT (ctx.signal) or SIGTERM; its tools are made from `verbs`, the declarations. */
export async function serve(given: McpOptions, ctx: Ctx, verbs: () => Promise<DeclaredVerb[]>): Promise<void> {
  // The profile's agent policy narrows what is offered; a config that cannot be read leaves the flags as given.
  let policy: McpOptions['policy'];
  try {
    policy = policyInEffect(ctx);
  } catch {
    policy = undefined;
  }
  const options: McpOptions = policy ? { ...given, ...mcpOffer(given, policy.policy), policy } : given;
  const all = verbs().then(toolsOf);
  const { server, inflight, abortCalls } = createServer(options, ctx, all);
  const log = logTo(ctx);
  const { stdin, stdout, stderr } = ctx.term.streams;
  const transport = new LineTransport(stdin, stdout, log, ctx.initializeAnswered?.id);
  // Nothing but protocol messages on stdout, whatever a library may print.
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...args: unknown[]) => stderr.write(`${args.map(String).join(' ')}\n`);
  // One call's crash never ends the server: an error nobody caught is logged, the server goes on.
  const handlers = {
    uncaughtException: process.listeners('uncaughtException'),
    unhandledRejection: process.listeners('unhandledRejection'),
  };
  const survive = (error: unknown) =>
    log(`unexpected error (the server goes on): ${error instanceof Error ? error.message : String(error)}`);
  process.removeAllListeners('uncaughtException').removeAllListeners('unhandledRejection');
  process.on('uncaughtException', survive).on('unhandledRejection', survive);

  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const onTerm = () => stop();
  process.once('SIGTERM', onTerm);
  ctx.signal.addEventListener('abort', () => stop(), { once: true });
  ctx.initializeAnswered?.handover();
  // A client that sends its requests and closes stdin still gets its answers, for a few seconds:
  // then the calls still under way (a service that does not answer, retries) are stopped, and
  // answered as interrupted.
  transport.onend = () => {
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
  };

  try {
    await server.connect(transport);
    if (ctx.debug)
      void all.then((tools) =>
        log(
          `serving tools: ${offered(tools, options)
            .map((t) => t.name)
            .join(', ')}`,
        ),
      );
    if (!ctx.signal.aborted) await stopped;
  } finally {
    abortCalls();
    process.off('SIGTERM', onTerm);
    await server.close().catch(() => {});
    // A server stopped before anyone asked for its tools still loads their declarations: nothing
    // it started outlives it (a process may serve again, as the tests do).
    await all.catch(() => {});
    Object.assign(console, saved);
    process.off('uncaughtException', survive).off('unhandledRejection', survive);
    for (const h of handlers.uncaughtException) process.on('uncaughtException', h as never);
    for (const h of handlers.unhandledRejection) process.on('unhandledRejection', h as never);
  }
}
