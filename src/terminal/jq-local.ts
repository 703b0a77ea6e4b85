// The jq engine on the main thread, for a filter's first try: no thread to start (~30 ms of CPU
// and 12 MiB), a speed trick (src/tricks/registry.ts lists them all). Here a filter gets SLICE_MS of time,
// LOCAL_HEAP of memory and HOLD_BYTES of output; past any of them it is stopped, this engine is
// dropped (a WebAssembly run stopped part-way cannot go on), and the worker thread runs the filter
// from the start. The process's signal listeners are never touched: SIGTERM ends the process at
// once (it has no listener), and a Ctrl-C that comes during a slice is heard when it ends, at most
// SLICE_MS later (jq.ts then throws it before any output is written).
import { Script } from 'node:vm';
import { OutputChunks, Tail, type CompiledWasm, type Outcome } from './jq-protocol.js';

export interface LocalEngine {
  /** Runs jq with the text as its stdin; undefined when the filter must move to the worker (this engine is then spent). */
  run(query: string, flags: string[], text?: string): Outcome | undefined;
}

/** The longest a filter runs here before it moves to the worker (and the longest a signal waits). */
export const SLICE_MS = 200;
/** jq's memory here (it starts with 16 MiB); the worker has 1 GiB. Kept small: what a filter took here is not given back until the next collection, while the worker runs it again. */
const LOCAL_HEAP = 64 << 20;

/** Thrown by the output sink past the output bound, through the glue (scripts/jq-wasm.cjs lets it pass). */
const MOVE = Symbol('move to the worker');

/** jq's stdout here: held, up to holdBytes. */
class HeldOutput {
  readonly chunks: Uint8Array[] = [];
  private readonly held = new OutputChunks((chunk) => this.chunks.push(chunk));
  private total = 0;
  constructor(private readonly holdBytes: number) {}
  write(bytes: Uint8Array): void {
    this.total += bytes.length;
    if (this.total > this.holdBytes) throw MOVE;
    this.held.write(bytes);
  }
  take(): Uint8Array[] {
    this.held.pass();
    return this.chunks;
  }
}

const encoder = new TextEncoder();

/**
 * A text as jq reads it from its stdin: encoded into jq's own buffer as jq asks for each block, so
 * that the document is never held encoded whole beside its text.
 */
export class TextInput {
  private at = 0;
  private carried: Uint8Array = new Uint8Array(0);
  constructor(private readonly text: string) {}

  /** Fills the start of target with the next bytes; 0 at the end. */
  read(target: Uint8Array): number {
    if (this.carried.length > 0) {
      const length = Math.min(this.carried.length, target.length);
      target.set(this.carried.subarray(0, length));
      this.carried = this.carried.subarray(length);
      return length;
    }
    const { text, at } = this;
    if (at >= text.length || target.length === 0) return 0;
    // At most a character a byte, and never half a surrogate pair, which would be encoded as U+FFFD.
    let end = Math.min(text.length, at + target.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    const { read, written } = encoder.encodeInto(text.slice(at, end), target);
    if (read > 0) {
      this.at += read;
      return written;
    }
    // The next character is longer than what jq asked for: handed over in parts.
    const width = (text.codePointAt(at) as number) > 0xffff ? 2 : 1;
    this.carried = encoder.encode(text.slice(at, at + width));
    this.at += width;
    return this.read(target);
  }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

let output = new HeldOutput(0);
// The glue's sinks, the document's reader, memory bound and error printer here (scripts/jq-wasm.cjs):
// it keeps the sinks it first sees, so one object serves every engine of this thread, one filter at
// a time.
const hooks = {
  stdout: { write: (bytes: Uint8Array) => output.write(bytes), reset() {}, toString: () => '' },
  stderr: new Tail(),
  read: undefined as ((target: Uint8Array) => number) | undefined,
  heapMax: LOCAL_HEAP,
  printErr(_message: string) {},
  stop: MOVE,
  /**
   * jq's random bytes as it starts, from Math.random rather than WebCrypto, which this thread would
   * load for them (a speed trick: src/tricks/registry.ts). They seed nothing a filter's result
   * depends on, and V8 seeds Math.random from the system's random source.
   */
  random(view: Uint8Array): number {
    for (let i = 0; i < view.length; i++) view[i] = (Math.random() * 256) | 0;
    return 0;
  },
};

interface Glue {
  loadJq(options: { wasmModule: CompiledWasm }): Promise<{ raw(input: string, query: string, flags: string[]): { exitCode: number } }>;
}

/** Loads the engine on this thread: glue, the exports of dist/jq-worker.cjs; module, its compiled WebAssembly. */
export async function loadLocalEngine(glue: unknown, module: CompiledWasm, holdBytes: number): Promise<LocalEngine> {
  // Read as the engine starts (scripts/jq-wasm.cjs).
  (globalThis as { __wsctlJq?: typeof hooks }).__wsctlJq = hooks;
  let jq: Awaited<ReturnType<Glue['loadJq']>> | undefined = await (glue as Glue).loadJq({ wasmModule: module });
  return {
    run(query, flags, text) {
      const engine = jq;
      if (!engine) return undefined;
      output = new HeldOutput(holdBytes);
      hooks.stderr.reset();
      if (text !== undefined) {
        const input = new TextInput(text);
        hooks.read = (target) => input.read(target);
      }
      try {
        const ran = inSlice(() => engine.raw(text !== undefined ? '' : 'null', query, flags));
        if (ran === SLICE_ENDED) throw MOVE;
        return { exitCode: ran.exitCode, stderr: hooks.stderr.toString(), chunks: output.take() };
      } catch {
        // Past a bound, or a failure of the engine (an abort past its memory, a stack overflow):
        // the worker runs the filter again and reports what it finds there.
        jq = undefined;
        return undefined;
      } finally {
        hooks.read = undefined;
        output = new HeldOutput(0);
      }
    },
  };
}

const SLICE_ENDED = Symbol('the slice ended');
const SLICE = Symbol.for('wsctl.jqSlice');
let sliceScript: Script | undefined;

/** Runs `run` for at most SLICE_MS: V8 stops it there (node:vm's timeout, from a thread of its own). */
function inSlice<T>(run: () => T): T | typeof SLICE_ENDED {
  sliceScript ??= new Script('globalThis[Symbol.for("wsctl.jqSlice")]()');
  (globalThis as Record<symbol, unknown>)[SLICE] = run;
  try {
    return sliceScript.runInThisContext({ timeout: SLICE_MS }) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return SLICE_ENDED;
    throw error;
  } finally {
    delete (globalThis as Record<symbol, unknown>)[SLICE];
  }
}
