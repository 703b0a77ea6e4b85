// Entry point: parses argv, runs the command, and maps every error to its exit code.
// The only place that decides an exit code; bin/wsctl calls cli(), tests call main().
// Start-up imports only commander and the command tree; everything else loads when used.
import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { Command } from 'commander';
import type { App, Result } from './command.js';
import type { BaseCtx, Globals } from './context.js';
import type { IO } from './terminal/index.js';
import { buildProgram, invokedNoun, loadCommands, VALUE_OPTIONS } from './program.js';
import type { Prompt } from './terminal/prompt.js';
import { setRuntimeFlags, tricksOn } from './tricks-switch.js';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_INTERRUPTED = 130;

declare const __WSCTL_VERSION__: string;
export const VERSION = typeof __WSCTL_VERSION__ === 'string' ? __WSCTL_VERSION__ : '0.0.0-dev';

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/** The command a path such as "wsctl keys" names. */
function commandAt(program: Command, path: string): Command {
  let command = program;
  for (const name of path.split(' ').slice(1)) command = command.commands.find((c) => c.name() === name) ?? command;
  return command;
}

/** "wsctl keys create" for the words of argv that name commands: where a usage hint points. */
function commandPath(program: Command, argv: string[]): string {
  const names = ['wsctl'];
  let command = program;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') break;
    if (word.startsWith('-')) {
      if (VALUE_OPTIONS.has(word)) i++;
      continue;
    }
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    names.push(sub.name());
    command = sub;
  }
  return names.join(' ');
}

interface Outcome {
  code: number;
  json: boolean;
  debug: boolean;
}

/** The message of an error nobody expected: one line, never a stack trace (unless --debug). */
export function unexpected(error: unknown): string {
  const said = error instanceof Error ? error.message : String(error);
  return `Unexpected error: ${said.split('\n')[0]?.slice(0, 300) ?? ''}. Run with --debug for details.`;
}

