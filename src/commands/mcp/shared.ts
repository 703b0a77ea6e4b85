// What the mcp verbs share: the server's flags (declared once for `mcp`, `mcp config` and
// `mcp install`), their rules, and the entry that starts this wsctl's server from a client.
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { DECLARED } from '../../common/declared.js';
import { flag, option, type Ctx, type Param } from '../../verbs/declare.js';
import { checkProfileName, configFolder, profileOf } from '../../config/index.js';
import { UsageError, WsctlError } from '../../errors.js';
import { requireProfile } from '../profile/shared.js';
import { CLIENT_NAMES, type ClientName, type ServerEntry } from './clients.js';

/** `--no-confirm`, read as what it asks for: true when given (a `--no-x` flag() would be false then). */
const noConfirm: Param<boolean> = {
  syntax: '--no-confirm',
  help:
    'run the calls a person must otherwise confirm without asking anyone: removals, widening access, replacing, ' +
    `and every call of ${DECLARED.confirmingTools.join(' and ')}; for an unattended agent set up on purpose`,
  read: (given) => given === false,
};

export const serverFlags = {
  readOnly: flag('--read-only', 'offer only the tools that read'),
  allowDestructive: flag(
    '--allow-destructive',
    `also offer the tools that remove (${DECLARED.destructiveTools.join(', ')}); the force argument that replaces (${DECLARED.forceTools.join(', ')}) ` +
      'is offered without it, and a person confirms each call that passes it (unless --no-confirm); a no-destructive agent policy refuses it',
  ),
  showSecrets: flag('--show-secrets', 'return the key made by keys_create in full, not masked'),
  noConfirm,
  uploadDir: option(
    '--upload-dir <dir>',
    'a folder persona_upload_avatar may read files from, besides the working folder (a working folder that is / or the home folder confines nothing: there only --upload-dir folders count)',
  ),
};

export interface McpFlags {
  readOnly: boolean;
  allowDestructive: boolean;
  showSecrets: boolean;
  noConfirm: boolean;
  uploadDir: string | undefined;
}

export const clientFlag = {
  client: option('--client <name>', 'the MCP client', CLIENT_NAMES, 'claude-desktop' as ClientName),
};

/** The rules between the server's options and the global ones, for the server and its entry alike. */
export function check(flags: McpFlags, ctx: Pick<Ctx, 'filtered' | 'dryRun'>, verb = 'wsctl mcp'): void {
  if (flags.readOnly && flags.allowDestructive) throw new UsageError('--read-only and --allow-destructive cannot be used together.');
  if (flags.uploadDir !== undefined && flags.uploadDir.trim() === '') throw new UsageError('--upload-dir needs a folder.');
  if (ctx.filtered && verb === 'wsctl mcp') throw new UsageError('wsctl mcp does not take --jq: tool results are JSON documents already.');
  if (ctx.dryRun && verb !== 'wsctl mcp install') throw new UsageError(`${verb} does not take --dry-run.`);
}

