// The one pipeline every door takes to a verb (STYLE 18): the raw options a door read (argv's
// texts, an MCP call's arguments) are read and checked against the verb's declaration (required
// ones, choices, each parser, then check()), the verb runs, its Call is settled, and one Result
// comes back for the door to show. A door adds how it reads its input and shows the result, and
// how it names a parameter in messages; never a rule.
import type { Command, Option } from 'commander';
import {
  examples,
  flag,
  needsOf,
  pathOf,
  rootOf,
  settle,
  type App,
  type Ctx,
  type Here,
  type NounDecl,
  type Param,
  type Result,
  type VerbDecl,
} from './declare.js';
import { enforcePolicy } from './agent-policy.js';
import { mayDelete, questionOf, sendsDelete } from './changes.js';
import { commandSummary, confirmDestructive } from './confirm.js';
import { UsageError } from '../errors.js';
import type { IdKind } from '../ids/kinds.js';
import { chooseMissing, missingId, missingIdInfo, remembering } from './remembered-ids.js';
import { keepDescribed } from '../common/visible.js';
import { didYouMean } from '../help/suggest.js';

/** What argv would give for each parameter, by key: a text, a list of texts (repeated), true/false (a flag), or undefined. */
export type RawOptions = Record<string, unknown>;

/** How a door names parameters in messages. */
export interface Door {
  /** '--save-as' on the command line, 'save_as' for an MCP tool. */
  name(param: Param<unknown>, kind: 'arg' | 'flag'): string;
  /** The message for required parameters that were not given (named by `name`). */
  missing(names: string[], kind: 'arg' | 'flag'): string;
  /** The message for a value that is not one of the choices. */
  notAChoice(name: string, value: string, choices: readonly string[]): string;
}

/** An argument's name as its syntax says ('<conversation_id>' → 'conversation_id'); a flag's long form ('-f, --follow' → '--follow'). */
export function cliName(param: Param<unknown>, kind: 'arg' | 'flag'): string {
  if (kind === 'arg') return param.syntax.replace(/[<>[\].]/g, '');
  const longs = param.syntax.match(/--[\w-]+/g);
  return longs?.[longs.length - 1] ?? param.syntax;
}

/** The command line's door: commander has checked required arguments and choices already, in its own words. */
export function commandLineDoor(usage: string): Door {
  return {
    name: cliName,
    missing: (names, kind) =>
      kind === 'arg'
        ? `Missing required argument${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')}. Run \`${usage} --help\` for usage.`
        : `Missing required option${names.length > 1 ? 's' : ''} ${names.join(', ')}. Run \`${usage} --help\` for usage.`,
    notAChoice: (name, value, choices) =>
      `Option '${name}' argument '${value}' is invalid. Allowed choices are ${choices.join(', ')}.${didYouMean(value, choices)} Run \`${usage} --help\` for usage.`,
  };
}

export interface Declared {
  args: [string, Param<unknown>][];
  flags: [string, Param<unknown>][];
}

/** What answers a deletion's [y/N] off a terminal: every command that may send DELETE takes it, declared or not. */
const YES = flag('-y, --yes', 'do not ask for confirmation');

/** A verb's flags by key, in the order declared, with --yes for a verb that may delete (`api` among them, for -X DELETE). */
export function flagsOf(verb: VerbDecl): [string, Param<unknown>][] {
  const flags = Object.entries((verb.flags ?? {}) as Record<string, Param<unknown>>);
  return mayDelete(verb) && !flags.some(([key]) => key === 'yes') ? [...flags, ['yes', YES]] : flags;
}

/** A verb's parameters by key, arguments then flags, in the order declared. */
export function paramsOf(verb: VerbDecl, extra: Record<string, Param<unknown>> = {}): Declared {
  return {
    args: Object.entries(verb.args ?? {}),
    flags: [...flagsOf(verb), ...Object.entries(extra)] as [string, Param<unknown>][],
  };
}

/**
 * The raw options → the typed options run() receives, or a UsageError (exit 2) in the door's words:
 * every missing required parameter named at once, then choices, then each parser in the order
 * declared, then the verb's check().
 */
