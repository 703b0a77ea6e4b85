// JSON documents as wsctl prints them (cli.md §3): the service's own bytes re-indented, never its
// values parsed and written again, so that numbers (`1.0`, `-0`, `100000000000000000001`,
// `1e1000`), string escapes and key order stay as the service wrote them; only the whitespace
// between tokens changes. Every document, streamed or not, on a terminal or piped, has its C0, DEL,
// C1, bidi and invisible characters written as \u escapes: the same values, never raw.
//
// The layout works on bytes, not strings: `convo show --json` of 55,000 messages copies each
// message's bytes into a block that is written as it fills (perf-floors.md, P3).
import { isAscii } from 'node:buffer';
import { escapeInvisible } from '../common/sanitize.js';
import type { Sink } from './pager.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../common/json-bytes.js';

const NEWLINE = 0x0a;
const SPACE = 0x20;
const REPLACEMENT = [0xef, 0xbf, 0xbd];

const isSpace = (b: number) => b === SPACE || b === NEWLINE || b === 0x0d || b === 0x09;

/** Whether each BMP character is one that JSON output escapes (sanitize.ts decides): 0 not asked yet, 1 no, 2 yes. */
let escapedBmp: Uint8Array | undefined;

function mustEscape(codePoint: number): boolean {
  if (codePoint > 0xffff) return escapeInvisible(String.fromCodePoint(codePoint)).charCodeAt(0) === BACKSLASH;
  escapedBmp ??= new Uint8Array(0x10000);
  let known = escapedBmp[codePoint] as number;
  if (known === 0) known = escapedBmp[codePoint] = escapeInvisible(String.fromCharCode(codePoint)).charCodeAt(0) === BACKSLASH ? 2 : 1;
  return known === 2;
}

/** The length of the sequence decodeAt read last. */
let decodedLength = 1;

/**
 * The code point of the UTF-8 sequence at src[i], its length in decodedLength; -1 for an invalid
 * one, decodedLength then the length of its maximal subpart (which a decoder reads as one U+FFFD).
 */
function decodeAt(src: Uint8Array, i: number, end: number): number {
  const lead = src[i] as number;
  let need: number;
  let low = 0x80;
  let high = 0xbf;
  let cp: number;
  if (lead >= 0xc2 && lead <= 0xdf) {
    need = 1;
    cp = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    need = 2;
    cp = lead & 0x0f;
    if (lead === 0xe0) low = 0xa0;
    else if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    need = 3;
    cp = lead & 0x07;
    if (lead === 0xf0) low = 0x90;
    else if (lead === 0xf4) high = 0x8f;
  } else {
    decodedLength = 1;
    return -1;
  }
  for (let k = 1; k <= need; k++) {
    const b = i + k < end ? (src[i + k] as number) : -1;
    if (b < low || b > high) {
      decodedLength = k;
      return -1;
    }
    cp = (cp << 6) | (b & 0x3f);
    low = 0x80;
    high = 0xbf;
  }
  decodedLength = need + 1;
  return cp;
}

/**
 * Bytes of JSON laid out into a block that grows as needed: 2-space indented (each line after the
 * first starting with `indent` spaces) or, when not pretty, on one line. The input must be valid
 * JSON (it was parsed, or its pieces were): tokens are copied, not checked. Empty objects and
 * arrays read `{}` and `[]`, as JSON.stringify writes them; bytes that are not UTF-8 read U+FFFD,
 * as they did for JSON.parse.
 */
