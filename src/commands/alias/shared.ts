import type { ConfigData } from '../../config/index.js';
import type { Command } from 'commander';
import { checkAliasName } from '../../config/alias.js';
import { UsageError } from '../../errors.js';
import { findTopic } from '../../help/topics.js';

/** A name an alias may take: well formed, and not a help topic (refuseCommandName checks the commands). */
export function aliasName(name: string): string {
  checkAliasName(name);
  if (findTopic(name))
    throw new UsageError(`'${name}' is a help topic (wsctl help ${name}): an alias cannot take its name.`, { reason: 'invalid_input' });
  return name;
}

export function aliasesOf(data: ConfigData): Record<string, string> {
  return data.aliases ?? {};
}

export function requireAlias(data: ConfigData, name: string): string {
  const aliases = aliasesOf(data);
  if (Object.hasOwn(aliases, name)) return aliases[name] as string;
  const known = Object.keys(aliases);
  throw new UsageError(`No alias '${name}'.${known.length ? ` Aliases: ${known.join(', ')}.` : ' There are no aliases yet.'}`, {
    reason: 'invalid_input',
  });
}

/** A command's name (a noun of the tree, or `help`) is never an alias: the command would always win. */
export function refuseCommandName(name: string, root: Command): void {
  if (name === 'help' || root.commands.some((c) => c.name() === name || c.aliases().includes(name))) {
    throw new UsageError(`'${name}' is a wsctl command: an alias cannot take its name.`, { reason: 'invalid_input' });
  }
}