export function readOptions(
  verb: VerbDecl,
  raw: RawOptions,
  door: Door,
  extra?: Record<string, Param<unknown>>,
  later: readonly string[] = [],
): Record<string, unknown> {
  const { args, flags } = paramsOf(verb, extra);
  const absent = (key: string) => raw[key] === undefined;
  const missing = args.filter(([key, a]) => absent(key) && a.syntax.startsWith('<') && !later.includes(key));
  // A missing id says where such ids come from, on every door (the command line's list says the same: ids/verb.ts).
  const kind = missing.length === 1 ? (verb.ids?.takes as Record<string, IdKind | undefined> | undefined)?.[missing[0]![0]] : undefined;
  if (kind) throw new UsageError(missingId(door.name(missing[0]![1], 'arg'), kind), missingIdInfo(kind));
  if (missing.length > 0)
    throw new UsageError(
      door.missing(
        missing.map(([, a]) => door.name(a, 'arg')),
        'arg',
      ),
      { reason: 'missing_argument' },
    );
  const missingFlags = flags.filter(([key, f]) => absent(key) && f.required).map(([, f]) => door.name(f, 'flag'));
  if (missingFlags.length > 0) throw new UsageError(door.missing(missingFlags, 'flag'), { reason: 'missing_argument' });
  const names: Record<string, string> = {};
  for (const [key, p, kind] of [...args.map(([k, a]) => [k, a, 'arg'] as const), ...flags.map(([k, f]) => [k, f, 'flag'] as const)]) {
    names[key] = door.name(p, kind);
    const value = raw[key];
    if (p.choices && typeof value === 'string' && !p.choices.includes(value))
      throw new UsageError(door.notAChoice(names[key], value, p.choices));
  }
  const opts: Record<string, unknown> = {};
  // An id left out on a terminal is chosen from a list once the context exists (chooseMissing); an optional argument left out is undefined.
  for (const [key, a] of args)
    opts[key] = absent(key) && (later.includes(key) || a.syntax.startsWith('[')) ? undefined : a.read(raw[key], names[key] as string);
  for (const [key, f] of flags) opts[key] = raw[key] === undefined && 'fallback' in f ? f.fallback : f.read(raw[key], names[key] as string);
  verb.check?.(opts, (key) => names[key as string] ?? String(key));
  return opts;
}

/**
 * Runs a verb with options already read: under an AI agent the profile's agent policy (cli.md §11)
 * first, before it runs or asks anyone anything; then a deletion's [y/N] (or its --yes; a door
 * that asked the person its own way passes yes); then run, its Call settled (planned under
 * --dry-run, else sent), and the ids it took and showed remembered (cli.md §10). `path` is the
 * command's words, which the question says.
 */
export async function perform(verb: VerbDecl, opts: Record<string, unknown>, ctx: Ctx, here: Here, path: string[]): Promise<Result | void> {
  enforcePolicy(ctx, verb, opts);
  // The command line asks of a call that sends DELETE alone: --force and the rest were typed by a person.
  const asked = sendsDelete(verb, opts) ? questionOf(path, verb, opts) : undefined;
  if (asked) await confirmDestructive(ctx, { action: asked.action, target: asked.facts.map(([, v]) => v).join('/') }, opts.yes === true);
  return remembering(ctx, verb.ids, opts, async () => settle(ctx, await verb.run(opts, ctx, here)));
}

/** Nowhere in the command tree: for doors that run a verb alone (an MCP tool). */
export const nowhere: Here = {
  get command(): never {
    throw new Error('This verb runs outside the command tree.');
  },
  wholeTree: () => Promise.reject(new Error('This verb runs outside the command tree.')),
  verbs: () => Promise.reject(new Error('This verb runs outside the command tree.')),
};

export interface InvokeOptions {
  /** The command's words: ['device', 'rm']. */
  path: string[];
  here?: Here;
  /** Parameters the door takes besides the declared ones (an MCP tool's api_key). */
  extra?: Record<string, Param<unknown>>;
  /** Between checking and running: what the door itself must do first (an MCP tool's confirmation); may replace options. */
  before?(opts: Record<string, unknown>): Promise<Record<string, unknown> | void>;
}

/** The whole pipeline: read and check the raw options, run, settle, one Result. */
export async function invoke(verb: VerbDecl, raw: RawOptions, ctx: Ctx, door: Door, options: InvokeOptions): Promise<Result | void> {
  let opts = readOptions(verb, raw, door, options.extra);
  if (options.before) opts = (await options.before(opts)) ?? opts;
  return perform(verb, opts, ctx, options.here ?? nowhere, options.path);
}

// The command line's door: commander's commands made from the declarations, each action reading argv into raw options.

/** The noun's help text, its verbs (and its own action), each running through `app`. */
export function addNoun(command: Command, noun: NounDecl, app: App): void {
  if (noun.examples) command.addHelpText('after', examples(...noun.examples));
  if (noun.self) addVerb(command, noun.self, app);
  else keepDescribed(command, { runs: false, examples: noun.examples ?? [] });
  for (const verb of noun.verbs) addVerb(command.command(verb.name), verb, app);
}

