// The shell: the real process around the runner, and the only module that touches `process`:
// its streams, environment, Ctrl-C, a closed or full stdout, the last-resort handlers and the exit.
import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { IO } from '../terminal/index.js';
import type { Prompt } from '../terminal/prompt.js';
import { debugFromEnv, EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, unexpected } from './report.js';
import { main, VERSION } from './run.js';
import type { EarlyStart } from '../mcp/early.js';

/** The width help wraps at: $COLUMNS, else the terminal's (only asked when stdout is one, and only when help is written). */
function helpWidth(): number | undefined {
  const fromEnv = Number(process.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  // Creating process.stdout costs --help a few ms: only worth it on a terminal.
  return isatty(1) ? process.stdout.columns : undefined;
}

const STALLED = 'wsctl stopped before the command finished: it waited for something that never came (an internal error).';

/**
 * The real process: its streams, environment, Ctrl-C, a closed stdout pipe, and a last resort.
 * `early`: what the launcher read of stdin and answered before loading this (`wsctl mcp`: src/mcp/early.ts).
 */
export async function cli(argv: string[], early?: EarlyStart): Promise<void> {
  const debug = argv.includes('--debug') || debugFromEnv(process.env);
  const json = argv.includes('--json') || argv.includes('--jq');
  // Nothing may end in Node's crash output: anything unexpected is one line and exit 1.
  /** One line on stderr, under --json (or --jq) a compact error document with its reason (cli.md §3, §4). */
  const sayFailure = (message: string, reason: 'local_error' | 'output_lost') =>
    process.stderr.write(json ? `${JSON.stringify({ error: { message, exit_code: EXIT_FAILURE, reason } })}\n` : `Error: ${message}\n`);
  const lastResort = (error: unknown) => {
    sayFailure(unexpected(error), 'local_error');
    if (debug && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exit(EXIT_FAILURE);
  };
  process.on('uncaughtException', lastResort);
  process.on('unhandledRejection', lastResort);
  // Every command ends in process.exit below; an event loop that empties first means something
  // was awaited that can never come, and Node would exit 0 having printed nothing.
  process.on('beforeExit', () => {
    sayFailure(STALLED, 'local_error');
    process.exit(EXIT_FAILURE);
  });

  const controller = new AbortController();
  let pager: Promise<void> | undefined;
  process.on('SIGINT', () => {
    controller.abort();
    // A pager keeps the terminal until it exits, as git waits for it; anything else gets a moment.
    if (pager) pager.then(() => process.exit(EXIT_INTERRUPTED));
    else setTimeout(() => process.exit(EXIT_INTERRUPTED), 1000).unref();
  });
  let stdout: NodeJS.WriteStream | undefined;
  /** Made on first use too: a command that says nothing on stderr never makes it. */
  let stderr: NodeJS.WriteStream | undefined;
  const madeStderr = () => (stderr ??= process.stderr);
  let writeFailure: string | undefined;
  /** What the user must know when the result is lost (the id of a key whose secret was not written). */
  let lostNote: string | undefined;
  const sayWriteFailure = (message: string) => sayFailure(message, 'output_lost');
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
      return madeStderr();
    },
    get stdinIsTTY() {
      // Not process.stdin.isTTY: making that stream for a file or /dev/null loads fs streams,
      // fs/promises and readline (2-5 ms) for every command that never reads stdin.
      return isatty(0);
    },
    get stdoutIsTTY() {
      return !!(io.stdout as NodeJS.WriteStream).isTTY;
    },
    get stderrIsTTY() {
      return !!madeStderr().isTTY;
    },
    get columns() {
      return (io.stdoutIsTTY ? (io.stdout as NodeJS.WriteStream).columns : madeStderr().columns) ?? 0;
    },
    writeHelp(text: string) {
      // A non-blocking pipe takes what fits and says how much: the rest is written again, and when
      // the pipe is full (EAGAIN) the stream takes it, waiting for the reader as long as it needs
      // with Ctrl-C still heard, its errors reported as any output's.
      const bytes = Buffer.from(text);
      let done = 0;
      try {
        while (done < bytes.length) done += writeSync(1, bytes, done, bytes.length - done);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EPIPE') return;
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return void io.stdout.write(bytes.subarray(done));
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
  // The prompt module loads on the first question.
  const prompt: Prompt = {
    secret: async (question) =>
      (await import('./loaded.js')).terminalPrompt(process.stdin, madeStderr(), controller.signal).secret(question),
    confirm: async (question) =>
      (await import('./loaded.js')).terminalPrompt(process.stdin, madeStderr(), controller.signal).confirm(question),
    text: async (question) =>
      (await import('./loaded.js')).terminalPrompt(process.stdin, madeStderr(), controller.signal).text?.(question) ?? '',
    choose: async (question, items, width) =>
      (await import('./loaded.js')).terminalPrompt(process.stdin, madeStderr(), controller.signal).choose?.(question, items, width) ?? '',
  };
  // The launcher's reading comes first: the program reads stdin from where it stopped.
  if (early) process.stdin.unshift(early.read);
  let code = await main(argv, {
    io,
    env: process.env,
    signal: controller.signal,
    version: VERSION,
    prompt,
    helpWidth,
    cwd: process.cwd(),
    initializeAnswered: early?.answered,
    exitsAfter: true,
  });
  if (pager) await pager;
  // Writes to a pipe are asynchronous: process.exit would drop what a slow reader has not taken yet.
  await Promise.all([written(stdout), written(stderr)]);
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
