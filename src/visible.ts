import type { Command } from 'commander';

/** The subcommands a user sees, by commander's public Help: hidden ones left out, no implicit help. */
export function visibleSubcommands(command: Command): Command[] {
  return command.createHelp().visibleCommands(command).filter((c) => command.commands.includes(c));
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