function addVerb(command: Command, verb: VerbDecl, app: App): void {
  command.description(commandSummary(verb));
  for (const alias of verb.aliases ?? []) command.alias(alias);
  const args = Object.entries((verb.args ?? {}) as Record<string, Param<unknown>>);
  const flags = flagsOf(verb);
  const takes = (verb.ids?.takes ?? {}) as Record<string, string | undefined>;
  // Trailing id arguments may be left out: they are chosen from a list, or the error says where they come from.
  const firstChosen = args.findIndex((_, i) => args.slice(i).every(([key]) => takes[key] !== undefined));
  const chosen = firstChosen < 0 ? [] : args.slice(firstChosen).map(([key, a]) => ({ key, syntax: a.syntax }));
  for (const [key, a] of args) {
    const argument = command.createArgument(a.syntax, a.help);
    if (a.choices) argument.choices(a.choices);
    if (chosen.some((c) => c.key === key)) argument.argOptional();
    command.addArgument(argument);
  }
  // Help keeps the arguments as the contract spells them.
  if (chosen.length > 0) command.usage(['[options]', ...args.map(([, a]) => a.syntax)].join(' '));
  for (const [, f] of flags) {
    const option = command.createOption(f.syntax, f.help);
    if (f.choices) option.choices(f.choices);
    if (f.repeated) option.argParser((raw: string, all: string[]) => [...all, raw]);
    if (f.fallback !== undefined) option.default(f.fallback);
    command.addOption(option);
  }
  command.addHelpText('after', (verb.notes ?? '') + examples(...verb.examples));
  keepDescribed(command, {
    runs: true,
    examples: verb.examples,
    notes: verb.notes,
    endpoints: verb.endpoints,
    ids: {
      args: args.map(([key]) => takes[key]),
      flags: Object.fromEntries(flags.filter(([key]) => takes[key]).map(([key, f]) => [longFlag(f.syntax), takes[key]])),
    },
    required: {
      args: args.filter(([, a]) => a.syntax.startsWith('<')).map(([, a]) => a.syntax),
      flags: flags.filter(([, f]) => f.required).map(([, f]) => [longFlag(f.syntax), /<[^>]+>/.exec(f.syntax)?.[0] ?? '<value>']),
    },
  });
  command.action((...given: unknown[]) => {
    const cmd = given[given.length - 1] as Command;
    // What argv gave, by key; read and checked by the pipeline (src/verbs/invoke.ts) once the runner has
    // checked the global options and the environment (their errors come first), or in a test that
    // only records the options.
    const raw: Record<string, unknown> = {};
    for (const [i, [key]] of args.entries()) raw[key] = given[i];
    for (const [key, f] of flags) raw[key] = givenValue(cmd, (cmd.options.find((o) => o.flags === f.syntax) as Option).attributeName());
    const here: Here = {
      command: cmd,
      async wholeTree() {
        const root = rootOf(cmd);
        await app.loadAll(root);
        return root;
      },
      verbs: () => (app.declared ? app.declared() : Promise.reject(new Error('This runner knows no declarations.'))),
    };
    return app.run(
      cmd,
      () => {
        refuseNounOptions(cmd);
        return readOptions(
          verb,
          raw,
          commandLineDoor(pathOf(cmd)),
          undefined,
          chosen.map((c) => c.key),
        );
      },
      async (o, ctx) =>
        perform(verb, await chooseMissing(ctx, verb.ids, o as Record<string, unknown>, chosen), ctx, here, pathOf(cmd).split(' ').slice(1)),
      needsOf(verb),
    );
  });
}

/**
 * A noun's own option given to a verb that does not take it (`wsctl mcp uninstall --read-only`):
 * commander parses it for the noun, where it would change nothing.
 */
function refuseNounOptions(command: Command): void {
  const own = new Set(command.options.map((o) => o.attributeName()));
  for (let noun = command.parent; noun?.parent; noun = noun.parent) {
    for (const option of noun.options) {
      if (own.has(option.attributeName()) || noun.getOptionValueSource(option.attributeName()) !== 'cli') continue;
      throw new UsageError(
        `${option.long} is an option of \`${pathOf(noun)}\`, which \`${pathOf(command)}\` does not take. Run \`${pathOf(command)} --help\` for usage.`,
      );
    }
  }
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

/** "--account" of "--account <account_id>". */
function longFlag(syntax: string): string {
  return /--[\w-]+/.exec(syntax)?.[0] ?? syntax;
}
