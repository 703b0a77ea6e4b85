// What a verb is and returns, and how its action is run: the glue between commander and
// run(opts, ctx). Each verb is a declaration (defineVerb); addNoun turns a noun's declarations
// into commander commands whose actions build typed options and hand them to App.run. A verb that
// sends returns its request as a Call: settle() plans it under --dry-run, else sends it.
import type { Command, Option } from 'commander';
import type { Ctx, Globals } from './context.js';
import { UsageError } from './errors.js';
import type { Api, ApiResponse, DryRunRequest, RequestSpec } from './http/index.js';
import type { Response, SchemaName } from './schemas.js';
import type { EndpointName } from './service.js';
import type { Terminal } from './terminal/index.js';
import { cleanLine } from './sanitize.js';
import { keepDescribed } from './visible.js';

export interface Result {
  /** The document printed with --json: the service's body unless the command says otherwise. */
  json: unknown;
  /** Human output, on a TTY or piped. */
  human(out: Terminal): void | Promise<void>;
  /** A 2xx body that reports failure: the output is printed all the same, then exit 1. */
  failure?: string;
  /** A non-zero exit after printing (auth status with no valid key). */
  exitCode?: number;
  exitMessage?: string;
  /** Said with the error when the output cannot be written (a secret shown once, lost). */
  lost?: string;
  /** Work done once the output is printed (saving a new key, so that its secret is never lost). */
  after?: () => Promise<void>;
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
  /** The key and base URL to send with, when they are not the profile's (auth login's new key). */
  client?: { apiKey?: string; baseUrl?: string };
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

/** What a verb returned, carried through: a Call is planned under --dry-run, else sent. */
export async function settle(ctx: Ctx, returned: Result | Call | void): Promise<Result | void> {
  if (!isCall(returned)) return returned;
  const api = await ctx.api(returned.client);
  if (ctx.dryRun) return planned(api.plan(returned.request));
  if ('stream' in returned) return returned.stream(api);
  let response: ApiResponse<unknown>;
  try {
    response = await ctx.term.spin(returned.spinner, api.request(returned.request), returned.progress);
  } catch (error) {
    if (!returned.otherwise) throw error;
    return returned.otherwise(error);
  }
  return returned.answer(response as ApiResponse<never>, api);
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
   * Runs a verb: builds the context from the command's global options, then the verb's options
   * from argv (`opts()` throws a UsageError when one is wrong), calls `verb(opts, ctx)` and prints
   * what it returns. Tests record `opts()` here without running anything (test/commands/argv.test.ts).
   */
  run<O>(command: Command, opts: () => O, verb: Verb<O>): Promise<void>;
  /** Loads every command of the tree (only the invoked one is loaded at start-up). */
  loadAll(program: Command): Promise<void>;
}

/** argv's text → the typed value run() gets; throws a UsageError (exit 2) when it is not one. */
export type Parser<T> = (raw: string) => T;

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
  /** Missing ones are named together in one usage error. */
  required?: boolean;
  /** Given again and again: commander collects the texts in order. */
  repeated?: boolean;
  /** What argv gave (a text, a list of texts for a repeated flag, true for a flag) → the value. */
  read(given: unknown): T;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Params = Record<string, Param<any>>;
type Values<P> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };
/** The options run() receives, inferred from a verb's args and flags. */
export type OptsOf<A, F> = { [K in keyof (Values<A> & Values<F>)]: (Values<A> & Values<F>)[K] };

type Parse<T> = Parser<T> | readonly T[];

/** The choices of a list; a parser as read(). */
function parsing<T>(parse: Parse<T> | undefined): Pick<Param<T>, 'choices' | 'read'> {
  if (typeof parse === 'function') return { read: (given) => parse(given as string) };
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
  return { syntax, help, repeated: true, fallback: [], read: (given) => (given as string[]).map((raw) => (parse ? parse(raw) : (raw as T))) };
}

/** Any text but an empty (or blank) one, which is a usage error with this message. */
export function nonEmpty(message: string): Parser<string> {
  return (raw) => {
    if (raw.trim() === '') throw new UsageError(message);
    return raw;
  };
}

/** An identifier that goes into a path: an empty one is a usage error. */
export function parseId(name: string): Parser<string> {
  return (raw) => requireId(raw, name);
}

/** Where a verb sits in the tree, for the few verbs that work on the tree itself (completion, mcp). */
export interface Here {
  command: Command;
  /** The root with every noun loaded (only the invoked one is, at start-up). */
  wholeTree(): Promise<Command>;
}

export interface VerbSpec<A extends Params, F extends Params> {
  name: string;
  aliases?: string[];
  /** One line: the verb's description in help, man pages, completion and MCP tools. */
  summary: string;
  args?: A;
  flags?: F;
  /** Rules between options, checked once argv is parsed and before anything runs. */
  check?(opts: OptsOf<A, F>): void;
  /** Said in help before the examples. */
  notes?: string;
  examples: string[];
  /** The endpoints of src/service.ts the verb calls; 'any' for `api`, which calls any path. */
  endpoints: EndpointName[] | 'any';
  /** An argv that succeeds against the seeded sandbox (destructive verbs with --yes). */
  sample: string[];
  /** Other argvs that take another way through the verb (convo show --follow), for the same matrices. */
  moreSamples?: string[][];
  run(opts: OptsOf<A, F>, ctx: Ctx, here: Here): Promise<Result | Call | void>;
}

