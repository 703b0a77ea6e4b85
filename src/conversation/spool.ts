// Text held back in order while a transcript waits for its header.
import { closeSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Sink } from '../terminal/index.js';
import { tmpdir } from '../common/builtins.js';

const IN_MEMORY = 256 << 10;
const BLOCK = 256 << 10;

/**
 * Text kept back in order until it can be printed: in memory up to 256 KiB, then in a temporary
 * file that is unlinked at once (mode 0600), so a 50 MB transcript waiting for its header costs
 * disk, not memory. A file that cannot be written keeps the rest in memory. Kept small: text held
 * longer outlives young-generation collections and raises the peak of a large transcript.
 */
export class Spool {
  private held: string[] = [];
  private heldChars = 0;
  private file?: { fd: number; path?: string; block: Buffer; used: number; bytes: number; failed: boolean };
  private noFile = false;

  constructor(private readonly dir: string = tmpdir()) {}

  write(text: string): void {
    if (this.file && !this.file.failed && this.encode(text)) return;
    this.held.push(text);
    this.heldChars += text.length;
    if (this.heldChars >= IN_MEMORY && !this.file && !this.noFile) this.toFile();
  }

  /** Everything held, in order, into sink; the spool is empty after. */
  async drainInto(sink: Sink): Promise<void> {
    const file = this.file;
    if (file) {
      if (!file.failed) this.flush();
      // Bytes as they were written: read back through the same block, never decoded again.
      for (let at = 0; at < file.bytes; ) {
        const read = readSync(file.fd, file.block, 0, Math.min(file.block.length, file.bytes - at), at);
        if (read === 0) break;
        at += read;
        await sink.write(file.block.subarray(0, read));
      }
    }
    this.close();
    const held = this.held;
    this.held = [];
    this.heldChars = 0;
    for (const text of held) await sink.write(text);
  }

  close(): void {
    if (this.file) {
      closeSync(this.file.fd);
      // Windows cannot unlink an open file: it goes now.
      if (this.file.path) rmSync(this.file.path, { force: true });
    }
    this.file = undefined;
  }

  /** Moves what is held into a new file; from then on each text is encoded into it as it comes. */
  private toFile(): void {
    try {
      // node:crypto only here, when a transcript needs a file: an import would load it for every command.
      const path = join(this.dir, `wsctl-${process.pid}-${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}.spool`);
      const fd = openSync(path, 'wx+', 0o600);
      // Unlinked while open: nothing is left behind, whatever ends the process.
      const unlinkedNow = process.platform !== 'win32';
      if (unlinkedNow) unlinkSync(path);
      this.file = { fd, path: unlinkedNow ? undefined : path, block: Buffer.allocUnsafe(BLOCK), used: 0, bytes: 0, failed: false };
    } catch {
      this.noFile = true;
      return;
    }
    const held = this.held;
    this.held = [];
    this.heldChars = 0;
    for (const [i, text] of held.entries()) {
      if (!this.encode(text)) {
        this.held.push(...held.slice(i));
        this.heldChars = this.held.reduce((n, t) => n + t.length, 0);
        return;
      }
    }
  }

  /** Encodes text into the file's block (no joined strings, no Buffer per text); false once the file failed. */
  private encode(text: string): boolean {
    const file = this.file as NonNullable<Spool['file']>;
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    if (text.length * 3 > file.block.length - file.used && !this.flush()) return false;
    if (text.length * 3 <= file.block.length) {
      file.used += file.block.write(text, file.used);
      return true;
    }
    const data = Buffer.from(text);
    if (this.put(data, data.length)) return true;
    file.failed = true;
    return false;
  }

  /**
   * The block to the file. When that fails (a full disk) the file keeps what it has, the block's
   * texts go back to memory, and so does everything after: false.
   */
  private flush(): boolean {
    const file = this.file as NonNullable<Spool['file']>;
    const ok = this.put(file.block, file.used);
    if (!ok) {
      file.failed = true;
      this.held.unshift(file.block.toString('utf8', 0, file.used));
      this.heldChars += this.held[0].length;
    }
    file.used = 0;
    return ok;
  }

  private put(data: Buffer, length: number): boolean {
    const file = this.file as NonNullable<Spool['file']>;
    try {
      for (let done = 0; done < length; ) done += writeSync(file.fd, data, done, length - done, file.bytes + done);
      // Counted only once all of it is there: a piece written in part (a full disk) is not read back.
      file.bytes += length;
      return true;
    } catch {
      return false;
    }
  }
}
