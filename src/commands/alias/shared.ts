import type { ConfigData } from '../../config/index.js';
import { checkAliasName } from '../../alias.js';
import { UsageError } from '../../errors.js';
import { findTopic } from '../../help/topics.js';
import { isCommandName } from '../../program.js';

/** A name an alias may take: well formed, and neither a command nor a help topic. */
export function aliasName(name: string): string {
  checkAliasName(name);
  if (isCommandName(name)) throw new UsageError(`'${name}' is a wsctl command: an alias cannot take its name.`);
  if (findTopic(name)) throw new UsageError(`'${name}' is a help topic (wsctl help ${name}): an alias cannot take its name.`);
  return name;
}

export function aliasesOf(data: ConfigData): Record<string, string> {
  return data.aliases ?? {};
}

export function requireAlias(data: ConfigData, name: string): string {
  const aliases = aliasesOf(data);
  if (Object.hasOwn(aliases, name)) return aliases[name] as string;
  const known = Object.keys(aliases);
  throw new UsageError(`No alias '${name}'.${known.length ? ` Aliases: ${known.join(', ')}.` : ' There are no aliases yet.'}`);
}
