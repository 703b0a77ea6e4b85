// What a verb is and returns, and how its action is run: the glue between commander and
// run(opts, ctx). Each verb is a declaration (defineVerb); addNoun turns a noun's declarations
// into commander commands whose actions build typed options and hand them to App.run. A verb that
// sends returns its request as a Call: settle() plans it under --dry-run, else sends it.
import type { Command } from 'commander';
import type { Ctx, Globals, Needs } from './context.js';
import { UsageError, type Reason } from '../errors.js';
import type { Api, ApiResponse, DryRunRequest, Method, RequestSpec } from '../http/index.js';
import type { Response, SchemaName } from '../schemas.js';
import type { EndpointName } from '../service.js';
import type { Terminal } from '../terminal/index.js';
import type { IdsSpec } from '../ids/record.js';
import { cleanLine } from '../common/sanitize.js';
import type { Asked } from './changes.js';

export interface Result {
  /** The document printed with --json: the service's body unless the command says otherwise. */
  json: unknown;
  /** The service's own text of `json` when `json` is its body: printed in its place, re-indented (cli.md §3). */
  jsonText?: string;
  /** Human output, on a TTY or piped. */
  human(out: Terminal): void | Promise<void>;
  /** A 2xx body that reports failure: the output is printed all the same, then exit 1. */
  failure?: string;
  /** A non-zero exit after printing (auth status with no valid key). */
  exitCode?: number;
  exitMessage?: string;
  /** The word of cli.md §4 for that exit, when the code's first word is not it. */
  exitReason?: Reason;
  /** Said with the error when the output cannot be written (a secret shown once, lost). */
  lost?: string;
  /** Work done once the output is printed (saving a new key, so that its secret is never lost). */
  after?: () => Promise<void>;
  /** The output was written as it arrived (convo show): nothing is left to print. */
  printed?: boolean;
  /** What the output showed, when it is not `json` (a streamed transcript): where remembered ids are read from. */
  shown?: unknown;
}

/** A verb's work: typed options in, data (or nothing) out. */
export type Verb<O> = (opts: O, ctx: Ctx) => Promise<Result | void>;

type BodyOf<N> = N extends SchemaName ? Response<N> : unknown;

/**
 * The request a verb sends, returned rather than sent: under --dry-run it is planned (its document
 * is the result, nothing is sent, no key is read); otherwise it is sent and its answer handed on.
 * A verb that sends more than one request (auth checks a key first; --follow polls) returns the first.
 */
export type Call<N extends SchemaName | undefined = SchemaName | undefined> = {
  request: RequestSpec<N>;
  /** The client to send with, when it is not the one the door resolved (auth login's new key: a verb that declares `ownKey`). */
  client?: Api;
} & (
  | {
      spinner: string;
      progress?: () => string | undefined;
      // Not `then`: a Call is returned from async functions, and a `then` would make it a promise.
      answer(response: ApiResponse<BodyOf<N>>, api: Api): Result | Promise<Result>;
      /** What a failed request becomes (auth status: a rejected key is a status, not an error). */
      otherwise?(error: unknown): Result | Promise<Result>;
    }
  | {
      /** The body read as it arrives (convo show), or requests made by a loop of their own (--follow). */
      stream(api: Api): Promise<Result | void>;
    }
);

/** A Call with its response typed from its request, for the verbs to build. */
export function call<N extends SchemaName | undefined>(c: Call<N>): Call {
  return c as Call;
}

export function isCall(value: Result | Call | void): value is Call {
  return !!value && 'request' in value;
}

/**
 * What a verb returned, carried through: a Call is planned under --dry-run, else sent, with the
 * client the door handed the pipeline (ctx.reached), never one asked for here.
 */
export async function settle(ctx: Ctx, returned: Result | Call | void): Promise<Result | void> {
  if (!isCall(returned)) return returned;
  const api = returned.client ?? readyClient(ctx);
  if (ctx.dryRun) return planned(api.plan(returned.request));
  if ('stream' in returned) return returned.stream(api);
  let response: ApiResponse<unknown>;
  // An upload tells how many of its bytes are sent, to whoever listens (an MCP call's progress).
  const upload = returned.request.upload as { sent?: () => number } | undefined;
  const report = ctx.progress && typeof upload?.sent === 'function' ? () => ctx.progress?.(upload.sent!()) : undefined;
  const ticking = report && setInterval(report, 100);
  try {
    response = await ctx.term.spin(returned.spinner, api.request(returned.request), returned.progress);
    report?.();
  } catch (error) {
    if (!returned.otherwise) throw error;
    return returned.otherwise(error);
  } finally {
    clearInterval(ticking);
  }
  const result = await returned.answer(response as ApiResponse<never>, api);
  // Where the document is the body, --json prints the body's own bytes (its numbers, escapes and
  // key order as the service wrote them) and --jq filters them; the human views read the parsed value.
  if (result.json === response.body && response.text !== undefined) result.jsonText ??= response.text;
  return result;
}

