// JSON documents as wsctl prints them (cli.md §3): the service's own text re-indented, never its
// values parsed and written again, so that numbers (`1.0`, `-0`, `100000000000000000001`,
// `1e1000`), string escapes and key order stay as the service wrote them; only the whitespace
// between tokens changes. Every document, streamed or not, on a terminal or piped, has its C0, DEL,
// C1, bidi and invisible characters written as \u escapes: the same values, never raw.
import { escapeInvisible } from '../sanitize.js';
import type { Sink } from './pager.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const endsScalar = (c: number) => c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === COLON || isSpace(c);

/** Just past the string whose text starts after its opening quote at `from`. */
function stringEnd(text: string, from: number): number {
  for (let at = from; ; ) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    // Escaped only by an odd run of backslashes before it.
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/**
 * One JSON text laid out again: 2-space indented (its lines after the first start with `indent`)
 * or, when `pretty` is false, on one line. The text must be valid JSON (it was parsed, or its
 * pieces were): tokens are copied, not checked. Empty objects and arrays read `{}` and `[]`, as
 * JSON.stringify writes them.
 */
function layout(text: string, pretty: boolean, indent: string): string {
  let out = '';
  let nl = pretty ? `\n${indent}` : '';
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i + 1);
      out += text.slice(i, end);
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      let j = i + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      // '}' and ']' are two code points after '{' and '['.
      if (text.charCodeAt(j) === c + 2) {
        out += c === OPEN_BRACE ? '{}' : '[]';
        i = j + 1;
      } else {
        if (pretty) nl += '  ';
        out += (c === OPEN_BRACE ? '{' : '[') + nl;
        i = j;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (pretty) nl = nl.slice(0, -2);
      out += nl + (c === CLOSE_BRACE ? '}' : ']');
      i++;
    } else if (c === COMMA) {
      out += `,${nl}`;
      i++;
    } else if (c === COLON) {
      out += pretty ? ': ' : ':';
      i++;
    } else if (isSpace(c)) i++;
    else {
      let j = i + 1;
      while (j < n && !endsScalar(text.charCodeAt(j))) j++;
      out += text.slice(i, j);
      i = j;
    }
  }
  return out;
}

/** The service's JSON text 2-space indented, its invisible characters escaped; lines after the first start with `indent`. */
export function indentedJson(text: string, indent = ''): string {
  return escapeInvisible(layout(text, true, indent));
}

/** The service's JSON text on one line (newline-delimited output), its invisible characters escaped. */
export function compactJson(text: string): string {
  return escapeInvisible(layout(text, false, ''));
}

/** A value wsctl made (not the service's text) as a document: JSON.stringify's, its invisible characters escaped. */
export function valueJson(value: unknown, pretty: boolean): string {
  return escapeInvisible(JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null');
}

/**
 * An object written field by field as its parts arrive, each the service's JSON text; one field
 * may be an array written item by item. `--json` of a 50 MB conversation never holds the document.
 */
export class JsonObjectWriter {
  private fields = 0;
  private items = 0;

  constructor(private readonly sink: Sink) {}

  /** A field: its key and value as the service wrote them (the key with its quotes). */
  field(keyText: string, valueText: string): void | Promise<void> {
    return this.sink.write(`${this.fields++ ? ',' : '{'}\n  ${indentedJson(keyText)}: ${indentedJson(valueText, '  ')}`);
  }

  arrayStart(keyText: string): void | Promise<void> {
    this.items = 0;
    return this.sink.write(`${this.fields++ ? ',' : '{'}\n  ${indentedJson(keyText)}: [`);
  }

  item(text: string): void | Promise<void> {
    return this.sink.write(`${this.items++ ? ',' : ''}\n    ${indentedJson(text, '    ')}`);
  }

  arrayEnd(): void | Promise<void> {
    return this.sink.write(this.items ? '\n  ]' : ']');
  }

  end(): void | Promise<void> {
    return this.sink.write(this.fields ? '\n}\n' : '{}\n');
  }
}