async function reportError(error: unknown, base: BaseCtx, outcome: Outcome): Promise<number> {
  const { WsctlError, CancelledError, InterruptedError, cleanErrorMessage } = await import('./app.js');
  const { stderr } = base.io;
  const known = error instanceof WsctlError;
  const code = known ? error.exitCode : EXIT_FAILURE;
  if (code === EXIT_OK) return code;
  // Messages quote ids and service text: keep them from driving the terminal or forging lines.
  const message = cleanErrorMessage(known ? error.message : unexpected(error));
  if (outcome.json) {
    const doc: Record<string, unknown> = { message, exit_code: code };
    if (known && error.status !== undefined) doc.status = error.status;
    if (known && error.requestId) doc.request_id = error.requestId;
    if (known && error.details !== undefined) doc.details = error.details;
    stderr.write(`${JSON.stringify({ error: doc }, null, 2)}\n`);
  } else if (error instanceof CancelledError || error instanceof InterruptedError) {
    // Not errors of the tool: the person said no, or pressed Ctrl-C.
    stderr.write(`${message}\n`);
  } else {
    const requestId = known && error.requestId ? ` (request id ${cleanErrorMessage(error.requestId)})` : '';
    stderr.write(`Error: ${message}${requestId}\n`);
  }
  if (outcome.debug && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  return code;
}

/** `wsctl help keys create` is `wsctl keys create --help`; `wsctl help <topic>` is answered apart. */
function helpRequest(argv: string[]): { argv: string[]; words: string[] } | undefined {
  const at = argv.indexOf('help');
  if (at < 0 || invokedNoun(argv) !== 'help') return undefined;
  return { argv: [...argv.slice(0, at), ...argv.slice(at + 1), '--help'], words: argv.slice(at + 1).filter((w) => !w.startsWith('-')) };
}

/** Commander's "unknown command 'key'\n(Did you mean keys?)" as one line. */
export function oneLineUsage(message: string): string {
  return message
    .replace(/^error:\s*/i, '')
    .replace(/\s*\n\s*\(Did you mean (?:one of )?([^)]*?)\?\)/, (_m, names: string) => `. Did you mean ${names.split(/,\s*/).map((n) => `'${n}'`).join(' or ')}?`)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** WSCTL_DEBUG as config/resolve.ts's envFlag reads it (inlined: start-up loads no more modules); a bad value is exit 2 there. */
function debugFromEnv(env: Record<string, string | undefined>): boolean {
  return /^(?:1|true|yes|on)$/i.test((env.WSCTL_DEBUG ?? '').trim());
}

export async function main(rawArgv: string[], base: BaseCtx): Promise<number> {
  const help = helpRequest(rawArgv);
  const argv = help?.argv ?? rawArgv;
  const outcome: Outcome = { code: 0, json: argv.includes('--json') || argv.includes('--jq'), debug: argv.includes('--debug') || debugFromEnv(base.env) };
  let usageMessage: string | undefined;

  const app: App = {
    loadAll: (program) => loadCommands(program, app, 'all'),
    async run(command, opts, verb) {
      const globals = rootOf(command).opts<Globals>();
      outcome.json = !!globals.json || globals.jq !== undefined;
      outcome.debug ||= !!globals.debug;
      // Before anything compiles WebAssembly; --help never gets here, so never pays for node:v8.
      setRuntimeFlags();
      const { createCtx } = await import('./app.js');
      const ctx = await createCtx(base, globals);
      try {
        const result: Result | void = await verb(opts, ctx);
        // A command that returns nothing (sandbox serve) ends on Ctrl-C by design.
        if (result && base.signal.aborted) {
          const { InterruptedError } = await import('./app.js');
          throw new InterruptedError();
        }
        if (!result) return;
        if (result.lost) base.io.onLost?.((await import('./app.js')).cleanErrorMessage(result.lost));
        if (ctx.json) await ctx.term.printJson(result.json);
        else await result.human(ctx.term);
        await result.after?.();
        if (result.failure) {
          const { WsctlError } = await import('./app.js');
          throw new WsctlError(result.failure);
        }
        if (result.exitCode) {
          outcome.code = result.exitCode;
          if (result.exitMessage) ctx.term.info(`Error: ${result.exitMessage}`);
        }
      } finally {
        await ctx.close();
      }
    },
  };

  const writeHelp = (text: string) => (base.io.writeHelp ? base.io.writeHelp(text) : base.io.stdout.write(text));
  const width = base.helpWidth ?? (Number(base.env.COLUMNS) || undefined);
  const program = buildProgram(VERSION, {
    writeOut: writeHelp,
    // Commander writes help here when a noun is given without a verb: show it as help (gh does too).
    writeErr: writeHelp,
    onUsageError: (message) => {
      usageMessage = oneLineUsage(message);
    },
    helpWidth: width,
  });

  // --jq: the engine's thread starts now, while the commands load.
  if (argv.includes('--jq')) import('./terminal/jq.js').then((m) => m.startJq()).catch(() => {});
  try {
    await loadCommands(program, app, invokedNoun(argv));
    if (help && help.words.length > 0) {
      const topic = (await import('./app.js')).answerHelp(program, help.words, width);
      if (topic !== undefined) {
        writeHelp(topic);
        return EXIT_OK;
      }
    }
    await program.parseAsync(argv, { from: 'user' });
    return outcome.code;
  } catch (error) {
    const commander = error as { code?: string; exitCode?: number };
    const helpOrVersion = ['commander.help', 'commander.helpDisplayed', 'commander.version'].includes(commander.code ?? '');
    if (!base.signal.aborted && (helpOrVersion || (commander.code?.startsWith('commander.') && commander.exitCode === 0))) return EXIT_OK;
    const { InterruptedError, UsageError } = await import('./app.js');
    if (base.signal.aborted) return reportError(new InterruptedError(), base, outcome);
    if (typeof commander.code === 'string' && commander.code.startsWith('commander.')) {
      const path = commandPath(program, argv);
      const hint = ` Run \`${path} --help\` for usage.`;
      let said = (usageMessage ?? oneLineUsage((error as Error).message)).replace(/([^.!?])$/, '$1.');
      const unknown = /^unknown command '([^']*)'/.exec(said);
      if (commander.code === 'commander.unknownCommand' && unknown) {
        // Commander's guess can be far off (`version` → `persona`): only close ones, and flags typed as words.
        const { suggestCommand } = await import('./app.js');
        const guess = suggestCommand(commandAt(program, path), unknown[1] as string);
        said = `unknown command '${unknown[1]}'.${guess ? ` Did you mean '${guess}'?` : ''}`;
      }
      return reportError(new UsageError(`${said}${hint}`), base, outcome);
    }
    return reportError(error, base, outcome);
  }
}

/**
 * The files generated from the command tree: completion scripts, man pages (and package.json's
 * list of them), and the README's command list and tables of settings and exit codes.
 */
export async function generatedFiles(readme?: string, packageJson?: string): Promise<Record<string, string>> {
  const { completionScript, COMPLETION_FILES, commandReference, replaceReference, manPages, replaceSection, settingsTable, exitCodeTable } = await import('./app.js');
  let help = '';
  const app: App = { run: async () => {}, loadAll: (p: Command) => loadCommands(p, app, 'all') };
  const program = buildProgram(VERSION, { writeOut: (t) => (help += t), writeErr: () => {}, onUsageError: () => {} });
  await app.loadAll(program);
  const helpOf = (command: Command) => {
    help = '';
    command.outputHelp();
    return help;
  };
  const files: Record<string, string> = {};
  for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
    files[`completions/${file}`] = completionScript(program, shell as keyof typeof COMPLETION_FILES);
  }
  const pages = manPages(program, helpOf);
  for (const [file, text] of Object.entries(pages)) files[`man/${file}`] = text;
  if (readme !== undefined) {
    let text = replaceReference(readme, commandReference(program, helpOf));
    text = replaceSection(text, 'settings', settingsTable());
    files['README.md'] = replaceSection(text, 'exit-codes', exitCodeTable());
  }
  if (packageJson !== undefined) {
    const pkg = JSON.parse(packageJson);
    pkg.man = Object.keys(pages).map((file) => `./man/${file}`);
    files['package.json'] = `${JSON.stringify(pkg, null, 2)}\n`;
  }
  return files;
}

