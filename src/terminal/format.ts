// How values read for people: masked secrets, relative times, labels, display width.
import { cleanLine } from '../common/sanitize.js';
import { displayWidth, graphemes, prefixLength, truncate } from './width.js';

export { displayWidth, truncate } from './width.js';

export { mask } from '../common/secrets.js';

export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return cleanLine(iso);
  const seconds = Math.round((now - then) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  const units: [string, number][] = [
    ['year', 31536000],
    ['month', 2592000],
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    const n = Math.round(abs / size);
    if (n >= 1 && abs >= size * 0.75) {
      const label = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return seconds >= 0 ? `${label} ago` : `in ${label}`;
    }
  }
  return 'just now';
}

/** "1 message", "3 messages". */
/** 55000 → "55,000", as toLocaleString('en-US') writes it, without loading ICU (~10 ms). */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

export function plural(n: number, word: string): string {
  return `${thousands(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** "key_prefix" → "Key prefix", "id" → "ID": TTY labels from field names. */
export function label(field: string): string {
  const words = field
    .replace(/_/g, ' ')
    .replace(/\bid\b/gi, 'ID')
    .replace(/\burl\b/gi, 'URL')
    .replace(/\bapi\b/gi, 'API');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Lines of at most width columns, broken at spaces where possible, each after indent. */
export function wrap(text: string, width: number, indent = ''): string {
  const room = Math.max(20, width - indent.length);
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let rest = line;
    for (;;) {
      const fit = prefixLength(rest, room);
      if (fit === rest.length) break;
      // At the last space that leaves the head within room, else where the room ends (a long word).
      let cut = rest.lastIndexOf(' ', fit);
      if (cut <= 0) cut = fit > 0 ? fit : (graphemes(rest).next().value as string).length;
      out.push(indent + rest.slice(0, cut));
      rest = rest.slice(cut).replace(/^ /, '');
    }
    out.push(indent + rest);
  }
  return out.join('\n');
}

/** One part of a line that fitPieces lays out: ids and times are whole (never cut). */
export interface Piece {
  text: string;
  /** Never shortened: an id, a time, a number. */
  whole?: boolean;
  paint?: (text: string) => string;
  /** What stands before it on the same line; " · " unless given. */
  sep?: string;
}

/**
 * Pieces on lines of at most width columns (cli.md §3): a piece that does not fit goes to the
 * next line (after continuation); one too long for a line of its own ends in … unless whole.
 */
export function fitPieces(
  pieces: Piece[],
  width: number,
  options: { indent?: string; continuation?: string; paintLine?: (line: string) => string } = {},
): string {
  const { indent = '', continuation = indent, paintLine = (line: string) => line } = options;
  const lines: string[] = [];
  let line = indent;
  let used = displayWidth(indent);
  let empty = true;
  for (const piece of pieces) {
    if (!piece.text) continue;
    const sep = piece.sep ?? ' · ';
    let text = piece.text;
    if (!empty && used + sep.length + displayWidth(text) > width) {
      lines.push(line);
      line = continuation;
      used = displayWidth(continuation);
      empty = true;
    }
    const before = empty ? '' : sep;
    const room = width - used - before.length;
    if (!piece.whole && displayWidth(text) > room) text = truncate(text, Math.max(1, room));
    line += before + (piece.paint ? piece.paint(text) : text);
    used += before.length + displayWidth(text);
    empty = false;
  }
  lines.push(line);
  return lines.map((l) => paintLine(l)).join('\n');
}