// The parameters are erased here: a noun lists verbs of every shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type VerbDecl = VerbSpec<any, any>;

export function defineVerb<A extends Params = {}, F extends Params = {}>(spec: VerbSpec<A, F>): VerbSpec<A, F> {
  return spec;
}

export interface NounDecl {
  name: string;
  /** One line in the root's help (src/program.ts keeps a copy, so that --help loads no noun; a test compares them). */
  summary?: string;
  examples?: string[];
  verbs: VerbDecl[];
  /** A noun that is a verb itself (caps, api, mcp): what it does when run without a verb. */
  self?: VerbDecl;
}

export function defineNoun(spec: NounDecl): NounDecl {
  return spec;
}

/** The noun's help text, its verbs (and its own action), each running through `app`. */
export function addNoun(command: Command, noun: NounDecl, app: App): void {
  if (noun.examples) command.addHelpText('after', examples(...noun.examples));
  if (noun.self) addVerb(command, noun.self, app);
  else keepDescribed(command, { runs: false, examples: noun.examples ?? [] });
  for (const verb of noun.verbs) addVerb(command.command(verb.name), verb, app);
}

function addVerb(command: Command, verb: VerbDecl, app: App): void {
  command.description(verb.summary);
  for (const alias of verb.aliases ?? []) command.alias(alias);
  const args = Object.entries((verb.args ?? {}) as Params);
  const flags = Object.entries((verb.flags ?? {}) as Params);
  for (const [, a] of args) {
    const argument = command.createArgument(a.syntax, a.help);
    if (a.choices) argument.choices(a.choices);
    command.addArgument(argument);
  }
  for (const [, f] of flags) {
    const option = command.createOption(f.syntax, f.help);
    if (f.choices) option.choices(f.choices);
    if (f.repeated) option.argParser((raw: string, all: string[]) => [...all, raw]);
    if (f.fallback !== undefined) option.default(f.fallback);
    command.addOption(option);
  }
  command.addHelpText('after', (verb.notes ?? '') + examples(...verb.examples));
  keepDescribed(command, { runs: true, examples: verb.examples, notes: verb.notes, endpoints: verb.endpoints });
  command.action((...given: unknown[]) => {
    const cmd = given[given.length - 1] as Command;
    // Our parsers run once the runner has checked the global options and the environment (their
    // errors come first, as they did when run() parsed), and in a test that only records them.
    const parse = (): Record<string, unknown> => {
      const opts: Record<string, unknown> = {};
      const missing: string[] = [];
      const values = flags.map(([key, f]) => {
        const option = cmd.options.find((o) => o.flags === f.syntax) as Option;
        const value = givenValue(cmd, option.attributeName());
        if (f.required && value === undefined) missing.push(option.long as string);
        return [key, f, value] as const;
      });
      if (missing.length > 0) {
        throw new UsageError(`Missing required option${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. Run \`${pathOf(cmd)} --help\` for usage.`);
      }
      args.forEach(([key, a], i) => (opts[key] = a.read(given[i])));
      for (const [key, f, value] of values) opts[key] = value === undefined && 'fallback' in f ? f.fallback : f.read(value);
      verb.check?.(opts);
      return opts;
    };
    const here: Here = {
      command: cmd,
      async wholeTree() {
        const root = rootOf(cmd);
        await app.loadAll(root);
        return root;
      },
    };
    return app.run(cmd, parse, async (o, ctx) => settle(ctx, await verb.run(o, ctx, here)));
  });
}

/** What argv gave for a flag, on this command or on its noun (`wsctl mcp --read-only config`); undefined when absent. */
function givenValue(command: Command, attribute: string): unknown {
  for (let c: Command | null = command; c?.parent; c = c.parent) {
    const value = c.getOptionValue(attribute);
    // A --no-x flag is true by default: absent, which is its fallback.
    if (value !== undefined && c.getOptionValueSource(attribute) !== 'default') return value;
  }
  return undefined;
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
  if (value.trim() === '') throw new UsageError(`${name} must not be empty.`);
  return value;
}

/** A 2xx body that reports failure: a JSON object with `success: false`. */
export function saysFailure(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { success?: unknown }).success === false;
}

/** "a/b/c" → ["a", "b", "c"], for target paths; empty, "." and ".." segments are refused. */
export function splitPath(value: string, flag: string): string[] {
  const parts = value.split('/').filter((p) => p !== '');
  if (parts.length === 0 || parts.some((p) => p === '.' || p === '..')) {
    throw new UsageError(`Invalid ${flag} '${value}': give folder names separated by '/', without '.' or '..'.`);
  }
  return parts;
}

export type { Ctx, Globals };
