// `wsctl help --json` (cli.md §12): wsctl described for programs and agents, so that none has to
// scrape --help. Made from the declarations the parser, the help text, the completions and the MCP
// tools are made of, and from the one classification of what a command changes (src/verbs/changes.ts):
// test/help-json.test.ts compares it with each of them.
import type { Command } from 'commander';
import { AGENT_POLICIES, type AgentPolicy } from '../common/agent.js';
import { wordsOf } from '../common/argv.js';
import { GLOBAL_OPTIONS } from '../common/globals.js';
import { visibleSubcommands } from '../common/visible.js';
import { REASONS, UsageError, type Reason } from '../errors.js';
import { suggestCommand } from '../help/index.js';
import { closest } from '../help/suggest.js';
import { findTopic, SETTINGS, TOPICS } from '../help/topics.js';
import type { Env, IO } from '../terminal/index.js';
import type { Prompt } from '../terminal/prompt.js';
import { createTerminal } from '../terminal/index.js';
import { refusedBy } from '../verbs/agent-policy.js';
import { asksOf, callChanges, commandChanges, type Changes } from '../verbs/changes.js';
import { commandSummary } from '../verbs/confirm.js';
import { pathOf, type Param, type VerbDecl } from '../verbs/declare.js';
import { cliName, paramsOf } from '../verbs/invoke.js';
import type { DeclaredVerb } from '../mcp/tools.js';

export interface CommandEntry {
  /** The command's words after `wsctl`: "keys create". */
  name: string;
  summary: string;
  changes: Changes;
}

export interface ArgumentEntry {
  name: string;
  required: boolean;
  description: string;
  /** The kind of remembered id it takes (cli.md §10). */
  ids?: string;
  choices?: string[];
  /** Takes every word that is left. */
  variadic?: true;
}

export interface OptionEntry {
  /** The long flag: "--save-as". */
  flag: string;
  short?: string;
  type: 'boolean' | 'string' | 'number' | 'choice';
  choices?: string[];
  default?: unknown;
  /** The environment variable that gives the same value. */
  env?: string;
  required: boolean;
  description: string;
  /** Given again and again, each value kept in order. */
  repeated?: true;
  /** A global option (cli.md §1): accepted by every command, before or after its words. */
  global?: true;
  /** An option of the noun that runs by itself (`wsctl mcp --read-only`), which commander accepts on its verbs too. */
  noun?: string;
  ids?: string;
}

export interface CommandDocument extends CommandEntry {
  aliases?: string[];
  usage: string;
  arguments: ArgumentEntry[];
  options: OptionEntry[];
  confirms: { asks: boolean; yes?: string };
  refused_by: AgentPolicy[];
  mcp_tool?: string;
  exit_codes: { code: number; reasons: Reason[] }[];
  output_schema?: Record<string, unknown>;
}

/** The one tool of each command that has one, and its --json document's schema (src/mcp/tools.ts). */
interface ToolOf {
  name: string;
  schema: Record<string, unknown>;
}

/** A verb with its place in the loaded tree and its tool: what a description is read from. */
interface Described {
  declared: DeclaredVerb;
  command: Command;
  tool?: ToolOf;
  /** The verb of its noun, when the noun runs by itself (`wsctl mcp`): its flags reach the noun's verbs. */
  noun?: DeclaredVerb;
}

const LEVELS: Changes[] = ['none', 'write', 'destructive'];

/**
 * The most that some call of a verb changes: its command's (`api` may delete), or what a call with
 * every flag given changes (`--force` replaces what exists), by the classification every rule reads.
 */
function mostChanges(verb: VerbDecl): Changes {
  const allGiven = Object.fromEntries(paramsOf(verb).flags.map(([key, f]) => [key, takesValue(f) ? f.fallback : true]));
  const [one, other] = [commandChanges(verb), callChanges(verb, allGiven)];
  return LEVELS.indexOf(one) >= LEVELS.indexOf(other) ? one : other;
}

/**
 * The agent policies that refuse some call of a verb (cli.md §11), by the rule the command line and
 * `wsctl mcp` apply (refusedBy). A local command that guards a credential or the policy itself
 * (VerbSpec.guards) is refused as a deletion is, though it changes nothing in the workspace.
 */
