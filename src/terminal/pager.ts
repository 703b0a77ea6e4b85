// Long output: batched writes, and on a TTY the pager ($WSCTL_PAGER, $PAGER, less -FRX).
import type { Writable } from 'node:stream';

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
      if (typeof text !== 'string') return flush().then(() => (broken ? undefined : new Promise<void>((resolve) => stream.write(text, () => resolve()))));
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
}

/** A sink into the pager; the promise it ends with settles once the pager has exited. */
export async function openPager(options: PagerOptions): Promise<Sink> {
  const { spawn } = await import('node:child_process');
  const child = spawn(options.command, {
    shell: true,
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...options.env, LESS: options.env.LESS ?? 'FRX' } as NodeJS.ProcessEnv,
  });
  const exited = new Promise<void>((resolve) => {
    child.on('close', () => resolve());
    child.on('error', () => resolve());
  });
  options.onStart?.(exited);
  return bufferedSink(child.stdin, async () => {
    child.stdin.end();
    await exited;
  });
}
