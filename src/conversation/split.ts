// A JSON object body taken apart as it arrives: its top-level fields, and the items of one array
// field one by one, each as its own JSON text. `convo show` prints a 50 MB transcript this way
// without ever holding the body, its text or its objects at once (issue 14, P3).
//
// The splitter only finds where values begin and end (strings, nesting); each value's own syntax
// is checked by JSON.parse of its text, by whoever takes it. Everything between values (braces,
// colons, commas, whitespace) is checked here.
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../common/json-bytes.js';

export type SplitEvent =
  /** The bytes of a key or value as the body wrote them (a key with its quotes), and the value's text. */
  | { kind: 'field'; key: string; keyBytes: Uint8Array; text: string; bytes: Uint8Array }
  | { kind: 'items'; key: string; keyBytes: Uint8Array }
  /** text and bytes are undefined for items below skipItems. */
  | { kind: 'item'; index: number; text: string | undefined; bytes: Uint8Array | undefined }
  | { kind: 'itemsEnd'; count: number };

/** The body is not one JSON object. */
export class SplitError extends Error {}

/** How deep values may nest (as for whole bodies in decode.ts). */
export const MAX_DEPTH = 512;

const BOM = [0xef, 0xbb, 0xbf];

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

// Where the splitter is between values: what the next non-space byte may be.
const enum At {
  Start, // `{`
  FirstField, // a key or `}`
  Field, // a key (after a comma)
  Colon,
  Value,
  AfterValue, // `,` or `}`
  FirstItem, // an item or `]`
  Item, // an item (after a comma)
  AfterItem, // `,` or `]`
  Done,
  Capturing, // inside a key, value or item
}

const enum Capture {
  Key,
  Value,
  Item,
}

export class ObjectSplitter {
  /** Items below this index are scanned but not decoded (a follow poll skips what it printed). */
  skipItems = 0;

  private at = At.Start;
  private bomSeen = 0;
  private readonly seen = new Set<string>();
  private key = '';
  private keyBytes: Uint8Array = Buffer.alloc(0);
  private items = 0;

  // The value being captured: what it is, its bytes from earlier chunks, where it began in this one.
  private capture = Capture.Key;
  private keep = true;
  private pieces: Buffer[] = [];
  private start = 0;
  private scalar = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  // The next quote and backslash in the current chunk: each byte is searched once, however many
  // escapes a string has.
  private searched: Buffer | undefined;
  private quoteAt = -1;
  private slashAt = -1;

  constructor(private readonly arrayKey: string) {}

  /** The events this chunk completes, in body order. */
  push(chunk: Buffer): SplitEvent[] {
    const events: SplitEvent[] = [];
    const n = chunk.length;
    let i = 0;
    while (this.at === At.Start && this.bomSeen < 3 && i < n && chunk[i] === BOM[this.bomSeen]) {
      this.bomSeen++;
      i++;
    }
    while (i < n) {
      if (this.at === At.Capturing) {
        const end = this.scan(chunk, i);
        if (end < 0) {
          if (this.keep) this.pieces.push(this.start === 0 ? chunk : chunk.subarray(this.start));
          this.start = 0;
          return events;
        }
        this.finish(chunk, end, events);
        i = end;
        continue;
      }
      const b = chunk[i];
      if (isSpace(b)) {
        i++;
        continue;
      }
      switch (this.at) {
        case At.Start:
          if (b !== OPEN_BRACE || (this.bomSeen > 0 && this.bomSeen < 3)) throw new SplitError('the body is not a JSON object');
          this.at = At.FirstField;
          i++;
          break;
        case At.FirstField:
        case At.Field:
          if (b === CLOSE_BRACE && this.at === At.FirstField) {
            this.at = At.Done;
            i++;
          } else if (b === QUOTE) this.begin(Capture.Key, chunk, i, true);
          else throw new SplitError('a field name was expected');
          break;
        case At.Colon:
          if (b !== COLON) throw new SplitError(`':' was expected after the field name '${this.key}'`);
          this.at = At.Value;
          i++;
          break;
        case At.Value:
          if (this.seen.has(this.key)) throw new SplitError(`the field '${this.key}' appears twice`);
          this.seen.add(this.key);
          if (this.key === this.arrayKey && b === OPEN_BRACKET) {
            events.push({ kind: 'items', key: this.key, keyBytes: this.keyBytes });
            this.at = At.FirstItem;
            i++;
          } else this.begin(Capture.Value, chunk, i, true);
          break;
        case At.AfterValue:
          if (b === COMMA) this.at = At.Field;
          else if (b === CLOSE_BRACE) this.at = At.Done;
          else throw new SplitError(`',' or '}' was expected after the field '${this.key}'`);
          i++;
          break;
        case At.FirstItem:
        case At.Item:
          if (b === CLOSE_BRACKET && this.at === At.FirstItem) {
            events.push({ kind: 'itemsEnd', count: this.items });
            this.at = At.AfterValue;
            i++;
          } else this.begin(Capture.Item, chunk, i, this.items >= this.skipItems);
          break;
        case At.AfterItem:
          if (b === COMMA) this.at = At.Item;
          else if (b === CLOSE_BRACKET) {
            events.push({ kind: 'itemsEnd', count: this.items });
            this.at = At.AfterValue;
          } else throw new SplitError(`',' or ']' was expected after item ${this.items - 1} of '${this.arrayKey}'`);
          i++;
          break;
        case At.Done:
          throw new SplitError('more text follows the JSON object');
      }
    }
    return events;
  }