export function refusingPolicies(verb: VerbDecl): AgentPolicy[] {
  const risk = verb.guards ? 'destructive' : mostChanges(verb);
  return AGENT_POLICIES.filter((policy) => refusedBy(policy, risk));
}

const callsService = (verb: VerbDecl) => verb.endpoints === 'any' || verb.endpoints.length > 0;

/**
 * The exit codes a command can end with, each with its reasons (cli.md §4), read from what the
 * command declares rather than listed command by command:
 * - every command: 0; 1 when its output cannot be written (`output_lost`) or a file it reads cannot
 *   be used, config.json first (`local_error`); 2 for a wrong
 *   flag or value, or a `--jq` filter (every command takes the global options); 130 on Ctrl-C;
 * - a required argument or option: 2 `missing_argument`;
 * - a command that calls the service: its failures (1), a 422 and a plain http:// URL (2), the
 *   network (3), the login (4: no key or URL, a rejected key, a key of another origin, the credential
 *   store) and 404 (5);
 * - a command a person confirms (asksOf): 2 without `--yes` and nobody to ask, and a no;
 * - a command an agent policy refuses: 4 `policy_refused`; one that guards a credential reads the
 *   credential store and may find no key (4).
 */
export function exitCodesOf(verb: VerbDecl): { code: number; reasons: Reason[] }[] {
  const reasons = new Set<Reason>(['output_lost', 'local_error', 'usage', 'invalid_input', 'jq_error', 'interrupted']);
  const add = (...words: Reason[]) => {
    for (const word of words) reasons.add(word);
  };
  const { args, flags } = paramsOf(verb);
  if (args.some(([, a]) => a.syntax.startsWith('<')) || flags.some(([, f]) => f.required)) add('missing_argument');
  if (callsService(verb))
    add(
      'service_error',
      'service_failure',
      'rejected_input',
      'insecure_url',
      'network',
      'timeout',
      'bad_response',
      'not_logged_in',
      'auth_rejected',
      'wrong_origin',
      'credential_store',
      'not_found',
    );
  if (asksOf(verb) !== 'never') add('confirmation_required', 'declined');
  if (refusingPolicies(verb).length > 0) add('policy_refused');
  if (verb.guards === 'credential') add('not_logged_in', 'credential_store');
  const words = (Object.keys(REASONS) as Reason[]).filter((r) => reasons.has(r));
  const codes = [0, ...new Set(words.map((r) => REASONS[r] as number))].sort((a, b) => a - b);
  return codes.map((code) => ({ code, reasons: words.filter((r) => REASONS[r] === code) }));
}

