// The command tree as completion scripts need it: every command path with its subcommands,
// options and the values its arguments take. Generated from commander, so a new command or
// flag shows up in completion without anyone editing a script.
import type { Command, Option } from 'commander';
import { TOPICS } from '../help/topics.js';
import { ID_KINDS } from '../ids/kinds.js';
import { describedOf, visibleSubcommands } from '../common/visible.js';

/** `ids`: the ids wsctl remembers of a kind (cli.md §10), asked of `wsctl __complete ids` at TAB time. */
export type Values =
  | { kind: 'choices'; values: string[] }
  | { kind: 'files' }
  | { kind: 'profiles' }
  | { kind: 'ids'; of: string }
  | { kind: 'any' };

export interface OptionSpec {
  flags: string[];
  description: string;
  /** undefined for a flag without a value */
  value?: Values;
}

export interface Node {
  /** "wsctl", "wsctl keys", "wsctl keys create" */
  path: string;
  description: string;
  subcommands: { name: string; aliases: string[]; description: string }[];
  /** The command's own options; the global ones are in Tree.globals. */
  options: OptionSpec[];
  /** What the command's first argument takes, when it takes one. */
  argument?: Values;
  /** The kind of id each argument takes, by position (cli.md §10); undefined where none. */
  idArgs: (string | undefined)[];
}

// Values that are not enums: files and profile names, the latter read from the config at completion time.
const ARGUMENT_VALUES: Record<string, Values> = {
  'persona upload-avatar': { kind: 'files' },
  'profile use': { kind: 'profiles' },
  'profile rm': { kind: 'profiles' },
  'profile pin': { kind: 'profiles' },
  'auth switch': { kind: 'profiles' },
  // The kinds are parsed, not commander's choices: a wrong one names them in wsctl's own words.
  ids: { kind: 'choices', values: [...ID_KINDS] },
  'ids forget': { kind: 'choices', values: [...ID_KINDS] },
};
const OPTION_VALUES: Record<string, Values> = {
  '--profile': { kind: 'profiles' },
  '--input': { kind: 'files' },
  '--state': { kind: 'files' },
};

function optionSpec(option: Option, ids: Record<string, string | undefined> = {}): OptionSpec {
  const flags = [option.short, option.long].filter((f): f is string => !!f);
  const takesValue = option.required || option.optional;
  let value: Values | undefined;
  const idKind = ids[option.long ?? ''];
  if (takesValue) {
    value = option.argChoices
      ? { kind: 'choices', values: option.argChoices }
      : idKind
        ? { kind: 'ids', of: idKind }
        : (OPTION_VALUES[option.long ?? ''] ?? { kind: 'any' });
  }
  return { flags, description: option.description, value };
}

const HELP: OptionSpec = { flags: ['-h', '--help'], description: 'show help' };

export interface Tree {
  nodes: Node[];
  globals: OptionSpec[];
}

export function commandTree(program: Command): Tree {
  const globals = [...program.options.map((o) => optionSpec(o)), HELP];
  const nodes: Node[] = [];
  const visit = (command: Command, path: string) => {
    const visible = visibleSubcommands(command);
    const first = command.registeredArguments[0];
    const key = path.replace(/^wsctl ?/, '');
    const ids = describedOf(command)?.ids;
    const argument =
      ARGUMENT_VALUES[key] ?? (first?.argChoices ? { kind: 'choices', values: first.argChoices } : first ? { kind: 'any' } : undefined);
    const own = command === program ? [] : command.options.map((o) => optionSpec(o, ids?.flags));
    nodes.push({
      path,
      description: command.description(),
      subcommands: visible.map((c) => ({ name: c.name(), aliases: c.aliases(), description: c.description() })),
      options: own,
      argument,
      idArgs: ids?.args ?? [],
    });
    for (const sub of visible) visit(sub, `${path} ${sub.name()}`);
  };
  visit(program, 'wsctl');
  // `wsctl help <TAB>`: the commands and the help topics (help is no command of the tree).
  const words = [...visibleSubcommands(program).map((c) => c.name()), ...TOPICS.map((t) => t.name)];
  nodes.push({
    path: 'wsctl help',
    description: 'show help for a command or topic',
    subcommands: [],
    options: [],
    argument: { kind: 'choices', values: words },
    idArgs: [],
  });
  return { nodes, globals };
}

/** The one node that no command of the tree holds: the root's walk leads to it by the word `help`. */
export const HELP_PATH = 'wsctl help';

/** A value source as the scripts spell it: "words:a b c", "files", "profiles" or "any". */
export function valueSource(values: Values): string {
  return values.kind === 'choices' ? `words:${values.values.join(' ')}` : values.kind === 'ids' ? `ids:${values.of}` : values.kind;
}

/** Single-quoted for bash, zsh and fish alike. */
export const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The lookup tables the bash and zsh scripts walk, as key/value pairs. */
export interface Tables {
  /** command path → its subcommand names, space-separated */
  subs: [string, string][];
  /** "path sub" → the subcommand's description */
  descriptions: [string, string][];
  /** "path|word" → the command path the word leads to (aliases too) */
  walk: [string, string][];
  /** command path → its options, global ones included */
  options: [string, OptionSpec[]][];
  /** "path|flag" → the value source of an option that takes a value */
  values: [string, string][];
  /** command path → the value source of its first argument */
  args: [string, string][];
  /** "path|n" → the kind of id its argument at position n (from 0) takes */
  ids: [string, string][];
}

export function tables(tree: Tree): Tables {
  const t: Tables = { subs: [], descriptions: [], walk: [], options: [], values: [], args: [], ids: [] };
  t.walk.push(['wsctl|help', HELP_PATH]);
  for (const node of tree.nodes) {
    for (const [i, kind] of node.idArgs.entries()) if (kind) t.ids.push([`${node.path}|${i}`, kind]);
    const options = [...node.options, ...tree.globals];
    t.subs.push([node.path, node.subcommands.map((s) => s.name).join(' ')]);
    for (const sub of node.subcommands) {
      t.descriptions.push([`${node.path} ${sub.name}`, sub.description]);
      for (const word of [sub.name, ...sub.aliases]) t.walk.push([`${node.path}|${word}`, `${node.path} ${sub.name}`]);
    }
    t.options.push([node.path, options]);
    for (const option of options) {
      if (option.value) for (const flag of option.flags) t.values.push([`${node.path}|${flag}`, valueSource(option.value)]);
    }
    if (node.argument) t.args.push([node.path, valueSource(node.argument)]);
  }
  return t;
}
