// The spool (text held back in order) and the held sink (output shown only once safe).
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heldSink, Spool } from '../../src/terminal/spool.js';
import type { Sink } from '../../src/terminal/pager.js';
import { tempDir } from '../helpers.js';

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

/** The spool files this process holds open (unlinked ones show as "(deleted)"). */
const openSpools = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').map((fd) => { try { return readlinkSync(`/proc/self/fd/${fd}`); } catch { return ''; } }).filter((l) => l.includes('.spool')) : []);

describe('Spool', () => {
  it('keeps small text in memory and gives it back in order', async () => {
    const dir = tempDir();
    const spool = new Spool(dir);
    for (let i = 0; i < 1000; i++) spool.write(`line ${i} é😀\n`);
    expect(openSpools().filter((l) => l.startsWith(dir))).toEqual([]);
    const out = collector();
    await spool.drainInto(out);
    expect(out.text()).toBe(Array.from({ length: 1000 }, (_, i) => `line ${i} é😀\n`).join(''));
  });

  it('past 4 MiB moves to a file that is unlinked at once, and reads back byte for byte', async () => {
    const dir = tempDir();
    const spool = new Spool(dir);
    const lines = Array.from({ length: 60_000 }, (_, i) => `message ${i} ${'ü✓😀'.repeat(i % 40)}\n`);
    for (const line of lines) spool.write(line);
    expect(readdirSync(dir)).toEqual([]);
    if (existsSync('/proc/self/fd')) expect(openSpools().filter((l) => l.startsWith(dir) && l.endsWith('(deleted)'))).toHaveLength(1);
    const out = collector();
    await spool.drainInto(out);
    expect(out.text()).toBe(lines.join(''));
    expect(openSpools().filter((l) => l.startsWith(dir))).toEqual([]);
  });

  it('a folder that cannot be written keeps everything in memory, in order', async () => {
    const spool = new Spool('/nonexistent/wsctl-spool');
    const lines = Array.from({ length: 60_000 }, (_, i) => `message ${i} ${'x'.repeat(100)}\n`);
    for (const line of lines) spool.write(line);
    const out = collector();
    await spool.drainInto(out);
    expect(out.text()).toBe(lines.join(''));
  });
});

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
    const sink = heldSink(async () => ((opened = true), collector()), 1 << 20, async () => {
      abandoned = true;
    });
    await sink.write('partial');
    await sink.abandon();
    expect(opened).toBe(false);
    expect(abandoned).toBe(true);
  });
});