/** The door's client, or what stopped the door from making one (exit 4: no base URL, no key), said now that a request would go out. */
function readyClient(ctx: Ctx): Api {
  const reached = ctx.reached;
  if (!reached) throw new Error('A request was returned by a verb whose declaration says it sends none.');
  if (reached.warning) ctx.term.warn(reached.warning);
  if (!reached.client) throw reached.failure;
  return reached.client;
}

/**
 * What a door resolves before the verb runs: the profile's target and its client when the verb
 * sends with the profile's key (its endpoints), nothing for one that sends nothing (config,
 * completion, profile, mcp config) or with a key of its own (auth login).
 */
export function needsOf(verb: VerbDecl): Needs {
  return { target: !verb.ownKey && (verb.endpoints === 'any' || verb.endpoints.length > 0) };
}

/** --dry-run's result: the request document, or for people its request line, headers and body. */
export function planned(request: DryRunRequest): Result {
  return {
    json: request,
    human(out) {
      out.line(`${request.method} ${request.url}`);
      for (const [k, v] of Object.entries(request.headers)) out.line(`${k}: ${v}`);
      if (request.body === undefined) return;
      // The body repeats arguments: C1, bidi and invisible characters as \u escapes (cli.md §5).
      out.line();
      out.printJsonText(request.body);
    },
  };
}

/**
 * --dry-run's result for a verb that changes local state (the config, the credential store, the
 * sandbox's files and server): what it would change, with nothing changed. The document is the one the verb
 * prints when it runs, marked `dry_run`; people get one line saying what would happen.
 */
export function wouldChange(json: Record<string, unknown>, said: string, request?: DryRunRequest): Result {
  const plan = request && planned(request);
  return {
    json: { ...json, ...(request ? { request } : {}), dry_run: true },
    async human(out) {
      if (plan) {
        await plan.human(out);
        out.line();
      }
      out.line(cleanLine(`${said} Nothing was changed (--dry-run).`));
    },
  };
}

export interface App {
  /**
   * Runs a verb: builds the context from the command's global options, with what the verb needs
   * (its target: needsOf) resolved once, then the verb's options from argv (`opts()` throws a
   * UsageError when one is wrong), calls `verb(opts, ctx)` and prints what it returns. Tests record
   * `opts()` here without running anything (test/commands/argv.test.ts).
   */
  run<O>(command: Command, opts: () => O, verb: Verb<O>, needs?: Needs): Promise<void>;
  /** Loads every command of the tree (only the invoked one is loaded at start-up). */
  loadAll(program: Command): Promise<void>;
  /** Every verb's declaration (src/cli/program.ts's declaredVerbs), for the verbs that serve others (mcp). */
  declared?(): Promise<{ path: string[]; verb: VerbDecl; hidden: boolean }[]>;
}

/**
 * argv's text → the typed value run() gets; throws a UsageError (exit 2) when it is not one.
 * `name` is how the door that asked names the parameter ('--tail' on the command line, 'tail' for
 * an MCP tool), for the message.
 */
export type Parser<T> = (raw: string, name: string) => T;

/**
 * One argument or flag: commander's syntax, its help, and how argv's text becomes its value.
 * Commander checks the syntax, the choices and the required arguments while it parses; the
 * parsers run once it is done, in the order declared, so that its own usage errors come first.
 */
export interface Param<T> {
  syntax: string;
  help: string;
  /** Values allowed, checked by commander (and offered by completion). */
  choices?: readonly string[];
  /** The value when the flag is absent (shown in help, as commander does). */
  fallback?: T;
  /** What the verb does when the flag is absent, which it decides itself (`--interval`: 2), as typed: help --json's default. */
  implied?: string | number;
  /** Missing ones are named together in one usage error. */
  required?: boolean;
  /** Given again and again: commander collects the texts in order. */
  repeated?: boolean;
  /** What argv gave (a text, a list of texts for a repeated flag, true for a flag) → the value; `name` as in Parser. */
  read(given: unknown, name: string): T;
  /** A value typed as a number (a parser alone does not say what it returns): `number` in help --json. */
  number?: boolean;
}

type Params = Record<string, Param<any>>;
type Values<P> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };
/** The options run() receives, inferred from a verb's args and flags. */
export type OptsOf<A, F> = { [K in keyof (Values<A> & Values<F>)]: (Values<A> & Values<F>)[K] };

type Parse<T> = Parser<T> | readonly T[];

/** A parser of numbers, marked so that descriptions of its parameter (help --json) say `number`. */
export function numeric<T extends number>(parse: Parser<T>): Parser<T> {
  return Object.assign((raw: string, name: string) => parse(raw, name), { number: true });
}