const takesValue = (param: Param<unknown>) => /[<[]/.test(param.syntax);

/** "-X" of "-X, --method <method>". */
const shortOf = (syntax: string) => /(?:^|[\s,])(-[A-Za-z])\b/.exec(syntax)?.[1];

function optionEntry(param: Param<unknown>, more: { ids?: string; global?: boolean; env?: string; noun?: string } = {}): OptionEntry {
  const valued = takesValue(param);
  const type = !valued ? 'boolean' : param.choices ? 'choice' : param.number ? 'number' : 'string';
  const fallback = param.fallback ?? param.implied;
  const shown = valued && fallback !== undefined && !(Array.isArray(fallback) && fallback.length === 0);
  const short = shortOf(param.syntax);
  return {
    flag: cliName(param, 'flag'),
    ...(short ? { short } : {}),
    type,
    ...(param.choices ? { choices: [...param.choices] } : {}),
    ...(shown ? { default: fallback } : {}),
    ...(more.env ? { env: more.env } : {}),
    required: !!param.required,
    description: param.help,
    ...(param.repeated ? { repeated: true as const } : {}),
    ...(more.global ? { global: true as const } : {}),
    ...(more.noun ? { noun: more.noun } : {}),
    ...(more.ids ? { ids: more.ids } : {}),
  };
}

/** The variable that gives a global option's value, as the environment topic declares it (WSCTL_DEBUG=1 → WSCTL_DEBUG). */
function envOf(flag: string): string | undefined {
  const setting = SETTINGS.find((s) => s.flag?.split(' ')[0] === flag);
  return setting?.env?.[0]?.replace(/=.*$/, '');
}

/** The global options (src/common/globals.ts), then commander's own on the root (-V, --version; -h, --help), which every command takes. */
function globalEntries(program: Command): OptionEntry[] {
  const globals = Object.values(GLOBAL_OPTIONS).map((spec) => {
    const { number, fallback } = spec as { number?: boolean; fallback?: string };
    const param: Param<unknown> = {
      syntax: spec.flags,
      help: spec.help,
      read: () => undefined,
      ...(number ? { number } : {}),
      ...(fallback !== undefined ? { fallback: number ? Number(fallback) : fallback } : {}),
    };
    return optionEntry(param, { global: true, env: envOf(cliName(param, 'flag')) });
  });
  const declared = new Set(globals.map((g) => g.flag));
  const commanders = program
    .createHelp()
    .visibleOptions(program)
    .filter((o) => o.long && !declared.has(o.long))
    .map((o) => optionEntry({ syntax: o.flags, help: o.description, read: () => undefined }, { global: true }));
  return [...globals, ...commanders];
}

function argumentEntry(param: Param<unknown>, ids: string | undefined): ArgumentEntry {
  return {
    name: cliName(param, 'arg'),
    required: param.syntax.startsWith('<'),
    description: param.help,
    ...(ids ? { ids } : {}),
    ...(param.choices ? { choices: [...param.choices] } : {}),
    ...(param.syntax.includes('...') ? { variadic: true as const } : {}),
  };
}

function entryOf({ path, verb }: DeclaredVerb): CommandEntry {
  return { name: path.join(' '), summary: commandSummary(verb), changes: commandChanges(verb) };
}

/** One command described (cli.md §12): what the parser takes, what it changes and asks, how it ends, what it prints. */
export function commandDocument(described: Described, program: Command): CommandDocument {
  const { declared, command, tool, noun } = described;
  const { verb } = declared;
  const takes = (verb.ids?.takes ?? {}) as Record<string, string | undefined>;
  const { args, flags } = paramsOf(verb);
  const yes = flags.find(([key]) => key === 'yes');
  // Commander reads a noun's options after its verb too (`wsctl mcp uninstall --read-only`): they are listed as the noun's.
  const own = new Set(flags.map(([, f]) => cliName(f, 'flag')));
  const nounFlags = noun ? paramsOf(noun.verb).flags.filter(([, f]) => !own.has(cliName(f, 'flag'))) : [];
  return {
    ...entryOf(declared),
    ...(verb.aliases?.length ? { aliases: [...verb.aliases] } : {}),
    usage: `${pathOf(command)} ${command.usage()}`,
    arguments: args.map(([key, a]) => argumentEntry(a, takes[key])),
    options: [
      ...flags.map(([key, f]) => optionEntry(f, { ids: takes[key] })),
      ...nounFlags.map(([, f]) => optionEntry(f, { noun: noun!.path.join(' ') })),
      ...globalEntries(program),
    ],
    confirms: { asks: asksOf(verb) !== 'never', ...(yes ? { yes: cliName(yes[1], 'flag') } : {}) },
    refused_by: refusingPolicies(verb),
    ...(tool ? { mcp_tool: tool.name } : {}),
    exit_codes: exitCodesOf(verb),
    ...(tool ? { output_schema: tool.schema } : {}),
  };
}

/** The whole tree (cli.md §12): every command with what it changes, the help topics and the error reasons. */
export function treeDocument(version: string, verbs: DeclaredVerb[]) {
  return {
    wsctl: version,
    commands: verbs.filter((v) => !v.hidden).map(entryOf),
    topics: TOPICS.map((t) => t.name),
    reasons: Object.keys(REASONS) as Reason[],
  };
}

/** The command a path of words names in the loaded tree. */
function commandAt(program: Command, path: string[]): Command | undefined {
  let command: Command | undefined = program;
  for (const word of path) command = command?.commands.find((c) => c.name() === word);
  return command;
}

/** The words of argv that may name a command or topic (before `--`; not a first `help`), with where each is. */
function commandWords(argv: string[]): { word: string; at: number }[] {
  const words = wordsOf(argv, 'end');
  return words[0]?.word === 'help' ? words.slice(1) : words;
}

/** What argv asks for, or a UsageError (exit 2, `usage`) naming the closest command or topic, with the corrected line as `next`. */
function resolve(program: Command, argv: string[]) {
  const words = commandWords(argv);
  const topic = words.length === 1 ? findTopic(words[0]!.word) : undefined;
  if (topic && !program.commands.some((c) => c.name() === topic.name)) return { topic };
  let command = program;
  const path: string[] = [];
  for (const { word, at } of words) {
    // A command without subcommands: the words after it are its arguments.
    if (command !== program && visibleSubcommands(command).length === 0) break;
    const sub = visibleSubcommands(command).find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) {
      command = sub;
      path.push(sub.name());
      continue;
    }
    // At the root a word may be a help topic too (`wsctl help --json exit-codes`).
    const atRoot = command === program;
    const topic = atRoot
      ? closest(
          word,
          TOPICS.map((t) => ({ word: t.name, suggest: t.name })),
        )
      : undefined;
    const guess = suggestCommand(command, word) ?? topic;
    const what = atRoot ? 'command or help topic' : 'command';
    const single = guess && !guess.includes("'") ? guess : undefined;
    throw new UsageError(
      `unknown ${what} '${word}'${atRoot ? '' : ` for '${pathOf(command)}'`}.${guess ? ` Did you mean '${guess}'?` : ''} Run \`wsctl help --json\` for the commands and topics.`,
      {
        reason: 'usage',
        next: single
          ? [
              {
                typed: argv.map((w, i) => (i === at ? single : w)),
                why: `'${word}' is not a ${what}; '${single}' is${single === topic ? ' a help topic' : ''}.`,
              },
            ]
          : [],
      },
    );
  }
  return { path };
}

