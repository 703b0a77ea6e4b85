// A JSON document written as its parts arrive, byte for byte what JSON.stringify(value, null, 2)
// gives for the whole: `--json` of a 50 MB conversation never holds the document or its text.
import type { Sink } from './pager.js';

const indented = (value: unknown, indent: string) => (JSON.stringify(value, null, 2) ?? 'null').replace(/\n/g, `\n${indent}`);

/** An object, field by field; one field may be an array written item by item. */
export class JsonObjectWriter {
  private fields = 0;
  private items = 0;
  private batch: unknown[] = [];

  constructor(private readonly sink: Sink) {}

  field(key: string, value: unknown): void | Promise<void> {
    return this.sink.write(`${this.fields++ ? ',' : '{'}\n  ${JSON.stringify(key)}: ${indented(value, '  ')}`);
  }

  arrayStart(key: string): void | Promise<void> {
    this.items = 0;
    return this.sink.write(`${this.fields++ ? ',' : '{'}\n  ${JSON.stringify(key)}: [`);
  }

  item(value: unknown): void | Promise<void> {
    this.batch.push(value);
    if (this.batch.length >= BATCH) return this.flushItems();
  }

  async arrayEnd(): Promise<void> {
    await this.flushItems();
    await this.sink.write(this.items ? '\n  ]' : ']');
  }

  end(): void | Promise<void> {
    return this.sink.write(this.fields ? '\n}\n' : '{}\n');
  }

  /**
   * Items go out in batches, indented by JSON.stringify itself: one stringify of `{"m": [...]}`
   * gives each item its 4-space indent, half the time of indenting each item with a replace.
   */
  private flushItems(): void | Promise<void> {
    if (this.batch.length === 0) return;
    const text = JSON.stringify({ m: this.batch }, null, 2);
    const sep = this.items ? ',' : '';
    this.items += this.batch.length;
    this.batch = [];
    return this.sink.write(sep + text.slice(BATCH_HEAD.length, -BATCH_TAIL.length));
  }
}

const BATCH = 256;
const BATCH_HEAD = '{\n  "m": [';
const BATCH_TAIL = '\n  ]\n}';
