// A list to choose from on the terminal: ↑/↓ (or k/j) move, Enter chooses, Esc or Ctrl-C ends
// with exit 130. The items arrive cleaned and fitted to the width (Terminal.choose); this draws
// them on stderr and reads keys raw, as the other prompts do.
import type { Readable, Writable } from 'node:stream';
import { InterruptedError } from '../errors.js';

type RawStdin = Readable & { setRawMode?: (raw: boolean) => void; isRaw?: boolean };

// A key's escape sequence (arrows: ESC [ A, or ESC O A in application mode), or a lone Esc.
const KEY = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|O.)?/;

export type ChooseKey = 'up' | 'down' | 'enter' | 'cancel' | 'other';

/** The keys in a chunk of raw input, in order. */
export function keysOf(chunk: string): ChooseKey[] {
  const keys: ChooseKey[] = [];
  let rest = chunk;
  while (rest.length > 0) {
    if (rest[0] === '\x1b') {
      const sequence = KEY.exec(rest)?.[0] ?? '\x1b';
      rest = rest.slice(sequence.length);
      keys.push(sequence === '\x1b' ? 'cancel' : /^\x1b[[O]A$/.test(sequence) ? 'up' : /^\x1b[[O]B$/.test(sequence) ? 'down' : 'other');
      continue;
    }
    const ch = rest[0] as string;
    rest = rest.slice(1);
    keys.push(ch === '\r' || ch === '\n' ? 'enter' : ch === '\x03' || ch === '\x04' ? 'cancel' : ch === 'k' ? 'up' : ch === 'j' ? 'down' : 'other');
  }
  return keys;
}

/** Shows question and items, and gives the index chosen; rejects with InterruptedError on Esc, Ctrl-C or end of input. */
export function chooseFrom(stdin: Readable, stderr: Writable, signal: AbortSignal, question: string, items: string[], start = 0): Promise<number> {
  const input = stdin as RawStdin;
  let at = Math.min(Math.max(start, 0), items.length - 1);
  let drawn = 0;
  const draw = () => {
    // Back to the question's line, clear below, draw again.
    const up = drawn > 0 ? `\x1b[${drawn}A\r\x1b[J` : '';
    const lines = [question, ...items.map((item, i) => (i === at ? `> ${item}` : `  ${item}`))];
    stderr.write(`${up}${lines.join('\n')}\n`);
    drawn = lines.length;
  };
  return new Promise((resolve, reject) => {
    const raw = typeof input.setRawMode === 'function';
    const wasRaw = !!input.isRaw;
    if (raw) input.setRawMode?.(true);
    stderr.write('\x1b[?25l');
    draw();
    input.setEncoding('utf8');
    input.resume();
    const finish = (chosen?: number) => {
      input.off('data', onData);
      input.off('end', onEnd);
      signal.removeEventListener('abort', onAbort);
      if (raw) input.setRawMode?.(wasRaw);
      input.pause();
      // The list goes; the question stays, with the answer under it.
      stderr.write(`\x1b[${drawn}A\r\x1b[J${question}\n${chosen === undefined ? '' : `> ${items[chosen] ?? ''}\n`}\x1b[?25h`);
      if (chosen === undefined) reject(new InterruptedError());
      else resolve(chosen);
    };
    const onEnd = () => finish();
    const onAbort = () => finish();
    const onData = (chunk: string) => {
      for (const key of keysOf(chunk)) {
        if (key === 'cancel') return finish();
        if (key === 'enter') return finish(at);
        if (key === 'up') at = (at + items.length - 1) % items.length;
        if (key === 'down') at = (at + 1) % items.length;
      }
      draw();
    };
    if (signal.aborted) return finish();
    signal.addEventListener('abort', onAbort, { once: true });
    input.on('data', onData);
    input.on('end', onEnd);
  });
}
