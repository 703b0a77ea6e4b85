// Entry point: parses argv, runs the command, and maps every error to its exit code.
// The only place that decides an exit code; bin/wsctl calls cli(), tests call main().
// Start-up imports only commander and the command tree; everything else loads when used.
import { writeSync } from 'node:fs';
import type { Command } from 'commander';
import type { App, Result } from './command.js';
import type { BaseCtx, Globals } from './context.js';
import type { IO } from './output.js';
import { buildProgram, invokedNoun, loadCommands } from './program.js';
import type { Prompt } from './prompt.js';

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

async function reportError(error: unknown, base: BaseCtx, outcome: Outcome): Promise<number> {
  const { WsctlError, clean } = await import('./app.js');
  const { stderr } = base.io;
  const known = error instanceof WsctlError;
  const code = known ? error.exitCode : EXIT_FAILURE;
  if (code === EXIT_OK) return code;
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
    loadAll: (program) => loadCommands(program, app, 'all'),
    async run(command, work) {
      const globals = rootOf(command).opts<Globals>();
      outcome.json = !!globals.json;
      outcome.debug ||= !!globals.debug;
      const { createCtx } = await import('./app.js');
      const ctx = await createCtx(base, globals);
      try {
        const result: Result | void = await work(ctx);
        if (!result) return;
        if (ctx.json) await ctx.out.printJson(result.json);
        else await result.human(ctx.out);
        if (result.failure) {
          const { WsctlError } = await import('./app.js');
          throw new WsctlError(result.failure);
        }
        if (result.exitCode) {
          outcome.code = result.exitCode;
          if (result.exitMessage) ctx.out.info(`Error: ${result.exitMessage}`);
        }
      } finally {
        await ctx.close();
      }
    },
  };

  const program = buildProgram(VERSION, {
    writeOut: (text) => (base.io.writeHelp ? base.io.writeHelp(text) : base.io.stdout.write(text)),
    // Commander writes help here when a noun is given without a verb: show it as help (gh does too).
    writeErr: (text) => (base.io.writeHelp ? base.io.writeHelp(text) : base.io.stdout.write(text)),
    onUsageError: (message) => {
      usageMessage = message.replace(/^error:\s*/i, '').trim();
    },
    helpWidth: Number(base.env.COLUMNS) || undefined,
  });

  try {
    await loadCommands(program, app, invokedNoun(argv));
    await program.parseAsync(argv, { from: 'user' });
    return outcome.code;
  } catch (error) {
    const commander = error as { code?: string; exitCode?: number };
    const helpOrVersion = ['commander.help', 'commander.helpDisplayed', 'commander.version'].includes(commander.code ?? '');
    if (!base.signal.aborted && (helpOrVersion || (commander.code?.startsWith('commander.') && commander.exitCode === 0))) return EXIT_OK;
    const { InterruptedError, UsageError } = await import('./app.js');
    if (base.signal.aborted) return reportError(new InterruptedError(), base, outcome);
    if (typeof commander.code === 'string' && commander.code.startsWith('commander.')) {
      const hint = ` Run \`${commandPath(program, argv)} --help\` for usage.`;
      const said = (usageMessage ?? (error as Error).message).replace(/([^.!?])$/, '$1.');
      return reportError(new UsageError(`${said}${hint}`), base, outcome);
    }
    return reportError(error, base, outcome);
  }
}

/** The files generated from the command tree: completion scripts and the README's command list. */
export async function generatedFiles(readme?: string): Promise<Record<string, string>> {
  const { completionScript, COMPLETION_FILES, commandReference, replaceReference } = await import('./app.js');
  let help = '';
  const app: App = { run: async () => {}, loadAll: (p: Command) => loadCommands(p, app, 'all') };
  const program = buildProgram(VERSION, { writeOut: (t) => (help += t), writeErr: () => {}, onUsageError: () => {} });
  await app.loadAll(program);
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
    setTimeout(() => process.exit(EXIT_INTERRUPTED), 1000).unref();
  });
  let stdout: NodeJS.WriteStream | undefined;
  // The streams are made on first use: --version and --help never pay for them.
  const io: IO = {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      if (!stdout) {
        stdout = process.stdout;
        stdout.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'EPIPE') process.exit(0);
        });
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
      return process.stdout.columns ?? 80;
    },
    writeHelp(text: string) {
      try {
        writeSync(1, text);
      } catch {
        io.stdout.write(text);
      }
    },
  };
  // The prompt module loads on the first question.
  const prompt: Prompt = {
    secret: async (question) => (await import('./app.js')).terminalPrompt(io).secret(question),
    confirm: async (question) => (await import('./app.js')).terminalPrompt(io).confirm(question),
  };
  const code = await main(argv, { io, env: process.env, signal: controller.signal, version: VERSION, prompt });
  process.exit(code);
}