class Layout {
  buf: Buffer;
  pos = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(Math.max(size, 64));
  }

  /** Room for n more bytes after p; the block (a new one when it grew). */
  private room(p: number, n: number): Buffer {
    if (p + n <= this.buf.length) return this.buf;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, p + n));
    this.buf.copy(bigger, 0, 0, p);
    return (this.buf = bigger);
  }

  /** ASCII text wsctl writes (punctuation, a key it made). */
  ascii(text: string): void {
    // A few bytes each time: a loop costs less than a call into Buffer.write.
    const buf = this.room(this.pos, text.length);
    for (let k = 0; k < text.length; k++) buf[this.pos++] = text.charCodeAt(k);
  }

  json(src: Uint8Array, pretty: boolean, indent: number): void {
    const end = src.length;
    // ASCII without DEL (most JSON): strings are copied whole, nothing in them needs an escape.
    const plain = isAscii(src) && src.indexOf(0x7f) < 0;
    let depth = indent;
    // Each input byte gives at most one output byte, but for what is written apart (room() each time).
    let buf = this.room(this.pos, end);
    let p = this.pos;
    let i = 0;
    // The next quote and backslash at or after where they were last looked for (end when none).
    let quoteAt = -1;
    let slashAt = -1;
    while (i < end) {
      const b = src[i] as number;
      if (b === QUOTE && plain) {
        // A short string is copied byte by byte as it is read; the rest of a long one is found
        // with indexOf and copied at once.
        buf[p++] = b;
        let j = i + 1;
        const shortEnd = Math.min(j + 48, end);
        let c = 0;
        while (j < shortEnd) {
          c = src[j] as number;
          buf[p++] = c;
          j++;
          if (c === QUOTE) break;
          if (c === BACKSLASH) {
            buf[p++] = src[j] as number;
            j++;
          }
        }
        if (c !== QUOTE || j > shortEnd) {
          // Past the short part (j may be one past it, after an escape): find the closing quote.
          const from = j;
          for (;;) {
            if (quoteAt < j) quoteAt = indexIn(src, QUOTE, j, end);
            if (slashAt < j) slashAt = indexIn(src, BACKSLASH, j, end);
            if (slashAt >= quoteAt) break;
            j = slashAt + 2;
          }
          j = quoteAt + 1;
          p += copyBytes(src, buf, p, from, j);
        }
        i = j;
      } else if (b === QUOTE) {
        buf[p++] = b;
        i++;
        while (i < end) {
          const c = src[i] as number;
          if (c === QUOTE) {
            buf[p++] = c;
            i++;
            break;
          }
          if (c === BACKSLASH) {
            // An escape: the backslash and the ASCII character after it (\u's four digits follow as they are).
            buf[p++] = c;
            buf[p++] = src[i + 1] as number;
            i += 2;
          } else if (c >= SPACE && c < 0x7f) {
            buf[p++] = c;
            i++;
          } else {
            // A control character, DEL, or a character of more than one byte.
            const cp = c < 0x80 ? c : decodeAt(src, i, end);
            const length = c < 0x80 ? 1 : decodedLength;
            if (cp >= 0x80 && !mustEscape(cp)) {
              for (let k = 0; k < length; k++) buf[p++] = src[i + k] as number;
            } else {
              buf = this.room(p, 12 + end - i);
              if (cp < 0) for (const r of REPLACEMENT) buf[p++] = r;
              else p += buf.write(escapeInvisible(String.fromCodePoint(cp)), p, 'latin1');
            }
            i += length;
          }
        }
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        let j = i + 1;
        while (j < end && isSpace(src[j] as number)) j++;
        buf[p++] = b;
        // '}' and ']' are two code points after '{' and '['.
        if (j < end && src[j] === b + 2) {
          buf[p++] = b + 2;
          i = j + 1;
        } else {
          if (pretty) {
            depth += 2;
            buf = this.room(p, depth + 1 + end - j);
            buf[p++] = NEWLINE;
            for (let k = 0; k < depth; k++) buf[p++] = SPACE;
          }
          i = j;
        }
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        if (pretty) {
          depth -= 2;
          buf = this.room(p, depth + 1 + end - i);
          buf[p++] = NEWLINE;
          for (let k = 0; k < depth; k++) buf[p++] = SPACE;
        }
        buf[p++] = b;
        i++;
      } else if (b === COMMA) {
        buf[p++] = b;
        if (pretty) {
          buf = this.room(p, depth + 1 + end - i);
          buf[p++] = NEWLINE;
          for (let k = 0; k < depth; k++) buf[p++] = SPACE;
        }
        i++;
      } else if (b === COLON) {
        buf[p++] = b;
        if (pretty) {
          buf = this.room(p, 1 + end - i);
          buf[p++] = SPACE;
        }
        i++;
      } else if (isSpace(b)) i++;
      else {
        // A number, true, false or null.
        buf[p++] = b;
        i++;
      }
    }
    this.pos = p;
  }
}

