// The spool: text held back in order, in memory and then in an unlinked temporary file.
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Spool } from '../../src/conversation/spool.js';
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
const openSpools = () =>
  existsSync('/proc/self/fd')
    ? readdirSync('/proc/self/fd')
        .map((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`);
          } catch {
            return '';
          }
        })
        .filter((l) => l.includes('.spool'))
    : [];

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

  it('past 256 KiB moves to a file that is unlinked at once, and reads back byte for byte', async () => {
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

  it('keeps up to 256 KiB in memory and moves to a file past it', async () => {
    const dir = tempDir();
    const spool = new Spool(dir);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 250; i++) spool.write(line);
    expect(openSpools().filter((l) => l.startsWith(dir))).toEqual([]);
    for (let i = 0; i < 10; i++) spool.write(line);
    if (existsSync('/proc/self/fd')) expect(openSpools().filter((l) => l.startsWith(dir))).toHaveLength(1);
    const out = collector();
    await spool.drainInto(out);
    expect(out.text()).toBe(line.repeat(260));
    expect(readdirSync(dir)).toEqual([]);
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