/** The width help wraps at: $COLUMNS, else the terminal's (only asked when stdout is one). */
function helpWidth(): number | undefined {
  const fromEnv = Number(process.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  // Creating process.stdout costs --help a few ms: only worth it on a terminal.
  return isatty(1) ? process.stdout.columns : undefined;
}

/** The real process: its streams, environment, Ctrl-C, a closed stdout pipe, and a last resort. */
export async function cli(argv: string[]): Promise<void> {
  const debug = argv.includes('--debug') || debugFromEnv(process.env);
  // Nothing may end in Node's crash output: anything unexpected is one line and exit 1.
  const lastResort = (error: unknown) => {
    process.stderr.write(`Error: ${unexpected(error)}\n${debug && error instanceof Error ? `${error.stack}\n` : ''}`);
    process.exit(EXIT_FAILURE);
  };
  process.on('uncaughtException', lastResort);
  process.on('unhandledRejection', lastResort);

  const controller = new AbortController();
  let pager: Promise<void> | undefined;
  process.on('SIGINT', () => {
    controller.abort();
    // A pager keeps the terminal until it exits, as git waits for it; anything else gets a moment.
    if (pager) pager.then(() => process.exit(EXIT_INTERRUPTED));
    else setTimeout(() => process.exit(EXIT_INTERRUPTED), 1000).unref();
  });
  let stdout: NodeJS.WriteStream | undefined;
  let writeFailure: string | undefined;
  /** What the user must know when the result is lost (the id of a key whose secret was not written). */
  let lostNote: string | undefined;
  const json = argv.includes('--json') || argv.includes('--jq');
  /** One line on stderr: under --json a compact error document. */
  const sayWriteFailure = (message: string) =>
    process.stderr.write(json ? `${JSON.stringify({ error: { message, exit_code: EXIT_FAILURE } })}\n` : `Error: ${message}\n`);
  const cannotWrite = (error: NodeJS.ErrnoException): never => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK); // the reader closed the pipe (`| head`): quiet
    sayWriteFailure(writeFailureMessage(error, lostNote));
    process.exit(EXIT_FAILURE);
  };
  // The streams are made on first use: --version and --help never pay for them.
  const io: IO = {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      if (!stdout) {
        stdout = process.stdout;
        // A result that cannot be written (a full disk) must not look like success.
        stdout.on('error', cannotWrite);
      }
      return stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdinIsTTY() {
      return !!process.stdin.isTTY;
    },
    get stdoutIsTTY() {
      return !!(io.stdout as NodeJS.WriteStream).isTTY;
    },
    get stderrIsTTY() {
      return !!process.stderr.isTTY;
    },
    get columns() {
      return (io.stdoutIsTTY ? process.stdout.columns : process.stderr.columns) ?? 0;
    },
    writeHelp(text: string) {
      try {
        writeSync(1, text);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EPIPE') return;
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return void io.stdout.write(text);
        writeFailure = writeFailureMessage(error as NodeJS.ErrnoException);
      }
    },
    onPager(exited) {
      pager = exited;
    },
    onLost(note) {
      lostNote = note;
    },
  };
  if (!tricksOn) delete io.writeHelp;
  // The prompt module loads on the first question.
  const prompt: Prompt = {
    secret: async (question) => (await import('./app.js')).terminalPrompt(process.stdin, process.stderr, controller.signal).secret(question),
    confirm: async (question) => (await import('./app.js')).terminalPrompt(process.stdin, process.stderr, controller.signal).confirm(question),
    text: async (question) => (await import('./app.js')).terminalPrompt(process.stdin, process.stderr, controller.signal).text?.(question) ?? '',
  };
  let code = await main(argv, { io, env: process.env, signal: controller.signal, version: VERSION, prompt, helpWidth: helpWidth() });
  if (pager) await pager;
  // Writes to a pipe are asynchronous: process.exit would drop what a slow reader has not taken yet.
  await Promise.all([written(stdout), written(process.stderr)]);
  // A write to a file fails on the next tick (a full disk): its error must come before the exit.
  await new Promise((resolve) => setImmediate(resolve));
  const failed = (stdout as { writableErrored?: NodeJS.ErrnoException | null } | undefined)?.writableErrored;
  if (failed) cannotWrite(failed);
  if (writeFailure) {
    sayWriteFailure(writeFailure);
    code = EXIT_FAILURE;
  }
  process.exit(code);
}

/** "Cannot write the output: ENOSPC." and, when given, what was lost with it. */
function writeFailureMessage(error: NodeJS.ErrnoException, lost?: string): string {
  return `Cannot write the output: ${error.code ?? error.message}.${lost ? ` ${lost}` : ''}`;
}

/** Settles once everything written to the stream so far has gone out (or the stream failed). */
function written(stream: NodeJS.WriteStream | undefined): Promise<void> {
  if (!stream || stream.destroyed || stream.writableLength === 0) return Promise.resolve();
  // Writes complete in order: an empty write's callback comes after all the earlier ones.
  return new Promise((resolve) => stream.write('', () => resolve()));
}
