// A --jq filter that is only a path (`.keys[].id`, `.items[0] | .name`, `.`) read straight from the
// document, without the jq engine: a speed trick (src/tricks/registry.ts lists them all). It answers only
// where its bytes are certainly jq's own; anything else (a value jq would print differently, or a
// step jq would fail on, with its own message) is left to the engine, which runs the filter from
// the start. test/jq-path.test.ts compares the two on documents made to tell them apart.
import { BACKSLASH } from '../common/json-bytes.js';

/** One step of a path: `.name`, `[n]` or `[]`. */
export type Step = { field: string } | { index: number } | { each: true };

// Words jq reads as its own; `.end` and the like are left to the engine.
const KEYWORDS = new Set([
  '__loc__',
  'and',
  'as',
  'catch',
  'def',
  'elif',
  'else',
  'end',
  'foreach',
  'if',
  'import',
  'include',
  'label',
  'module',
  'or',
  'reduce',
  'then',
  'try',
]);

/** The steps of a filter made of paths joined by `|`, each starting with `.`; undefined for any other filter. */
export function plainPath(expression: string): Step[] | undefined {
  const steps: Step[] = [];
  for (const part of expression.split('|')) {
    // Only what jq's lexer skips: a no-break space, say, is jq's syntax error.
    const path = part.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
    if (!path.startsWith('.')) return undefined;
    // Whitespace inside a path, `..`, `?`, strings and the rest of the language: the engine's.
    const token = /\.([A-Za-z_][A-Za-z0-9_]*)|\.?\[(-?(?:0|[1-9][0-9]{0,8}))?\]/y;
    let at = path === '.' ? 1 : 0;
    while (at < path.length) {
      token.lastIndex = at;
      const match = token.exec(path);
      if (!match) return undefined;
      const [text, field, index] = match;
      if (field !== undefined) {
        if (KEYWORDS.has(field)) return undefined;
        steps.push({ field });
      } else steps.push(index === undefined ? { each: true } : { index: Number(index) });
      at += text.length;
    }
  }
  return steps;
}

/** A value that stops the walk: the engine answers instead. */
const ENGINE = Symbol('the engine answers');

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What `jq -c` (raw: `jq -r -c`) prints for the steps on the document (its JSON text): one result
 * per line. Undefined when jq itself must answer.
 */
export function followPath(json: string, steps: Step[], raw: boolean): string | undefined {
  const lines: string[] = [];
  // jq 1.8 prints a number as the text wrote it, JSON.stringify in JavaScript's shortest form:
  // the two agree when every number in the text is written in that form (asked once, if at all).
  let shortest: boolean | undefined;
  const numbersAsWritten = () => (shortest ??= numbersInShortestForm(json));
  try {
    walk(JSON.parse(json), 0);
  } catch (error) {
    if (error === ENGINE) return undefined;
    throw error;
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;

  function walk(value: unknown, from: number): void {
    const step = steps[from];
    if (!step) {
      lines.push(raw && typeof value === 'string' ? rawString(value) : printed(value, numbersAsWritten));
      return;
    }
    const next = from + 1;
    if ('field' in step) {
      if (value === null) return walk(null, next);
      if (!isObject(value)) throw ENGINE;
      return walk(Object.hasOwn(value, step.field) ? value[step.field] : null, next);
    }
    if ('index' in step) {
      if (value === null) return walk(null, next);
      if (!Array.isArray(value)) throw ENGINE;
      const at = step.index < 0 ? value.length + step.index : step.index;
      return walk(at >= 0 && at < value.length ? value[at] : null, next);
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(item, next);
      return;
    }
    if (!isObject(value)) throw ENGINE;
    // Keys that differ only in a lone surrogate are one key for jq (each is read as U+FFFD); jq
    // goes through the keys in the document's order, which JSON.parse keeps but for array indexes.
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key) || ARRAY_INDEX.test(key)) throw ENGINE;
      walk(item, next);
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** jq -r's string: its characters as they are, when jq would read them back the same. */
function rawString(value: string): string {
  if (LONE_SURROGATE.test(value)) throw ENGINE;
  return value;
}

/**
 * jq -c's text of a value, where it is JSON.stringify's: no exponent, no DEL, no lone surrogate,
 * numbers written in the document as JavaScript writes them (numbersAsWritten), and no key that is
 * an array index: JSON.parse puts those first, where jq keeps the document's order.
 */
function printed(value: unknown, numbersAsWritten: () => boolean): string {
  check(value);
  return JSON.stringify(value);

  function check(value: unknown): void {
    if (typeof value === 'string') {
      // jq escapes DEL as \u007f, and reads a lone surrogate as U+FFFD.
      if (value.includes('\x7f') || LONE_SURROGATE.test(value)) throw ENGINE;
    } else if (typeof value === 'number') {
      // jq 1.8 prints 1e+21 as 1E+21.
      if (!Number.isFinite(value) || String(value).includes('e') || !numbersAsWritten()) throw ENGINE;
    } else if (Array.isArray(value)) {
      for (const item of value) check(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (ARRAY_INDEX.test(key)) throw ENGINE;
        check(key);
        check(item);
      }
    }
  }
}

/** A key JavaScript orders first: an array index (up to 2^32 - 2). */
const ARRAY_INDEX =
  /^(?:0|[1-9][0-9]{0,8}|[1-3][0-9]{9}|4[01][0-9]{8}|42[0-8][0-9]{7}|429[0-3][0-9]{6}|4294[0-8][0-9]{5}|42949[0-5][0-9]{4}|429496[0-6][0-9]{3}|4294967[01][0-9]{2}|42949672[0-8][0-9]|429496729[0-4])$/;

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const MINUS = 0x2d;

/**
 * Whether every number in the JSON text is written as JavaScript writes it (`1.5`, `100`; not
 * `1.0`, `1E2`, `-0` or `100000000000000000001`). Strings are skipped by native searches.
 */
export function numbersInShortestForm(json: string): boolean {
  const number = /-?[0-9][-+.0-9eE]*/y;
  for (let at = 0; at < json.length; ) {
    const quote = json.indexOf('"', at);
    const end = quote < 0 ? json.length : quote;
    for (let i = at; i < end; i++) {
      const code = json.charCodeAt(i);
      if ((code < DIGIT_0 || code > DIGIT_9) && code !== MINUS) continue;
      number.lastIndex = i;
      const literal = number.exec(json)?.[0] ?? '';
      if (String(Number(literal)) !== literal) return false;
      i += literal.length - 1;
    }
    if (quote < 0) break;
    at = stringEnd(json, quote);
  }
  return true;
}

/** Where the string that starts at json[quote] ends (past its closing quote). */
function stringEnd(json: string, quote: number): number {
  for (let from = quote + 1; ; ) {
    const close = json.indexOf('"', from);
    if (close < 0) return json.length;
    let backslashes = 0;
    while (json.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close + 1;
    from = close + 1;
  }
}
