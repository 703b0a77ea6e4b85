// Output that has to wait: text held back in order, and output held until it is safe to show.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sink } from './pager.js';

const IN_MEMORY = 4 << 20;
// Text goes to the file in pieces this small: joined strings stay out of V8's large-object space,
// which only a full collection frees (1 MiB pieces cost ~60 MB of peak memory on a 50 MB transcript).
const PIECE = 64 << 10;

/**
 * Text kept back in order until it can be printed: in memory up to 4 MiB, then in a temporary
 * file that is unlinked at once (mode 0600), so a 50 MB transcript waiting for its header costs
 * disk, not memory. A file that cannot be written keeps the rest in memory.
 */
export class Spool {
  constructor(private readonly dir: string = tmpdir()) {}

  private held: string[] = [];
  private heldChars = 0;
  private fd?: number;
  private fileBytes = 0;
  private noFile = false;

  write(text: string): void {
    this.held.push(text);
    this.heldChars += text.length;
    if (this.noFile) return;
    if (this.fd !== undefined ? this.heldChars >= PIECE : this.heldChars >= IN_MEMORY) this.toFile();
  }

  /** Everything held, in order, into sink; the spool is empty after. */
  async drainInto(sink: Sink): Promise<void> {
    if (this.fd !== undefined) {
      if (!this.noFile) this.toFile();
      // Bytes as they were written: read back, never decoded again, through one block.
      const block = Buffer.allocUnsafe(Math.min(1 << 20, this.fileBytes));
      for (let at = 0; at < this.fileBytes; ) {
        const read = readSync(this.fd, block, 0, Math.min(block.length, this.fileBytes - at), at);
        if (read === 0) break;
        at += read;
        await sink.write(block.subarray(0, read));
      }
      this.close();
    }
    const held = this.held;
    this.held = [];
    this.heldChars = 0;
    for (const text of held) await sink.write(text);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.fileBytes = 0;
  }

  private toFile(): void {
    let written = 0; // held texts already in the file
    try {
      if (this.fd === undefined) {
        const path = join(this.dir, `wsctl-${process.pid}-${randomBytes(6).toString('hex')}.spool`);
        this.fd = openSync(path, 'wx+', 0o600);
        // Unlinked while open: nothing is left behind, whatever ends the process.
        if (process.platform !== 'win32') unlinkSync(path);
      }
      const fd = this.fd;
      for (let from = 0; from < this.held.length; ) {
        let to = from;
        let size = 0;
        while (to < this.held.length && size < PIECE) size += this.held[to++].length;
        const text = this.held.slice(from, to).join('');
        const bytes = writeSync(fd, text, this.fileBytes, 'utf8');
        // Only once all of it is there: a piece written in part (a full disk) is not read back.
        if (bytes !== Buffer.byteLength(text)) throw new Error('short write');
        this.fileBytes += bytes;
        written = from = to;
      }
    } catch {
      this.noFile = true; // a full disk: what is left stays in memory
    }
    this.held = written === this.held.length ? [] : this.held.slice(written);
    this.heldChars = this.held.reduce((n, text) => n + text.length, 0);
  }
}

/** A sink that shows nothing until its output is complete or passes `holdChars`. */
export interface HeldSink extends Sink {
  /** Whether any of the output has been shown (it can no longer be taken back). */
  readonly shown: boolean;
  /** Drops what is held: the answer is asked for again. */
  restart(): void;
  /** Drops what is held and stops waiting: the command failed. */
  abandon(): Promise<void>;
}

/**
 * Holds output back until it is complete or passes `holdChars`, then opens the real sink: a
 * small answer that fails part-way shows nothing (and can be asked for again), a large one
 * streams.
 */
export function heldSink(open: () => Promise<Sink>, holdChars: number, onAbandon: () => Promise<void> = async () => {}): HeldSink {
  let held: (string | Uint8Array)[] = [];
  let size = 0;
  let target: Sink | undefined;
  const release = async () => {
    target = await open();
    const parts = held;
    held = [];
    size = 0;
    for (const part of parts) await target.write(part);
  };
  return {
    get shown() {
      return target !== undefined;
    },
    write(text) {
      if (target) return target.write(text);
      held.push(text);
      size += text.length;
      if (size >= holdChars) return release();
    },
    async end() {
      if (!target) await release();
      await target?.end();
    },
    restart() {
      held = [];
      size = 0;
    },
    async abandon() {
      held = [];
      size = 0;
      await onAbandon();
    },
  };
}
