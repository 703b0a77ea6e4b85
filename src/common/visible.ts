// Which commands a user sees, and what their declarations say of them, for the generators.
import type { Command } from 'commander';

/** The subcommands a user sees, by commander's public Help: hidden ones left out, no implicit help. */
export function visibleSubcommands(command: Command): Command[] {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((c) => command.commands.includes(c));
}

/** "keys create", "mcp config", …: the path of every visible command that has no subcommands. */
export function verbPaths(program: Command): string[] {
  const paths: string[] = [];
  const walk = (command: Command, names: string[]) => {
    const subs = visibleSubcommands(command);
    if (subs.length === 0 && names.length) paths.push(names.join(' '));
    for (const sub of subs) walk(sub, [...names, sub.name()]);
  };
  walk(program, []);
  return paths;
}

/** What a command's declaration says beyond what commander keeps: its examples and notes. */
export interface Described {
  /** A verb (or a noun that runs by itself, as `wsctl mcp`), not a noun that only holds verbs. */
  runs: boolean;
  examples: string[];
  /** Said in help before the examples (where completion scripts go). */
  notes?: string;
  /** The kind of id each argument takes (undefined where none), and each flag that takes one (cli.md §10). */
  ids?: { args: (string | undefined)[]; flags: Record<string, string | undefined> };
  /** The endpoints of src/service.ts it calls ('any' for `api`), for its man page. */
  endpoints?: readonly string[] | 'any';
  /** What a line must give (an id chosen from a list on a terminal included): `<name>` per argument, `--model <model>` per flag. */
  required?: { args: string[]; flags: [flag: string, value: string][] };
}

const declared = new WeakMap<Command, Described>();

/** Kept by the builder of the tree (src/verbs/declare.ts) for the generators: help, man pages, the README. */
export function keepDescribed(command: Command, described: Described): void {
  declared.set(command, described);
}

export function describedOf(command: Command): Described | undefined {
  return declared.get(command);
}
