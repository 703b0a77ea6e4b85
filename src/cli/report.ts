// The reporter: an error (ours, commander's or one nobody expected) → its exit code and the one
// line, or under --json the document, that says what went wrong. Exit codes come from errors.ts.
import type { Command, Option } from 'commander';
import type { Described } from '../common/visible.js';
import type { NextStep } from '../errors.js';
import { parseBoolean } from '../../bin/booleans.cjs';
import type { BaseCtx } from '../verbs/context.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_INTERRUPTED = 130;

/** How the error is to be said: as a JSON document (--json, --jq), with its stack (--debug). */
export interface Outcome {
  code: number;
  json: boolean;
  debug: boolean;
  /** The line as run (an alias expanded): what a `next` that retypes it starts from. */
  argv?: string[];
}

/** The message of an error nobody expected: one line, never a stack trace (unless --debug). */
export function unexpected(error: unknown): string {
  const said = error instanceof Error ? error.message : String(error);
  return `Unexpected error: ${said.split('\n')[0]?.slice(0, 300) ?? ''}. Run with --debug for details.`;
}

/** WSCTL_DEBUG on, as every boolean variable is read; a bad value is exit 2 in the context, and no trace here. */
export function debugFromEnv(env: Record<string, string | undefined>): boolean {
  return parseBoolean(env.WSCTL_DEBUG) === true;
}

export async function reportError(error: unknown, base: BaseCtx, outcome: Outcome): Promise<number> {
  const {
    WsctlError,
    CancelledError,
    InterruptedError,
    cleanErrorMessage,
    maskSecrets,
    maskSecretsIn,
    wrapWords,
    displayWidth,
    terminalWidth,
    reasonOfCode,
    nextCommands,
    detectAgent,
  } = await import('./loaded.js');
  const { stderr } = base.io;
  // On a terminal the message wraps at its width, between words (cli.md §3); piped, one line.
  const said = (text: string) => (base.io.stderrIsTTY ? wrapWords(text, terminalWidth(base.env, base.io.columns), displayWidth) : text);
  const known = error instanceof WsctlError;
  const code = known ? error.exitCode : EXIT_FAILURE;
  if (code === EXIT_OK) return code;
  // Messages quote ids and service text: keep them from driving the terminal or forging lines.
  // The last door: a secret wsctl sent is masked even in an error made before it was known.
  const message = cleanErrorMessage(maskSecrets(known ? error.message : unexpected(error)));
  const reason = known ? error.reason : reasonOfCode(code, true);
  const next = known && error.next ? nextCommands(error.next, outcome.argv) : [];
  if (outcome.json) {
    const doc: Record<string, unknown> = { message, exit_code: code, reason };
    if (next.length > 0) doc.next = next;
    if (known && error.status !== undefined) doc.status = error.status;
    if (known && error.requestId) doc.request_id = maskSecrets(error.requestId);
    if (known && error.details !== undefined) doc.details = maskSecretsIn(error.details);
    stderr.write(`${JSON.stringify({ error: doc }, null, 2)}\n`);
  } else if (error instanceof CancelledError || error instanceof InterruptedError) {
    // Not errors of the tool: the person said no, or pressed Ctrl-C.
    stderr.write(`${said(message)}\n`);
  } else {
    const requestId = known && error.requestId ? ` (request id ${cleanErrorMessage(maskSecrets(error.requestId))})` : '';
    stderr.write(`${said(`Error: ${message}${requestId}`)}\n`);
    // An agent reads the way on from the last line (cli.md §3); a person has it in the message.
    if (next[0] && detectAgent(base.env).agent !== undefined) stderr.write(`Next: ${cleanErrorMessage(next[0].command)}\n`);
  }
  if (outcome.debug && error instanceof Error && error.stack) stderr.write(`${maskSecrets(error.stack)}\n`);
  return code;
}

/** Commander's "unknown command 'key'\n(Did you mean keys?)" as one line. */
export function oneLineUsage(message: string): string {
  return message
    .replace(/^error:\s*/i, '')
    .replace(
      /\s*\n\s*\(Did you mean (?:one of )?([^)]*?)\?\)/,
      (_m, names: string) =>
        `. Did you mean ${names
          .split(/,\s*/)
          .map((n) => `'${n}'`)
          .join(' or ')}?`,
    )
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/**
 * Commander's messages start with a capital letter, as ours do ("Missing required options …"),
 * except "unknown command '…'", which cli.md §4 spells that way.
 */
function sentence(line: string): string {
  return /^unknown command /.test(line) ? line : line.charAt(0).toUpperCase() + line.slice(1);
}

/** The command a path such as "wsctl keys" names. */
function commandAt(program: Command, path: string): Command {
  let command = program;
  for (const name of path.split(' ').slice(1)) command = command.commands.find((c) => c.name() === name) ?? command;
  return command;
}

/**
 * argv read against commander's tree: the command its words name (`wsctl keys create`, where a
 * usage hint points), where the first word after it is (-1 when there is none), and the
 * words after the command (its arguments). An option's value is skipped by what the option takes.
 */
function walk(program: Command, argv: string[]): { command: Command; path: string; at: number; positional: string[] } {
  const names = ['wsctl'];
  let command = program;
  let at = -1;
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (word.startsWith('-')) {
      const option = optionsOf(command).find((o) => o.long === word || o.short === word);
      if (option && (option.required || option.optional)) i++;
      continue;
    }
    const sub = at < 0 ? command.commands.find((c) => c.name() === word || c.aliases().includes(word)) : undefined;
    if (sub) {
      names.push(sub.name());
      command = sub;
      continue;
    }
    if (at < 0) at = i;
    positional.push(word);
  }
  return { command, path: names.join(' '), at, positional };
}

