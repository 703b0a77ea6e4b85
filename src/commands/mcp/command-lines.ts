// The command lines mcp install puts in front of a person: the way back, the entry it replaces,
// and, under an AI agent, the line a person runs to give the agent more than the default.
import { AuthError } from '../../errors.js';
import { REDACTED, redactPlain } from '../../http/redact.js';
import { maskedWords } from './entry-secrets.js';
import type { ClientName, ServerEntry } from './clients.js';
import type { McpFlags } from './shared.js';

type Opts = McpFlags & { client: ClientName; config: string | undefined };

/** A shell word, quoted only where a POSIX shell would read it otherwise. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A masked word, quoted around its [redacted] marks so that they read as marks, not as a value. */
function maskedShellWord(word: string): string {
  return word
    .split(REDACTED)
    .map((part) => (part === '' ? '' : shellWord(part)))
    .join(REDACTED);
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
    { reason: 'policy_refused' },
  );
}

/** What a wsctl entry's command line narrows the agent to: --read-only, one --profile, --sandbox. */
function narrowing(argv: string[]): { readOnly: boolean; profile: string | undefined; sandbox: boolean } {
  const at = argv.indexOf('mcp');
  const words = at >= 0 ? argv.slice(at + 1) : argv;
  let profile: string | undefined;
  words.forEach((word, i) => {
    if (word === '--profile' && i + 1 < words.length) profile = words[i + 1];
    else if (word.startsWith('--profile=')) profile = word.slice('--profile='.length);
  });
  return { readOnly: words.includes('--read-only'), profile, sandbox: words.includes('--sandbox') };
}

/**
 * Under an AI agent, replacing a wsctl entry with one that gives the agent more (cli.md §11: an
 * agent may narrow, never widen) is a person's choice too: refused (exit 4) before anything is
 * written, with the line a person runs. More is losing --read-only or --sandbox, or another profile
 * (or none) where the entry named one.
 */
export function refuseWiderThanReplaced(opts: Opts, agent: string | undefined, entry: ServerEntry, path: string, old: unknown): void {
  if (!agent || old === undefined) return;
  const before = narrowing(argvOf(old) ?? []);
  const after = narrowing(entry.args);
  const lost: string[] = [];
  if (before.readOnly && !after.readOnly) lost.push('--read-only');
  if (before.sandbox && !after.sandbox) lost.push('--sandbox');
  if (before.profile !== undefined && before.profile !== after.profile)
    lost.push(`--profile ${shellWord(before.profile)}${after.profile === undefined ? '' : ` (for --profile ${shellWord(after.profile)})`}`);
  if (lost.length === 0) return;
  const line = ['wsctl', 'mcp', 'install', ...fileArgs(opts, path), ...entry.args.slice(2)];
  throw new AuthError(
    `An AI agent (${agent}) may not replace the MCP entry with ${lost.join(', ')} in ${path}: the new one gives the agent more than it did. Nothing was written; a person can run: ${line.map(shellWord).join(' ')}`,
    { reason: 'policy_refused' },
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

/** The command line an entry in a client's file runs, its secrets masked (never its env: it may hold a key). */
export function oldCommandLine(old: unknown): string {
  const argv = argvOf(old);
  if (argv && argv.length > 0) return maskedWords(argv).map(maskedShellWord).join(' ');
  const { url } = (old !== null && typeof old === 'object' ? old : {}) as Record<string, unknown>;
  if (typeof url === 'string') return redactPlain(url);
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
