// Output that has to wait: text held back in order, and output held until it is safe to show.
import { StringDecoder } from 'node:string_decoder';
import type { Sink } from './pager.js';

const IN_MEMORY = 4 << 20;

/**
 * Text kept back in order until it can be printed: in memory up to 4 MiB, then in a temporary
 * file that is unlinked at once (mode 0600), so a 50 MB transcript waiting for its header costs
 * disk, not memory. A file that cannot be written keeps the rest in memory.
 */
export class Spool {
  private held: string[] = [];
  private heldChars = 0;
  private file?: import('node:fs/promises').FileHandle;
  private fileBytes = 0;
  private noFile = false;

  async write(text: string): Promise<void> {
    this.held.push(text);
    this.heldChars += text.length;
    if (this.heldChars >= IN_MEMORY && !this.noFile) await this.toFile();
  }

  /** Everything held, in order, into sink; the spool is empty after. */
  async drainInto(sink: Sink): Promise<void> {
    if (this.file) {
      const decoder = new StringDecoder('utf8');
      const block = Buffer.allocUnsafe(1 << 20);
      for (let at = 0; at < this.fileBytes; ) {
        const { bytesRead } = await this.file.read(block, 0, block.length, at);
        if (bytesRead === 0) break;
        at += bytesRead;
        await sink.write(decoder.write(block.subarray(0, bytesRead)));
      }
      await sink.write(decoder.end());
      await this.close();
    }
    const held = this.held;
    this.held = [];
    this.heldChars = 0;
    for (const text of held) await sink.write(text);
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    this.fileBytes = 0;
    await file?.close().catch(() => {});
  }

  private async toFile(): Promise<void> {
    const data = Buffer.from(this.held.join(''));
    try {
      if (!this.file) {
        const [{ open, unlink }, { tmpdir }, { join }, { randomBytes }] = await Promise.all([import('node:fs/promises'), import('node:os'), import('node:path'), import('node:crypto')]);
        const path = join(tmpdir(), `wsctl-${process.pid}-${randomBytes(6).toString('hex')}.spool`);
        this.file = await open(path, 'wx+', 0o600);
        // Unlinked while open: nothing is left behind, whatever ends the process.
        if (process.platform !== 'win32') await unlink(path).catch(() => {});
      }
      await this.file.write(data, 0, data.length, this.fileBytes);
      this.fileBytes += data.length;
      this.held = [];
      this.heldChars = 0;
    } catch {
      this.noFile = true;
    }
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
  let held: string[] = [];
  let size = 0;
  let target: Sink | undefined;
  const release = async () => {
    target = await open();
    const text = held.join('');
    held = [];
    size = 0;
    if (text) await target.write(text);
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