/** Commander's errors that say something required is missing; the others are `usage`. */
const MISSING = new Set(['commander.missingArgument', 'commander.optionMissingArgument', 'commander.missingMandatoryOptionValue']);

/**
 * argv with its word at `at` (or its `--flag=value`'s value) replaced by the one guessed: the
 * corrected line, as `next`, with placeholders for what the command still needs, so that it runs.
 */
function corrected(program: Command, lookUp: LookUp, argv: string[], at: number, guess: string, why: string): NextStep[] {
  if (at < 0 || guess.includes("'")) return [];
  const word = argv[at] as string;
  const eq = word.indexOf('=');
  // `--jsn=x` → `--json=x`; `--variant=blgo` → `--variant=blog`.
  const fixed =
    !word.startsWith('--') || eq < 0 ? guess : guess.startsWith('-') ? `${guess}${word.slice(eq)}` : `${word.slice(0, eq + 1)}${guess}`;
  const typed = [...argv.slice(0, at), fixed, ...argv.slice(at + 1)];
  const missing = stillMissing(program, lookUp, typed);
  return [{ typed, ...(missing.length ? { missing } : {}), why }];
}

/** What the declarations say of a command: the program's own copy of src/common/visible.ts, which built the tree. */
type LookUp = (command: Command) => Described | undefined;

/** The options a command takes: its own and its ancestors' (the global ones). */
function optionsOf(command: Command): Option[] {
  const options: Option[] = [];
  for (let c: Command | null = command; c; c = c.parent) options.push(...c.options);
  return options;
}

/** What a line lacks before its command runs: a placeholder for each required argument and option not given. */
function stillMissing(program: Command, lookUp: LookUp, argv: string[]): string[] {
  const { command, positional } = walk(program, argv);
  const required = lookUp(command)?.required;
  if (!required) return [];
  const missing = required.args.slice(positional.length);
  for (const [flag, value] of required.flags) {
    const option = command.options.find((o) => o.long === flag);
    const given = argv.some((w) => w === flag || w.startsWith(`${flag}=`) || (option?.short !== undefined && w === option.short));
    if (!given) missing.push(flag, value);
  }
  return missing;
}

/** Where argv has the flag commander did not know (`--jsn`, `--jsn=x`), or -1. */
function flagAt(argv: string[], flag: string): number {
  const end = argv.indexOf('--');
  return argv.findIndex((w, i) => (end < 0 || i < end) && (w === flag || w.startsWith(`${flag}=`)));
}

/** Where argv has the mistyped value of a choice: the last word that is it, alone or after `=`. */
function valueAt(argv: string[], value: string): number {
  for (let i = argv.length - 1; i >= 0; i--) {
    const w = argv[i] as string;
    if (w === value || (w.startsWith('--') && w.endsWith(`=${value}`))) return i;
  }
  return -1;
}

/**
 * Commander's usage error as ours (exit 2): one line, a close guess for an unknown command, and
 * where to read the usage. `said` is what commander wrote (onUsageError), else its error's message.
 */
export async function usageError(program: Command, argv: string[], code: string, said: string): Promise<Error> {
  const { UsageError, suggestCommand, closest, describedOf } = await import('./loaded.js');
  const { path, at } = walk(program, argv);
  const hint = ` Run \`${path} --help\` for usage.`;
  let line = said.replace(/([^.!?])$/, '$1.').replace(/^command-argument value /, 'value ');
  let next: NextStep[] = [];
  const unknown = /^unknown command '([^']*)'/.exec(line);
  if (code === 'commander.unknownCommand' && unknown) {
    // Commander's guess can be far off (`version` → `persona`): only close ones, and flags typed as words.
    const guess = suggestCommand(commandAt(program, path), unknown[1] as string);
    line = `unknown command '${unknown[1]}'.${guess ? ` Did you mean '${guess}'?` : ''}`;
    if (guess && argv[at] === unknown[1])
      next = corrected(program, describedOf, argv, at, guess, `'${unknown[1]}' is not a command; '${guess}' is.`);
  }
  const option = /^unknown option '([^']*)'\. Did you mean '([^']*)'\?/.exec(line);
  if (code === 'commander.unknownOption' && option) {
    const [, typo, guess] = option as unknown as [string, string, string];
    next = corrected(program, describedOf, argv, flagAt(argv, typo), guess, `'${typo}' is not an option here; '${guess}' is.`);
  }
  // A mistyped choice (`--variant blgo`): the close one, on the same line.
  const choice = /'([^']*)' is invalid(?: for argument '[^']*')?\. Allowed choices are (.*)\.$/.exec(line);
  if (code === 'commander.invalidArgument' && choice) {
    const guess = closest(
      choice[1] as string,
      (choice[2] as string).split(', ').map((c) => ({ word: c, suggest: c })),
    );
    if (guess) line += ` Did you mean '${guess}'?`;
    if (guess)
      next = corrected(
        program,
        describedOf,
        argv,
        valueAt(argv, choice[1] as string),
        guess,
        `'${choice[1]}' is not one of the choices; '${guess}' is.`,
      );
  }
  return new UsageError(`${sentence(line)}${hint}`, { reason: MISSING.has(code) ? 'missing_argument' : 'usage', next });
}
