// Questions to the person at the terminal (a hidden secret, [y/N]) and reading piped stdin.
// Both prompts read the terminal raw, so line editing, pasting and Ctrl-C behave the same
// everywhere: Ctrl-C ends at once with a newline and the terminal restored.
import type { Readable, Writable } from 'node:stream';
import { InterruptedError, UsageError } from '../errors.js';

export interface Prompt {
  /** Asks on stderr and reads a line from the terminal without echoing it. */
  secret(question: string): Promise<string>;
  /** Asks a [y/N] question; anything but y/yes is no. */
  confirm(question: string): Promise<boolean>;
  /** Asks on stderr and reads a line from the terminal, echoed. */
  text?(question: string): Promise<string>;
  /** Shows a list on stderr to choose one from (arrows, typing filters, Enter); Esc or Ctrl-C is an InterruptedError. */
  choose?(question: string, items: Choice[], width: number): Promise<string>;
}

import type { Choice } from './choose.js';

export type { Choice };

type RawStdin = Readable & { setRawMode?: (raw: boolean) => void; isRaw?: boolean };

// Escape sequences a terminal sends for keys (arrows, Home, F-keys) and bracketed-paste marks.
const KEY_SEQUENCE = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?/;

/** Applies typed or pasted input to a line; returns the line and whether Enter (or EOF) came. */
export function editLine(line: string, input: string): { line: string; done: boolean; interrupted: boolean } {
  let rest = input;
  while (rest.length > 0) {
    const ch = rest[0] as string;
    if (ch === '\x1b') {
      const sequence = KEY_SEQUENCE.exec(rest)?.[0] ?? ch;
      rest = rest.slice(sequence.length);
      continue;
    }
    rest = rest.slice(1);
    if (ch === '\x03') return { line, done: true, interrupted: true };
    if (ch === '\r' || ch === '\n') return { line, done: true, interrupted: false };
    if (ch === '\x04') {
      if (line === '') return { line, done: true, interrupted: false };
      continue;
    }
    if (ch === '\x7f' || ch === '\b') line = Array.from(line).slice(0, -1).join('');
    else if (ch === '\x15') line = '';
    else if (ch === '\x17') line = line.replace(/\S*\s*$/, '');
    else if (ch >= ' ') line += ch;
  }
  return { line, done: false, interrupted: false };
}

/**
 * What the terminal is sent to show an edit of the answer: only the characters that changed,
 * erased one by one with backspace and typed again. Nothing else is redrawn, so a screen reader
 * hears each key once, and a terminal that cannot move its cursor (TERM=dumb) gets no escape.
 */
export function echoed(before: string, after: string): string {
  const old = Array.from(before);
  const now = Array.from(after);
  let same = 0;
  while (same < old.length && same < now.length && old[same] === now[same]) same++;
  return '\b \b'.repeat(old.length - same) + now.slice(same).join('');
}

export function terminalPrompt(stdin: Readable, stderr: Writable, signal: AbortSignal): Prompt {
  const input = stdin as RawStdin;

  function readLine(question: string, echo: boolean): Promise<string> {
    return new Promise((resolve, reject) => {
      let line = '';
      const raw = typeof input.setRawMode === 'function';
      const wasRaw = !!input.isRaw;
      // Raw before the question shows: keys typed the moment it appears are never echoed.
      if (raw) input.setRawMode?.(true);
      stderr.write(question);
      input.setEncoding('utf8');
      input.resume();
      const finish = (error?: Error) => {
        input.off('data', onData);
        input.off('end', onEnd);
        signal.removeEventListener('abort', onAbort);
        if (raw) input.setRawMode?.(wasRaw);
        input.pause();
        stderr.write('\n');
        if (error) reject(error);
        else resolve(line);
      };
      const onEnd = () => finish();
      const onAbort = () => finish(new InterruptedError());
      const onData = (chunk: string) => {
        const before = line;
        const edit = editLine(line, chunk);
        line = edit.line;
        if (echo && raw) stderr.write(echoed(before, line));
        if (edit.interrupted) return finish(new InterruptedError());
        if (edit.done) return finish();
      };
      if (signal.aborted) return finish(new InterruptedError());
      // A stream already ended sends no 'end' again: a question asked after it is answered empty.
      if (input.readableEnded) return finish();
      signal.addEventListener('abort', onAbort, { once: true });
      input.on('data', onData);
      input.on('end', onEnd);
    });
  }

  return {
    async secret(question) {
      return readLine(question, false);
    },
    async confirm(question) {
      const answer = (await readLine(`${question} [y/N] `, true)).trim().toLowerCase();
      return answer === 'y' || answer === 'yes';
    },
    async text(question) {
      return readLine(question, true);
    },
    async choose(question, items, width) {
      const { chooseFromList } = await import('./choose.js');
      return chooseFromList(input, stderr, signal, question, items, width);
    },
  };
}

/** All of a stream as text, bounded while reading, so a runaway pipe or file cannot fill memory. */
export async function readAll(stream: AsyncIterable<unknown>, what: string, limitBytes = 16 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limitBytes) {
      (stream as { destroy?: () => void }).destroy?.();
      throw new UsageError(`${what} is larger than ${limitBytes / 1048576} MiB.`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** All of stdin as text, bounded. */
export function readStdin(stdin: Readable): Promise<string> {
  return readAll(stdin, 'Standard input');
}

/** The first line of stdin, for keys piped in. */
export async function readFirstLine(stdin: Readable): Promise<string> {
  return (await readStdin(stdin)).split(/\r?\n/, 1)[0] ?? '';
}
