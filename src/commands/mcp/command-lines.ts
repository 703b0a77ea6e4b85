// The command lines mcp install puts in front of a person: the way back, the entry it replaces,
// and, under an AI agent, the line a person runs to give the agent more than the default.
import { AuthError } from '../../errors.js';
import type { ClientName, ServerEntry } from './clients.js';
import type { McpFlags } from './shared.js';

type Opts = McpFlags & { client: ClientName; config: string | undefined };

/** A shell word, quoted only where a POSIX shell would read it otherwise. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The options that give an agent more than a person's default (cli.md §8, §11). */
export function widening(flags: McpFlags): string[] {
  const given: [boolean, string][] = [
    [flags.noConfirm, '--no-confirm'],
    [flags.allowDestructive, '--allow-destructive'],
    [flags.showSecrets, '--show-secrets'],
    [flags.uploadDir !== undefined, '--upload-dir'],
  ];
  return given.filter(([on]) => on).map(([, name]) => name);
}

/**
 * Under an AI agent, an entry that gives the agent more than a person's default is a person's
 * choice (cli.md §8, §11): refused (exit 4) before the file is read, with the line a person runs.
 */
export function refuseUnderAgent(opts: Opts, agent: string | undefined, entry: ServerEntry, path: string): void {
  const flags = widening(opts);
  if (!agent || flags.length === 0) return;
  const line = ['wsctl', 'mcp', 'install', ...fileArgs(opts, path), ...entry.args.slice(2)];
  throw new AuthError(
    `An AI agent (${agent}) may not install an MCP entry with ${flags.join(', ')}: it gives the agent more than a person's default. Nothing was written; a person can run: ${line.map(shellWord).join(' ')}`,
  );
}

/** The command line an entry in a client's file runs: `command` and `args`, or OpenCode's one array. */
function argvOf(old: unknown): string[] | undefined {
  const { command, args } = (old !== null && typeof old === 'object' ? old : {}) as Record<string, unknown>;
  const words = (list: unknown[]) => list.map((a) => (typeof a === 'string' ? a : JSON.stringify(a)));
  if (Array.isArray(command)) return words(command);
  if (typeof command === 'string') return [command, ...(Array.isArray(args) ? words(args) : [])];
  return undefined;
}

/** Whether an entry starts another command line than this one (its env or client keys aside). */
export function runsOtherwise(old: unknown, entry: ServerEntry): boolean {
  return JSON.stringify(argvOf(old)) !== JSON.stringify([entry.command, ...entry.args]);
}

/** The command line an entry in a client's file runs (never its env: it may hold a key). */
export function oldCommandLine(old: unknown): string {
  const argv = argvOf(old);
  if (argv && argv.length > 0) return argv.map(shellWord).join(' ');
  const { url } = (old !== null && typeof old === 'object' ? old : {}) as Record<string, unknown>;
  if (typeof url === 'string') return url;
  return '(an entry with no command)';
}

/** --client, and --config as the file's absolute path when one was named: what finds the same file again. */
function fileArgs(opts: Pick<Opts, 'client' | 'config'>, path: string): string[] {
  return ['--client', opts.client, ...(opts.config !== undefined ? ['--config', path] : [])];
}

/** The exact way back: uninstall of the same file. */
export function uninstallLine(opts: Pick<Opts, 'client' | 'config'>, path: string): string {
  return ['wsctl', 'mcp', 'uninstall', ...fileArgs(opts, path)].map(shellWord).join(' ');
}
