import type { Command } from 'commander';

/** The subcommands a user sees, by commander's public Help: hidden ones left out, no implicit help. */
export function visibleSubcommands(command: Command): Command[] {
  return command.createHelp().visibleCommands(command).filter((c) => command.commands.includes(c));
}