/** The choices of a list; a parser as read(). */
function parsing<T>(parse: Parse<T> | undefined): Pick<Param<T>, 'choices' | 'read' | 'number'> {
  if (typeof parse === 'function')
    return { read: (given, name) => parse(given as string, name), ...('number' in parse ? { number: true } : {}) };
  return { choices: parse as readonly string[] | undefined, read: (given) => given as T };
}

/** A positional argument, '<name>'; with a parser or a list of the values allowed. */
export function arg(syntax: string, help: string): Param<string>;
export function arg<T>(syntax: string, help: string, parse: Parse<T>): Param<T>;
export function arg<T>(syntax: string, help: string, parse?: Parse<T>): Param<T> {
  return { syntax, help, ...parsing(parse) };
}

/** A flag without a value: true when given (a '--no-x' flag: false when given). */
export function flag(syntax: string, help: string): Param<boolean> {
  const negated = /(^|[ ,])--no-/.test(syntax);
  return { syntax, help, read: (given) => (given === undefined ? negated : !!given) };
}

/** A flag with a value, undefined when absent unless it has a fallback. */
export function option(syntax: string, help: string): Param<string | undefined>;
export function option<T>(syntax: string, help: string, parse: Parse<T>): Param<T | undefined>;
export function option<T>(syntax: string, help: string, parse: Parse<T> | undefined, fallback: T): Param<T>;
export function option<T>(syntax: string, help: string, parse?: Parse<T>, fallback?: T): Param<T | undefined> {
  return { syntax, help, ...parsing(parse), fallback };
}

/** A flag with a value that the verb cannot do without (missing ones are named in one error). */
export function required(syntax: string, help: string): Param<string>;
export function required<T>(syntax: string, help: string, parse: Parse<T>): Param<T>;
export function required<T>(syntax: string, help: string, parse?: Parse<T>): Param<T> {
  return { syntax, help, ...parsing(parse), required: true };
}

/** A flag that may be given again and again: its values in order. */
export function repeated(syntax: string, help: string): Param<string[]>;
export function repeated<T>(syntax: string, help: string, parse: Parser<T>): Param<T[]>;
export function repeated<T>(syntax: string, help: string, parse?: Parser<T>): Param<T[]> {
  return {
    syntax,
    help,
    repeated: true,
    fallback: [],
    read: (given, name) => (given as string[]).map((raw) => (parse ? parse(raw, name) : (raw as T))),
  };
}

/** Any text but an empty (or blank) one, which is a usage error with this message (else one naming the parameter). */
export function nonEmpty(message?: string): Parser<string> {
  return (raw, name) => {
    if (raw.trim() === '') throw new UsageError(message ?? `${name} must not be empty.`, { reason: 'invalid_input' });
    return raw;
  };
}

/** An identifier that goes into a path: an empty one is a usage error naming it. */
export const parseId: Parser<string> = (raw, name) => requireId(raw, name);

/** Where a verb sits in the tree, for the few verbs that work on the tree itself (completion, mcp). */
export interface Here {
  command: Command;
  /** The root with every noun loaded (only the invoked one is, at start-up). */
  wholeTree(): Promise<Command>;
  /** Every verb's declaration, noun by noun in the order of `wsctl --help` (wsctl mcp's tools). */
  verbs(): Promise<{ path: string[]; verb: VerbDecl; hidden: boolean }[]>;
}

export interface VerbSpec<A extends Params, F extends Params> {
  name: string;
  aliases?: string[];
  /** One line: the verb's description in help, man pages, completion and MCP tools. */
  summary: string;
  args?: A;
  flags?: F;
  /**
   * Rules between options, checked once the options are read and before anything runs, by every
   * door (src/verbs/invoke.ts); `said` names a parameter (by its key) as the door that asked does.
   */
  check?(opts: OptsOf<A, F>, said: (key: keyof A | keyof F) => string): void;
  /** Said in help before the examples. */
  notes?: string;
  examples: string[];
  /** The endpoints of src/service.ts the verb calls; 'any' for `api`, which calls any path. */
  endpoints: EndpointName[] | 'any';
  /** It sends with a key it is given (auth login's new one), never the profile's: no door resolves a target for it (needsOf). */
  ownKey?: boolean;
  /** With 'any' endpoints: the method these options would send, known before the verb runs (agent policies judge by it). */
  method?(opts: OptsOf<A, F>): Method;
  /** With 'any' endpoints: the path (and query) these options would send to, which a confirmation names. */
  path?(opts: OptsOf<A, F>): string;
  /** An argv that succeeds against the seeded sandbox (destructive verbs with --yes). */
  sample: string[];
  /** Other argvs that take another way through the verb (convo show --follow), for the same matrices. */
  moreSamples?: string[][];
  /** The ids it takes and shows (cli.md §10): completion, the list, and what is remembered (src/ids/). */
  ids?: IdsSpec<OptsOf<A, F>>;
  /**
   * What a command that sends nothing still guards from an AI agent (cli.md §11): a credential it
   * loses or shows (auth logout, auth token, profile rm), or the agent policy itself, which an agent
   * may narrow but never widen (profile agents). The policies refuse it as they refuse a deletion,
   * though it changes nothing in the workspace: help --json's `refused_by` reads this.
   */
  guards?: 'credential' | 'policy';
  run(opts: OptsOf<A, F>, ctx: Ctx, here: Here): Promise<Result | Call | void>;
  /** What `wsctl mcp` adds to the command as a tool (src/mcp/tools.ts); `false` with why, for a command that is no tool. */
  mcp?: McpSpec<OptsOf<A, F>> | { none: string };
}