/** snake_case of an option's or argument's name, as tools name their parameters. */
export function snake(name: string): string {
  return name.replace(/-/g, '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A command's description and what each argument and option means, by its tool name. */
export function describe(root: Command, path: string[]): { description: string; params: Record<string, string> } | undefined {
  let command: Command | undefined = root;
  for (const word of path) command = command?.commands.find((c) => c.name() === word);
  if (!command) return undefined;
  const params: Record<string, string> = {};
  for (const argument of command.registeredArguments) params[snake(argument.name())] = argument.description;
  for (const option of command.options) params[snake(option.attributeName())] = option.description;
  return { description: command.description(), params };
}

/** bin/wsctl of the package this code runs from (dist/wsctl.cjs when built, src/commands/mcp/ in tests), symlinks resolved. */
export function launcherScript(): string {
  const here = fileURLToPath(import.meta.url);
  const built = here.lastIndexOf(`${sep}dist${sep}`);
  const root = built >= 0 ? here.slice(0, built) : resolve(here, '..', '..', '..', '..');
  try {
    return realpathSync(resolve(root, 'bin', 'wsctl'));
  } catch {
    throw new WsctlError(`Cannot find wsctl's launcher in ${root}: reinstall wsctl.`);
  }
}

/**
 * The entry that starts this wsctl's server: Node and the launcher by absolute path (a client may
 * start it without the user's PATH), then the options in effect, from flags or their variables.
 */
// Never a key nor a base URL: the server reads the profile when it starts.
export function serverEntry(flags: McpFlags, ctx: Ctx, script = launcherScript()): ServerEntry {
  const env = ctx.env;
  const { baseUrl, baseUrlFrom, timeout } = ctx.named();
  const profile = profileForEntry(ctx);
  if (baseUrl !== undefined && baseUrlFrom !== undefined && !ctx.sandbox) checkBaseUrlKept(baseUrl, baseUrlFrom, profile, ctx);
  const args = [script, 'mcp'];
  if (ctx.sandbox) args.push('--sandbox');
  if (profile !== undefined) args.push('--profile', profile);
  if (timeout !== undefined) args.push('--timeout', timeout.trim());
  if (ctx.debug) args.push('--debug');
  if (flags.readOnly) args.push('--read-only');
  if (flags.allowDestructive) args.push('--allow-destructive');
  if (flags.showSecrets) args.push('--show-secrets');
  if (flags.noConfirm) args.push('--no-confirm');
  if (flags.uploadDir !== undefined) args.push('--upload-dir', resolve(flags.uploadDir));
  const entry: ServerEntry = { command: process.execPath, args };
  // A client's environment may lack what chose the config folder here (WSCTL_CONFIG_DIR, XDG_CONFIG_HOME):
  // the folder goes into the entry whenever a bare environment would find another one.
  const folder = configFolder(env).path;
  if (folder !== configFolder({ HOME: env.HOME, APPDATA: env.APPDATA, USERPROFILE: env.USERPROFILE }).path)
    entry.env = { WSCTL_CONFIG_DIR: folder };
  if (env.WSCTL_API_KEY)
    ctx.term.info(
      "WSCTL_API_KEY is not put in the entry: the server takes its key from the profile, or from WSCTL_API_KEY in the client's env for it.",
    );
  return entry;
}

/**
 * The profile the entry names: the one given (--profile, WSCTL_PROFILE), which must exist, or the
 * one a pin file sets here, since the client starts the server in another folder. Under --sandbox
 * no profile is read, so none is checked nor taken from a pin.
 */
function profileForEntry(ctx: Ctx): string | undefined {
  const named = ctx.named().profile;
  if (named !== undefined) checkProfileName(named);
  if (ctx.sandbox) return named;
  // A server started with a profile that does not exist would serve nothing: refused before anything is written.
  if (named !== undefined) requireProfile(ctx.config.read(), named);
  else if (ctx.resolution().profileSource === 'pin') return ctx.resolution().profile;
  return named;
}

/**
 * A base URL given here (--base-url, WSCTL_BASE_URL) cannot reach the server, which reads its
 * profile's: one that differs from the profile's is refused rather than silently lost (under
 * --sandbox it is ignored, as everywhere).
 */
function checkBaseUrlKept(baseUrl: string, from: 'flag' | 'env', profile: string | undefined, ctx: Ctx): void {
  const name = profile ?? ctx.profileName();
  const stored = profileOf(ctx.config.read(), name)?.base_url;
  const bare = (url: string) => url.trim().replace(/\/+$/, '');
  if (stored !== undefined && bare(stored) === bare(baseUrl)) return;
  const named = from === 'flag' ? '--base-url' : 'WSCTL_BASE_URL';
  throw new UsageError(
    `The server reads its base URL from profile '${name}'${stored ? `, ${stored},` : ', which has none,'} not from ${named}. ` +
      `Log in a profile for ${baseUrl} (\`wsctl auth login --profile <name> --base-url ${baseUrl}\`) and pass --profile <name>${from === 'flag' ? ' instead' : ', with WSCTL_BASE_URL unset'}.`,
  );
}
