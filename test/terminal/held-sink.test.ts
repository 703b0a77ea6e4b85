// The held sink: output shown only once it is safe to show.
import { describe, expect, it } from 'vitest';
import { heldSink } from '../../src/terminal/held-sink.js';
import type { Sink } from '../../src/terminal/pager.js';

function collector(): Sink & { text(): string } {
  const parts: Buffer[] = [];
  return {
    write(t) {
      parts.push(Buffer.from(typeof t === 'string' ? t : Buffer.from(t))); // copied: the spool reuses its block
    },
    async end() {},
    text: () => Buffer.concat(parts).toString(),
  };
}

describe('heldSink', () => {
  it('shows nothing until the output passes the bound or ends, then everything in order', async () => {
    const out = collector();
    let opened = 0;
    const sink = heldSink(async () => {
      opened++;
      return out;
    }, 10);
    await sink.write('abc');
    expect(sink.shown).toBe(false);
    sink.restart();
    await sink.write('def');
    await sink.write('0123456789');
    expect(sink.shown).toBe(true);
    await sink.write('!');
    await sink.end();
    expect(opened).toBe(1);
    expect(out.text()).toBe('def0123456789!');
  });

  it('holds a copy of bytes, which the writer may reuse at once (the spool reads back through one block)', async () => {
    const out = collector();
    const sink = heldSink(async () => out, 1 << 20);
    const block = Buffer.from('first');
    await sink.write(block);
    block.write('XXXXX');
    await sink.write(block);
    await sink.end();
    expect(out.text()).toBe('firstXXXXX');
  });

  it('abandon drops what is held and never opens the output', async () => {
    let opened = false;
    let abandoned = false;
    const sink = heldSink(
      async () => {
        opened = true;
        return collector();
      },
      1 << 20,
      async () => {
        abandoned = true;
      },
    );
    await sink.write('partial');
    await sink.abandon();
    expect(opened).toBe(false);
    expect(abandoned).toBe(true);
  });
});