/**
 * What an MCP tool adds to its command (cli.md §8), never a second definition of its arguments:
 * the tool's arguments are the command's, in snake case, less the flags that only a terminal needs.
 */
export interface McpSpec<O = Record<string, unknown>> {
  /** Said to agents instead of the summary (where that speaks of terminals, prompts or --yes). */
  description?: string;
  /** One more sentence for agents. */
  note?: string;
  /** Flags (by key) that mean nothing to a tool: prompts, paging, terminal output, stdin. */
  drop?: string[];
  /** Arguments the tool takes that the command reads another way (byok add's key: stdin or a prompt). */
  extra?: Params;
  /** JSON Schema of an argument where it is not a string (convo show's tail: an integer, default 50). */
  schema?: Record<string, Record<string, unknown>>;
  /** Values the verb runs with, whatever the call says (a tool never pages; a confirmed removal needs no --yes). */
  fixed?: Partial<O> & Record<string, unknown>;
  /** Reaches beyond the workspace (a third-party app). */
  openWorld?: boolean;
  /** The argument that names a local file: read only inside the server's folders, its real path confirmed. */
  localFile?: string;
  /**
   * A secret the tool never takes as an argument, since it would pass through the model (byok
   * add's provider key, cli.md §8): the server's variable, else a page a person pastes it into
   * (src/mcp/person-secret.ts). The option the verb reads it from; the argument a call may still
   * pass, refused; the variable; the flag a person's command line reads it with; what it is.
   */
  secret?: { key: string; argument: string; env: string; flag: string; what: string };
  /**
   * That a person confirms every call (declaring it is saying so: the tool always asks), for what
   * no rule of src/verbs/changes.ts sees (data leaves the machine, conversations go to a
   * provider): the command's words and the values it names. Deletions, --force and a wider
   * permission are confirmed without a line here.
   */
  confirm?(opts: O): Asked;
  /** The one text part, instead of the document as compact JSON (convo show's Markdown transcript). */
  text?(document: unknown): string;
  /** The document returned, when it is not the --json document (keys create's key, masked unless --show-secrets). */
  shown?(document: unknown, server: { showSecrets: boolean }): unknown;
  /** How to ask for less when a result is too large. */
  less?: string;
}

// The parameters are erased here: a noun lists verbs of every shape.
export type VerbDecl = VerbSpec<any, any>;

export function defineVerb<A extends Params = {}, F extends Params = {}>(spec: VerbSpec<A, F>): VerbSpec<A, F> {
  return spec;
}

export interface NounDecl {
  name: string;
  /** One line in the root's help (the build writes it to src/common/declared.ts, so that --help loads no noun). */
  summary?: string;
  examples?: string[];
  verbs: VerbDecl[];
  /** A noun that is a verb itself (caps, api, mcp): what it does when run without a verb. */
  self?: VerbDecl;
}

export function defineNoun(spec: NounDecl): NounDecl {
  return spec;
}

export function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/** "wsctl byok add" */
export function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** Identifiers go into paths: an empty one is a usage error, everything else gets encoded. */
export function requireId(value: string, name: string): string {
  if (value.trim() === '') throw new UsageError(`${name} must not be empty.`, { reason: 'invalid_input' });
  return value;
}

/** A 2xx body that reports failure: a JSON object with `success: false`. */
export function saysFailure(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { success?: unknown }).success === false;
}

/** "a/b/c" → ["a", "b", "c"], for target paths; empty, "." and ".." segments are refused. */
export function splitPath(value: string, flag: string): string[] {
  // A Parser: `flag` is the parameter as the door names it.
  const parts = value.split('/').filter((p) => p !== '');
  if (parts.length === 0 || parts.some((p) => p === '.' || p === '..')) {
    throw new UsageError(`Invalid ${flag} '${value}': give folder names separated by '/', without '.' or '..'.`);
  }
  return parts;
}

export type { Ctx, Globals };
