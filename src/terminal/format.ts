// How values read for people: masked secrets, relative times, labels, display width.
import { cleanLine } from '../sanitize.js';

/** cli.md §2: first 4 and last 4 characters around an ellipsis, or **** when short. */
export function mask(secret: string | null | undefined): string {
  if (!secret) return '';
  return secret.length >= 12 ? `${secret.slice(0, 4)}…${secret.slice(-4)}` : '****';
}

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
  const words = field.replace(/_/g, ' ').replace(/\bid\b/gi, 'ID').replace(/\burl\b/gi, 'URL').replace(/\bapi\b/gi, 'API');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// East Asian wide and fullwidth ranges and emoji: two columns each on a terminal.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const COMBINING = /[\u0300-\u036f\u1ab0-\u1aff\u20d0-\u20ff\ufe00-\ufe0f]/u;
const ASCII = /^[\x20-\x7e]*$/;

/** Columns a string takes on a terminal (after cleanLine: no controls left). */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += COMBINING.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return width;
}

/** The longest start of text that fits in width columns, ending in … when cut. */
export function truncate(text: string, width: number): string {
  if (text.length <= width && ASCII.test(text)) return text;
  if (displayWidth(text.slice(0, width * 2 + 2)) <= width && text.length <= width * 2 + 2) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = COMBINING.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

/** Lines of at most width columns, broken at spaces where possible, each after indent. */
export function wrap(text: string, width: number, indent = ''): string {
  const room = Math.max(20, width - indent.length);
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let rest = line;
    while (displayWidth(rest) > room) {
      const head = truncate(rest, room + 1).replace(/…$/, '');
      let cut = head.lastIndexOf(' ');
      if (cut <= 0) cut = head.length;
      out.push(indent + rest.slice(0, cut));
      rest = rest.slice(cut).replace(/^ /, '');
    }
    out.push(indent + rest);
  }
  return out.join('\n');
}
