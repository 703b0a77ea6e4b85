// The command tree: the root with its global options and every noun by name. A noun's commands
// load when argv names it (all of them when `help --json`, completion, the MCP tools or the
// generated docs need the whole tree), so --version and --help pay for commander and this file only.
import { Command, Help, Option } from 'commander';
import type { App, NounDecl, VerbDecl } from '../verbs/declare.js';
import { DECLARED } from '../common/declared.js';
import { invokedNounAt } from '../common/argv.js';
import { GLOBAL_OPTIONS } from '../common/globals.js';
import { wrapWords } from '../terminal/words.js';

// The nouns by name, for the root's help; each noun is declared in its own module
// (src/commands/<noun>/index.ts, or src/commands/<noun>.ts), loaded only when argv names it: a
// command runs none of the other nouns' modules, whose declarations build their schemas as they
// load. A noun's one-line description is its declaration's summary, which the build reads
// (src/common/declared.ts), so that --help loads no noun.
interface Noun {
  name: string;
  hidden?: boolean;
  declaration(): Promise<NounDecl>;
}

const nouns: Noun[] = [
  { name: 'auth', declaration: async () => (await import('../commands/auth/index.js')).auth },
  { name: 'profile', declaration: async () => (await import('../commands/profile/index.js')).profile },
  { name: 'keys', declaration: async () => (await import('../commands/keys/index.js')).keys },
  { name: 'settings', declaration: async () => (await import('../commands/settings.js')).settings },
  { name: 'caps', declaration: async () => (await import('../commands/caps.js')).caps },
  { name: 'convo', declaration: async () => (await import('../commands/convo/index.js')).convo },
  { name: 'notes', declaration: async () => (await import('../commands/notes/index.js')).notes },
  { name: 'conn', declaration: async () => (await import('../commands/conn/index.js')).conn },
  { name: 'byok', declaration: async () => (await import('../commands/byok/index.js')).byok },
  { name: 'device', declaration: async () => (await import('../commands/device/index.js')).device },
  { name: 'persona', declaration: async () => (await import('../commands/persona/index.js')).persona },
  { name: 'pub', declaration: async () => (await import('../commands/pub/index.js')).pub },
  { name: 'site', declaration: async () => (await import('../commands/site/index.js')).site },
  { name: 'mcp', declaration: async () => (await import('../commands/mcp/index.js')).mcp },
  { name: 'skill', declaration: async () => (await import('../commands/skill/index.js')).skill },
  { name: 'ids', declaration: async () => (await import('../commands/ids/index.js')).ids },
  { name: 'api', declaration: async () => (await import('../commands/api.js')).api },
  { name: 'alias', declaration: async () => (await import('../commands/alias/index.js')).alias },
  { name: 'completion', declaration: async () => (await import('../commands/completion.js')).completion },
  { name: 'sandbox', declaration: async () => (await import('../commands/sandbox/index.js')).sandbox },
  { name: '__complete', hidden: true, declaration: async () => (await import('../commands/complete.js')).complete },
];

export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
  /** Commander's own usage errors, formatted by main.ts. */
  onUsageError(message: string): void;
  /** Width to wrap help at: $COLUMNS when set, else 80. */
  helpWidth?: number;
}

export function globalOptions(): Option[] {
  return Object.values(GLOBAL_OPTIONS).map((spec) => new Option(spec.flags, spec.help));
}

export function buildProgram(version: string, output: ProgramOutput): Command {
  const program = new Command('wsctl');
  program
    .description('Administer your AI-assistant workspace from the command line.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: output.writeOut,
      writeErr: output.writeErr,
      outputError: (message) => output.onUsageError(message),
      // Commander would ask process.stdout, whose creation alone costs --help a few ms.
      getOutHelpWidth: () => output.helpWidth ?? 80,
      getErrHelpWidth: () => output.helpWidth ?? 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .addHelpText('after', () => rootFootnote(output.helpWidth ?? 80));
  for (const option of globalOptions()) program.addOption(option);
  program.helpCommand(false);
  program.configureHelp({
    showGlobalOptions: true,
    // A verb's arguments are in its own help; listing them here would leave no room to wrap at 60 columns.
    subcommandTerm: (cmd) => [cmd.name(), ...cmd.aliases()].join('|'),
    minWidthToWrap: 24,
    formatHelp: globalOptionsLast,
    // `wsctl help <command>` is the help command: a noun's `help` row (commander's, lowercase) is not listed, though it works.
    visibleCommands(this: Help, cmd: Command) {
      return Help.prototype.visibleCommands.call(this, cmd).filter((c) => cmd.commands.includes(c));
    },
    // A noun's flags that its verb declares too (`wsctl mcp --read-only`, `wsctl mcp config --read-only`) are listed once, as the verb's.
    visibleGlobalOptions(this: Help, cmd: Command) {
      const own = new Set(cmd.options.map((o) => o.long ?? o.short));
      return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => !own.has(o.long ?? o.short));
    },
  });

  for (const noun of nouns) program.command(noun.name, { hidden: noun.hidden }).description(DECLARED.nouns[noun.name] ?? '');
  return program;
}

