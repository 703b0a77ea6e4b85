// Entry point: parses argv, runs the command, and maps every error to its exit code.
// The only place that decides an exit code; bin/wsctl calls cli(), tests call main().
import { isatty } from 'node:tty';
import type { Command } from 'commander';
import type { App, Result } from './command.js';
import { createCtx, type BaseCtx, type Globals } from './context.js';
import { ExitCode, InterruptedError, UsageError, WsctlError } from './errors.js';
import { clean, type IO } from './output.js';
import { buildProgram } from './program.js';
import { terminalPrompt } from './prompt.js';

declare const __WSCTL_VERSION__: string;
export const VERSION = typeof __WSCTL_VERSION__ === 'string' ? __WSCTL_VERSION__ : '0.0.0-dev';

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/** "wsctl keys create" for the words of argv that name commands: where a usage hint points. */
function commandPath(program: Command, argv: string[]): string {
  const names = ['wsctl'];
  let command = program;
  for (const word of argv) {
    if (word.startsWith('-')) continue;
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

function reportError(error: unknown, base: BaseCtx, outcome: Outcome): number {
  const { stderr } = base.io;
  const known = error instanceof WsctlError;
  const code = known ? error.exitCode : ExitCode.failure;
  if (code === ExitCode.ok) return code;
  const raw = known ? error.message : `Unexpected error: ${(error as Error)?.message ?? String(error)}. Run with --debug for details.`;
  // Messages quote ids and service text: keep them from driving the terminal.
  const message = clean(raw);
  if (outcome.json) {
    const doc: Record<string, unknown> = { message, exit_code: code };
    if (known && error.status !== undefined) doc.status = error.status;
    if (known && error.requestId) doc.request_id = error.requestId;
    if (known && error.details !== undefined) doc.details = error.details;
    stderr.write(`${JSON.stringify({ error: doc }, null, 2)}\n`);
  } else {
    const requestId = known && error.requestId ? ` (request id ${error.requestId})` : '';
    stderr.write(`Error: ${message}${requestId}\n`);
  }
  if (outcome.debug && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  return code;
}

export async function main(argv: string[], base: BaseCtx): Promise<number> {
  const outcome: Outcome = { code: 0, json: argv.includes('--json'), debug: argv.includes('--debug') || base.env.WSCTL_DEBUG === '1' };
  let usageMessage: string | undefined;

  const app: App = {
    async run(command, work) {
      const globals = rootOf(command).opts<Globals>();
      outcome.json = !!globals.json;
      outcome.debug ||= !!globals.debug;
      const ctx = await createCtx(base, globals);
      try {
        const result: Result | void = await work(ctx);
        if (!result) return;
        if (ctx.json) ctx.out.printJson(result.json);
        else await result.human(ctx.out);
        if (result.failure) throw new WsctlError(result.failure);
        if (result.exitCode) {
          outcome.code = result.exitCode;
          if (result.exitMessage) ctx.out.info(`Error: ${result.exitMessage}`);
        }
      } finally {
        await ctx.close();
      }
    },
  };

  const program = buildProgram(app, VERSION, {
    writeOut: (text) => base.io.stdout.write(text),
    // Commander writes help here when a noun is given without a verb: show it as help (gh does too).
    writeErr: (text) => base.io.stdout.write(text),
    onUsageError: (message) => {
      usageMessage = message.replace(/^error:\s*/i, '').trim();
    },
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return outcome.code;
  } catch (error) {
    if (base.signal.aborted) return reportError(new InterruptedError(), base, outcome);
    const commander = error as { code?: string; exitCode?: number };
    if (typeof commander.code === 'string' && commander.code.startsWith('commander.')) {
      if (commander.exitCode === 0 || ['commander.help', 'commander.helpDisplayed', 'commander.version'].includes(commander.code)) return 0;
      const hint = ` Run \`${commandPath(program, argv)} --help\` for usage.`;
      const said = (usageMessage ?? (error as Error).message).replace(/([^.!?])$/, '$1.');
      return reportError(new UsageError(`${said}${hint}`), base, outcome);
    }
    return reportError(error, base, outcome);
  }
}

/** The files generated from the command tree: completion scripts and the README's command list. */
export async function generatedFiles(readme?: string): Promise<Record<string, string>> {
  const [{ completionScript, COMPLETION_FILES }, { commandReference, replaceReference }] = await Promise.all([
    import('./completion/index.js'),
    import('./reference.js'),
  ]);
  let help = '';
  const app: App = { run: async () => {} };
  const program = buildProgram(app, VERSION, { writeOut: (t) => (help += t), writeErr: () => {}, onUsageError: () => {} });
  const files: Record<string, string> = {};
  for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
    files[`completions/${file}`] = completionScript(program, shell as keyof typeof COMPLETION_FILES);
  }
  if (readme !== undefined) {
    const helpOf = (command: Command) => {
      help = '';
      command.outputHelp();
      return help;
    };
    files['README.md'] = replaceReference(readme, commandReference(program, helpOf));
  }
  return files;
}

/** The real process: its streams, environment, Ctrl-C, and a closed stdout pipe. */
export async function cli(argv: string[]): Promise<void> {
  const controller = new AbortController();
  process.on('SIGINT', () => {
    controller.abort();
    // Whatever still runs (a prompt, a pager) gets a moment, then the process goes.
    setTimeout(() => process.exit(ExitCode.interrupted), 1000).unref();
  });
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
  });
  const io: IO = {
    // process.stdin is made on first touch; most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: isatty(0),
    stdoutIsTTY: !!process.stdout.isTTY,
    stderrIsTTY: !!process.stderr.isTTY,
    columns: process.stdout.columns ?? 80,
  };
  const code = await main(argv, { io, env: process.env, signal: controller.signal, version: VERSION, prompt: terminalPrompt(io) });
  process.exit(code);
}