export interface HelpJsonRun {
  program: Command;
  verbs: DeclaredVerb[];
  version: string;
  /** The line as typed (an alias expanded): `help --json keys create` or `keys create --help --json`. */
  argv: string[];
  io: IO;
  env: Env;
  prompt: Prompt;
  signal: AbortSignal;
}

/** The document argv asks for: the tree, one command, a noun's commands, or a help topic. */
export async function helpDocument(run: Pick<HelpJsonRun, 'program' | 'verbs' | 'version' | 'argv'>): Promise<unknown> {
  const { program, verbs, version, argv } = run;
  const asked = resolve(program, argv);
  if ('topic' in asked) {
    const { name, summary, intro, rows, outro } = asked.topic!;
    return { topic: name, summary, intro, rows, ...(outro ? { outro } : {}) };
  }
  const { path } = asked;
  if (path.length === 0) return treeDocument(version, verbs);
  const declared = verbs.find((v) => v.path.join(' ') === path.join(' '));
  if (!declared) {
    // A noun that only holds verbs: its commands, as the tree lists them.
    const noun = commandAt(program, path) as Command;
    const under = verbs.filter((v) => !v.hidden && v.path[0] === path[0]);
    return { name: path.join(' '), summary: noun.description(), commands: under.map(entryOf) };
  }
  const { toolsOf, documentSchema, SCHEMA_DIALECT } = await import('../mcp/tools.js');
  const tool = toolsOf(verbs).find((t) => t.path.join(' ') === path.join(' '));
  const noun = path.length > 1 ? verbs.find((v) => v.path.join(' ') === path[0]) : undefined;
  return commandDocument(
    {
      declared,
      noun,
      command: commandAt(program, path) as Command,
      tool: tool && { name: tool.name, schema: { $schema: SCHEMA_DIALECT, ...documentSchema(tool.verb) } },
    },
    program,
  );
}

/** `wsctl help --json …`: the document on stdout, filtered by --jq when given, as every --json document is. */
export async function printHelpDocument(run: HelpJsonRun): Promise<void> {
  const document = await helpDocument(run);
  const at = run.argv.findIndex((w) => w === '--jq' || w.startsWith('--jq='));
  const expression = at < 0 ? undefined : run.argv[at]!.startsWith('--jq=') ? run.argv[at]!.slice(5) : run.argv[at + 1];
  const jq = expression === undefined ? undefined : await (await import('../terminal/jq.js')).compileJq(expression, run.signal);
  try {
    const term = await createTerminal(run.io, run.env, { json: true, noColor: true, noInput: true, prompt: run.prompt, jq });
    await term.printJson(document);
  } finally {
    jq?.close();
  }
}