/** The root help's examples and notes, the notes wrapped at the help's width. */
function rootFootnote(width: number): string {
  const notes = [
    "The examples in each command's help use the sandbox's ids (conv_demo, dev_phone, …): add --sandbox to try them.",
    'Help topics: wsctl help environment, exit-codes, formatting or config. Manual: man wsctl, man wsctl-keys-create, …',
  ];
  const examples = [
    'wsctl --sandbox keys list',
    'wsctl auth login --base-url https://api.example.com',
    'wsctl --sandbox convo show conv_live --follow',
  ];
  return `\nExamples:\n${examples.map((e) => `  $ ${e}\n`).join('')}\n${notes.map((n) => wrapWords(n, width)).join('\n\n')}\n`;
}

/**
 * Commander puts the global options before a command's subcommands: a noun's help would show
 * all of them before its verbs. They come last, in a section of their own, after the verbs.
 */
function globalOptionsLast(cmd: Command, helper: Help): string {
  const text = Help.prototype.formatHelp.call(helper, cmd, helper);
  const start = text.indexOf('\nGlobal Options:\n');
  const end = start < 0 ? -1 : text.indexOf('\n\n', start + 1);
  if (end < 0 || end + 2 >= text.length) return text;
  return `${text.slice(0, start + 1)}${text.slice(end + 2)}\n${text.slice(start + 1, end + 1)}`;
}

/** Whether a word names a command (a noun, or `help`): such a word is never an alias. */
export function isCommandName(word: string): boolean {
  return word === 'help' || nouns.some((n) => n.name === word);
}

/** The noun argv invokes: its first word that is neither an option nor an option's value. */
export function invokedNoun(argv: string[]): string | undefined {
  const at = invokedNounAt(argv);
  return at < 0 ? undefined : argv[at];
}

/** Where that word is in argv, or -1 (the one reader of argv before commander's). */
export { invokedNounAt };

export interface DeclaredVerb {
  /** ['device', 'rm']; ['caps'] for a noun that is a verb itself. */
  path: string[];
  verb: VerbDecl;
  hidden: boolean;
}

/** Every noun: the root's entry (name, description) beside its declaration (loads every noun). */
export async function declaredNouns(): Promise<{ name: string; description: string; hidden: boolean; declared: NounDecl }[]> {
  return Promise.all(
    nouns.map(async (noun) => ({
      name: noun.name,
      description: DECLARED.nouns[noun.name] ?? '',
      hidden: !!noun.hidden,
      declared: await noun.declaration(),
    })),
  );
}

/** Every verb's declaration, noun by noun, for the test matrices. */
export async function declaredVerbs(): Promise<DeclaredVerb[]> {
  return (await declaredNouns()).flatMap((noun) => {
    const { declared, hidden } = noun;
    const own = declared.self ? [{ path: [noun.name], verb: declared.self, hidden }] : [];
    return [...own, ...declared.verbs.map((verb) => ({ path: [noun.name, verb.name], verb, hidden }))];
  });
}

const registered = new WeakSet<Command>();

/** Adds the verbs, arguments and actions of the named nouns (or all) to their commands. */
export async function loadCommands(program: Command, app: App, which: string | undefined | 'all'): Promise<void> {
  const wanted = nouns.filter((n) => which === 'all' || n.name === which);
  if (wanted.length === 0) return;
  const [{ addNoun }, declared] = await Promise.all([
    import('../verbs/invoke.js'),
    Promise.all(wanted.map(async (noun) => ({ name: noun.name, declaration: await noun.declaration() }))),
  ]);
  for (const { name, declaration } of declared) {
    const command = program.commands.find((c) => c.name() === name) as Command;
    if (registered.has(command)) continue;
    registered.add(command);
    addNoun(command, declaration, app);
  }
}
