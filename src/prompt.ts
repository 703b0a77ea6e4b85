// Questions to the person at the terminal (hidden secrets, [y/N]) and reading piped stdin.
import type { Readable } from 'node:stream';
import { InterruptedError, UsageError } from './errors.js';
import type { IO } from './output.js';

export interface Prompt {
  /** Asks on stderr and reads a line from the terminal without echoing it. */
  secret(question: string): Promise<string>;
  /** Asks a [y/N] question; anything but y/yes is no. */
  confirm(question: string): Promise<boolean>;
}

type RawStdin = Readable & { setRawMode?: (raw: boolean) => void };

export function terminalPrompt(io: IO): Prompt {
  const stdin = io.stdin as RawStdin;

  function readLine(hidden: boolean): Promise<string> {
    return new Promise((resolve, reject) => {
      let answer = '';
      const raw = hidden && typeof stdin.setRawMode === 'function';
      if (raw) stdin.setRawMode?.(true);
      stdin.setEncoding('utf8');
      stdin.resume();
      const finish = (error?: Error) => {
        stdin.off('data', onData);
        stdin.off('end', onEnd);
        if (raw) stdin.setRawMode?.(false);
        stdin.pause();
        if (hidden) io.stderr.write('\n');
        if (error) reject(error);
        else resolve(answer);
      };
      const onEnd = () => finish();
      const onData = (chunk: string) => {
        for (const ch of chunk) {
          if (ch === '\u0003') return finish(new InterruptedError());
          if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
          if (ch === '\u007f' || ch === '\b') answer = answer.slice(0, -1);
          else answer += ch;
        }
      };
      stdin.on('data', onData);
      stdin.on('end', onEnd);
    });
  }

  return {
    async secret(question) {
      io.stderr.write(question);
      return readLine(true);
    },
    async confirm(question) {
      io.stderr.write(`${question} [y/N] `);
      const answer = (await readLine(false)).trim().toLowerCase();
      return answer === 'y' || answer === 'yes';
    },
  };
}

/** All of stdin as text, bounded so that a runaway pipe cannot fill memory. */
export async function readStdin(io: IO, limitBytes = 16 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limitBytes) throw new UsageError(`Standard input is larger than ${limitBytes / 1048576} MiB.`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The first line of stdin, for keys piped in. */
export async function readFirstLine(io: IO): Promise<string> {
  return (await readStdin(io)).split(/\r?\n/, 1)[0] ?? '';
}