  /** The body ended: it must have been one whole object. */
  end(): void {
    if (this.at === At.Done) return;
    if (this.at === At.Start) throw new SplitError('the body is empty');
    throw new SplitError('the body ends before the JSON object does');
  }

  /** A key, value or item begins at chunk[i], a byte that is not whitespace. */
  private begin(capture: Capture, chunk: Buffer, i: number, keep: boolean): void {
    const b = chunk[i];
    if (b === CLOSE_BRACE || b === CLOSE_BRACKET || b === COMMA || b === COLON) throw new SplitError('a value was expected');
    this.at = At.Capturing;
    this.capture = capture;
    this.keep = keep;
    this.pieces = [];
    this.start = i;
    this.inString = b === QUOTE;
    this.depth = b === OPEN_BRACE || b === OPEN_BRACKET ? 1 : 0;
    this.scalar = !this.inString && this.depth === 0;
    this.escaped = false;
    // scan() starts past the first byte of a string or container, on it for a scalar.
    this.skipFirst = !this.scalar;
  }

  private skipFirst = false;

  /** Scans the captured value from i: the index just past its end, or -1 if it goes on in the next chunk. */
  private scan(chunk: Buffer, i: number): number {
    const n = chunk.length;
    if (this.skipFirst) {
      this.skipFirst = false;
      i++;
    }
    if (this.scalar) {
      for (; i < n; i++) {
        const b = chunk[i];
        if (b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET || isSpace(b)) return i;
      }
      return -1;
    }
    for (;;) {
      if (this.inString) {
        if (this.escaped) {
          if (i >= n) return -1;
          this.escaped = false;
          i++;
        }
        // Most of a body is strings: jump to the next quote or backslash instead of walking bytes.
        if (this.searched !== chunk) {
          this.searched = chunk;
          this.quoteAt = -1;
          this.slashAt = -1;
        }
        if (this.quoteAt < i) {
          const q = chunk.indexOf(QUOTE, i);
          this.quoteAt = q < 0 ? n : q;
        }
        if (this.slashAt < i) {
          const s = chunk.indexOf(BACKSLASH, i);
          this.slashAt = s < 0 ? n : s;
        }
        const quote = this.quoteAt;
        if (this.slashAt < quote) {
          this.escaped = true;
          i = this.slashAt + 1;
          continue;
        }
        if (quote === n) return -1;
        i = quote + 1;
        this.inString = false;
        if (this.depth === 0) return i;
      }
      for (;;) {
        if (i >= n) return -1;
        const b = chunk[i++];
        if (b === QUOTE) {
          this.inString = true;
          break;
        }
        if (b === OPEN_BRACE || b === OPEN_BRACKET) {
          if (++this.depth > MAX_DEPTH) throw new SplitError(`it nests more than ${MAX_DEPTH} levels deep`);
        } else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && --this.depth === 0) return i;
      }
    }
  }

  /** The captured value ends just before `end` in chunk. */
  private finish(chunk: Buffer, end: number, events: SplitEvent[]): void {
    let bytes: Buffer | undefined;
    let text: string | undefined;
    if (this.keep) {
      if (this.pieces.length === 0) bytes = chunk.subarray(this.start, end);
      else {
        this.pieces.push(chunk.subarray(0, end));
        bytes = Buffer.concat(this.pieces);
      }
      text = bytes.toString('utf8');
    }
    this.pieces = [];
    if (this.capture === Capture.Key) {
      this.keyBytes = bytes as Buffer;
      try {
        this.key = JSON.parse(text as string) as string;
      } catch {
        throw new SplitError('a field name is not a valid JSON string');
      }
      this.at = At.Colon;
    } else if (this.capture === Capture.Value) {
      events.push({ kind: 'field', key: this.key, keyBytes: this.keyBytes, text: text as string, bytes: bytes as Buffer });
      this.at = At.AfterValue;
    } else {
      events.push({ kind: 'item', index: this.items++, text, bytes });
      this.at = At.AfterItem;
    }
  }
}
