// Long output: batched writes, and on a TTY the pager ($WSCTL_PAGER, $PAGER, less -FRX).
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Writable } from 'node:stream';
import { WsctlError } from '../errors.js';

export interface Sink {
  /** Text, or bytes already encoded (a spool read back), which the caller may reuse once the write settles. */
  write(text: string | Uint8Array): void | Promise<void>;
  end(): Promise<void>;
}

/** Batches many small writes into large ones, waiting when the stream asks for it. */
export function bufferedSink(stream: Writable, onEnd: () => Promise<void> = async () => {}, flushEvery = 1 << 16): Sink {
  let pending: string[] = [];
  let size = 0;
  let broken = false;
  const onError = () => {
    broken = true; // the reader went away (a pager quit early): stop writing, quietly
  };
  stream.on('error', onError);
  const send = async (data: string | Uint8Array) => {
    if (stream.write(data) || broken) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('error', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('error', done);
      stream.on('close', done);
    });
  };
  const flush = async () => {
    if (pending.length === 0 || broken) return;
    const text = pending.join('');
    pending = [];
    size = 0;
    await send(text);
  };
  return {
    write(text) {
      if (typeof text !== 'string')
        return flush().then(() => (broken ? undefined : new Promise<void>((resolve) => stream.write(text, () => resolve()))));
      pending.push(text);
      size += text.length;
      if (size >= flushEvery) return flush();
    },
    async end() {
      await flush();
      stream.off('error', onError);
      await onEnd();
    },
  };
}

export interface PagerOptions {
  command: string;
  env: Record<string, string | undefined>;
  /** Told when a pager starts, so Ctrl-C waits for it to exit instead of leaving it on the screen. */
  onStart?: (exited: Promise<void>) => void;
  /** Where the output goes when the pager cannot be started (stdout), and the one warning saying so. */
  direct: () => Sink;
  warn: (message: string) => void;
}

/** The program a pager command starts (its first word), when it can be told without a shell. */
function programOf(command: string): string | undefined {
  const first = /^\s*([^\s|&;<>()]+)/.exec(command)?.[1];
  // Quotes, variables, assignments and escapes need the shell to say what runs.
  if (!first || /["'$`\\=*?[~]/.test(first)) return undefined;
  return first;
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Whether `program` names an executable file, as the shell would find it on PATH. */
function canRun(program: string, env: Record<string, string | undefined>): boolean {
  const runnable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes('/')) return runnable(program);
  // Without PATH the shell searches its default one.
  return (env.PATH ?? DEFAULT_PATH).split(delimiter).some((dir) => runnable(join(dir || '.', program)));
}

/**
 * A sink into the pager; the promise it ends with settles once the pager has exited. A pager that
 * cannot be started is skipped with one warning (the output goes straight to stdout); one that
 * fails (a non-zero exit, a signal) ends in an error, since it may not have shown everything.
 */
export async function openPager(options: PagerOptions): Promise<Sink> {
  const skip = (why: string) => {
    options.warn(`The pager '${options.command}' could not be started (${why}): printing directly. Set WSCTL_PAGER, or pass --no-pager.`);
    return options.direct();
  };
  const program = programOf(options.command);
  if (program !== undefined && process.platform !== 'win32' && !isBuiltin(program) && !canRun(program, options.env))
    return skip('not found');
  const { spawn } = await import('node:child_process');
  const child = spawn(options.command, {
    shell: true,
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...options.env, LESS: options.env.LESS ?? 'FRX' } as NodeJS.ProcessEnv,
  });
  const started = await new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', resolve);
  });
  if (started) return skip((started as NodeJS.ErrnoException).code ?? started.message);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
    child.on('error', () => resolve({ code: null, signal: null }));
  });
  // A pager that quits early closes its end: writes after that are dropped (bufferedSink), not errors.
  child.stdin.on('error', () => {});
  const done = exited.then(() => undefined);
  options.onStart?.(done);
  return bufferedSink(child.stdin, async () => {
    child.stdin.end();
    const { code, signal } = await exited;
    // Quitting early (q in less) is exit 0: the person saw what they wanted; Ctrl-C is exit 130 (main.ts).
    if (code === 0 || signal === 'SIGINT') return;
    const how = signal ? `was stopped by ${signal}` : code === null ? 'failed' : `exited with status ${code}`;
    throw new WsctlError(
      `The pager '${options.command}' ${how}, so the output may not have been shown in full. Run again with --no-pager, or set WSCTL_PAGER.`,
    );
  });
}

/** Words the shell runs itself, whatever PATH holds. */
function isBuiltin(word: string): boolean {
  return ['exec', 'command', 'env', 'eval', 'builtin', 'nohup', 'time', '.', ':', 'true', 'false', 'echo', 'printf', 'read'].includes(word);
}
