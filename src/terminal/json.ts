// A JSON document written as its parts arrive, byte for byte what JSON.stringify(value, null, 2)
// gives for the whole: `--json` of a 50 MB conversation never holds the document or its text.
import type { Sink } from './pager.js';

const indented = (value: unknown, indent: string) => (JSON.stringify(value, null, 2) ?? 'null').replace(/\n/g, `\n${indent}`);

/** An object, field by field; one field may be an array written item by item. */
export class JsonObjectWriter {
  private fields = 0;
  private items = 0;

  constructor(private readonly sink: Sink) {}

  field(key: string, value: unknown): void | Promise<void> {
    return this.sink.write(`${this.fields++ ? ',' : '{'}\n  ${JSON.stringify(key)}: ${indented(value, '  ')}`);
  }

  arrayStart(key: string): void | Promise<void> {
    this.items = 0;
    return this.sink.write(`${this.fields++ ? ',' : '{'}\n  ${JSON.stringify(key)}: [`);
  }

  item(value: unknown): void | Promise<void> {
    return this.sink.write(`${this.items++ ? ',' : ''}\n    ${indented(value, '    ')}`);
  }

  arrayEnd(): void | Promise<void> {
    return this.sink.write(this.items ? '\n  ]' : ']');
  }

  end(): void | Promise<void> {
    return this.sink.write(this.fields ? '\n}\n' : '{}\n');
  }
}
