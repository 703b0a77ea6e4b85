// Output held until it is safe to show.
import type { Sink } from './pager.js';

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
      // Bytes are the caller's to reuse once this returns: what is held is a copy.
      held.push(typeof text === 'string' ? text : Buffer.from(text));
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