/** Where byte is in src from `from` on, or end when it is not. */
function indexIn(src: Uint8Array, byte: number, from: number, end: number): number {
  const at = (src as Buffer).indexOf(byte, from);
  return at < 0 ? end : at;
}

/** Copies src[from, to) into buf at p; the number of bytes copied. */
function copyBytes(src: Uint8Array, buf: Buffer, p: number, from: number, to: number): number {
  buf.set(src.subarray(from, to), p);
  return to - from;
}

const bytesOf = (text: string | Uint8Array) => (typeof text === 'string' ? Buffer.from(text) : text);

/** The service's JSON 2-space indented, its invisible characters escaped. */
export function indentedJson(text: string | Uint8Array): Buffer {
  const src = bytesOf(text);
  const layout = new Layout(src.length + (src.length >> 2));
  layout.json(src, true, 0);
  return layout.buf.subarray(0, layout.pos);
}

/** The service's JSON on one line (newline-delimited output), its invisible characters escaped. */
export function compactJson(text: string | Uint8Array): string {
  const src = bytesOf(text);
  const layout = new Layout(src.length);
  layout.json(src, false, 0);
  return layout.buf.toString('utf8', 0, layout.pos);
}

/** A value wsctl made (not the service's text) as a document: JSON.stringify's, its invisible characters escaped. */
export function valueJson(value: unknown, pretty: boolean): string {
  return escapeInvisible(JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null');
}

const BLOCK = 1 << 16;

/**
 * An object written field by field as its parts arrive, each the service's JSON bytes; one field
 * may be an array written item by item. `--json` of a 50 MB conversation never holds the document:
 * the layout's block goes to the sink each time it passes 64 KiB, and is used again once written.
 */
export class JsonObjectWriter {
  private fields = 0;
  private items = 0;
  private readonly layout = new Layout(2 * BLOCK);

  constructor(private readonly sink: Sink) {}

  /** A field: its key and value as the service wrote them (the key with its quotes). */
  field(key: Uint8Array, value: Uint8Array): void | Promise<void> {
    this.layout.ascii(this.fields++ ? ',\n  ' : '{\n  ');
    this.layout.json(key, false, 0);
    this.layout.ascii(': ');
    this.layout.json(value, true, 2);
    return this.flush(false);
  }

  arrayStart(key: Uint8Array): void | Promise<void> {
    this.items = 0;
    this.layout.ascii(this.fields++ ? ',\n  ' : '{\n  ');
    this.layout.json(key, false, 0);
    this.layout.ascii(': [');
    return this.flush(false);
  }

  item(value: Uint8Array): void | Promise<void> {
    this.layout.ascii(this.items++ ? ',\n    ' : '\n    ');
    this.layout.json(value, true, 4);
    return this.flush(false);
  }

  arrayEnd(): void | Promise<void> {
    this.layout.ascii(this.items ? '\n  ]' : ']');
    return this.flush(false);
  }

  end(): void | Promise<void> {
    this.layout.ascii(this.fields ? '\n}\n' : '{}\n');
    return this.flush(true);
  }

  /** The block to the sink once it is full (or at the end); it is written over once the sink took it. */
  private flush(all: boolean): void | Promise<void> {
    const { layout } = this;
    if (layout.pos === 0 || (!all && layout.pos < BLOCK)) return;
    const bytes = layout.buf.subarray(0, layout.pos);
    layout.pos = 0;
    return this.sink.write(bytes);
  }
}
