// A list to choose one entry from, on stderr (cli.md §10): arrow keys move, typing filters,
// Enter chooses, Esc or Ctrl-C cancels. Every line is sanitised (entries are service text) and
// cut to the terminal's width by columns, wide characters included, so a line never wraps and
// redrawing in place stays exact.
import type { Readable, Writable } from 'node:stream';
import { InterruptedError } from '../errors.js';
import { cleanLine } from '../common/sanitize.js';
import { displayWidth, truncate } from './width.js';

/** One entry of a list to choose from: its value and what describes it (service text, sanitised when drawn). */
export interface Choice {
  id: string;
  description: string;
}

type RawStdin = Readable & { setRawMode?: (raw: boolean) => void; isRaw?: boolean };

/** Entries shown at once; the rest scroll. */
const ROWS = 8;
const KEY = /^(?:\x1b\[[0-?]*[ -/]*[@-~]|\x1bO.|\x1b|[\s\S])/u;

export interface ListState {
  filter: string;
  /** Index in the matches. */
  at: number;
}

export type KeyOutcome = { done: 'chosen'; id: string } | { done: 'cancelled' } | { done?: undefined };

/** The entries whose id or description holds the filter, case-insensitively. */
export function matches(items: Choice[], filter: string): Choice[] {
  const f = filter.toLowerCase();
  return items.filter((c) => cleanLine(c.id).toLowerCase().includes(f) || cleanLine(c.description).toLowerCase().includes(f));
}

/** Applies keys to the state; what they end in, if they end it. */
export function pressKeys(state: ListState, items: Choice[], input: string): KeyOutcome {
  let rest = input;
  while (rest.length > 0) {
    const key = KEY.exec(rest)?.[0] ?? rest.charAt(0);
    rest = rest.slice(key.length);
    const shown = matches(items, state.filter);
    if (key === '\x03' || (key === '\x1b' && rest === '')) return { done: 'cancelled' };
    if (key === '\r' || key === '\n') {
      const chosen = shown[state.at];
      if (chosen) return { done: 'chosen', id: chosen.id };
    } else if (key === '\x1b[A' || key === '\x1bOA' || key === '\x10') state.at = Math.max(0, state.at - 1);
    else if (key === '\x1b[B' || key === '\x1bOB' || key === '\x0e') state.at = Math.min(Math.max(0, shown.length - 1), state.at + 1);
    else if (key === '\x7f' || key === '\b') {
      state.filter = Array.from(state.filter).slice(0, -1).join('');
      state.at = 0;
    } else if (key === '\x15') {
      state.filter = '';
      state.at = 0;
    } else if (key.length === 1 || (key.length === 2 && key.codePointAt(0)! > 0xffff)) {
      if (cleanLine(key) === key && key >= ' ') {
        state.filter += key;
        state.at = 0;
      }
    }
  }
  return {};
}

/** The lines of the list as drawn: the question with the filter, then a window of entries around the one selected. */
export function listLines(question: string, items: Choice[], state: ListState, width: number): string[] {
  const fit = (text: string) => truncate(text, Math.max(1, width - 1));
  const shown = matches(items, state.filter);
  const lines = [fit(`? ${question} (type to filter, ↑/↓, Enter; Esc cancels): ${cleanLine(state.filter)}`)];
  if (shown.length === 0) return [...lines, fit('  (nothing matches)')];
  const start = Math.min(Math.max(0, state.at - ROWS + 1), Math.max(0, shown.length - ROWS));
  const idWidth = Math.min(Math.max(...shown.map((c) => displayWidth(cleanLine(c.id)))), Math.max(8, Math.floor(width / 2)));
  for (let i = start; i < Math.min(shown.length, start + ROWS); i++) {
    const c = shown[i] as Choice;
    const id = truncate(cleanLine(c.id), idWidth);
    const description = cleanLine(c.description);
    const pad = ' '.repeat(Math.max(0, idWidth - displayWidth(id)));
    lines.push(fit(`${i === state.at ? '❯' : ' '} ${id}${description ? `${pad}  ${description}` : ''}`));
  }
  if (shown.length > ROWS) lines.push(fit(`  (${shown.length} entries)`));
  return lines;
}

export function chooseFromList(
  stdin: Readable,
  stderr: Writable,
  signal: AbortSignal,
  question: string,
  items: Choice[],
  width: number,
): Promise<string> {
  const input = stdin as RawStdin;
  const state: ListState = { filter: '', at: 0 };
  let drawn = 0;
  const draw = (lines: string[]) => {
    // Back to the list's first line, cleared to the end of the screen, then the lines again.
    const up = drawn > 1 ? `\x1b[${drawn - 1}A` : '';
    stderr.write(`${drawn > 0 ? `\r${up}\x1b[J` : ''}${lines.join('\n')}`);
    drawn = lines.length;
  };
  return new Promise((resolve, reject) => {
    const raw = typeof input.setRawMode === 'function';
    const wasRaw = !!input.isRaw;
    if (raw) input.setRawMode?.(true);
    stderr.write('\x1b[?25l');
    draw(listLines(question, items, state, width));
    input.setEncoding('utf8');
    input.resume();
    const finish = (outcome: KeyOutcome) => {
      input.off('data', onData);
      input.off('end', onEnd);
      signal.removeEventListener('abort', onAbort);
      if (raw) input.setRawMode?.(wasRaw);
      input.pause();
      const said = outcome.done === 'chosen' ? cleanLine(outcome.id) : '(cancelled)';
      draw([truncate(`? ${question}: ${said}`, Math.max(1, width - 1))]);
      stderr.write('\n\x1b[?25h');
      if (outcome.done === 'chosen') resolve(outcome.id);
      else reject(new InterruptedError());
    };
    const onData = (chunk: string) => {
      const outcome = pressKeys(state, items, chunk);
      if (outcome.done) return finish(outcome);
      draw(listLines(question, items, state, width));
    };
    const onEnd = () => finish({ done: 'cancelled' });
    const onAbort = () => finish({ done: 'cancelled' });
    if (signal.aborted) return finish({ done: 'cancelled' });
    signal.addEventListener('abort', onAbort, { once: true });
    input.on('data', onData);
    input.on('end', onEnd);
  });
}
