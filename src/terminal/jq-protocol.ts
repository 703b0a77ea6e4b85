// What the main thread and the jq engine's worker thread (jq-worker.ts) say to each other.

/** Bytes of jq's output per message from the worker. */
export const CHUNK_BYTES = 64 << 10;
/** Chunks sent but not yet written: the worker waits past this (1 MiB). */
export const MAX_IN_FLIGHT = 16;

export interface WorkerData {
  /** One Int32: chunks in flight, decremented by the main thread as it writes them. */
  inFlight: SharedArrayBuffer;
}

/** A WebAssembly.Module (the project's TypeScript libraries do not declare WebAssembly). */
export type CompiledWasm = object;

export type ToWorker =
  /** The engine's WebAssembly (dist/jq.wasm, its memory maximum raised at build time), compiled by the main thread. */
  | { kind: 'load'; module?: CompiledWasm; error?: string }
  /** argument: the filter as jq's argument (jq.ts asArgument), `empty | …` for a check, which runs with -n. */
  | { kind: 'check'; argument: string }
  | { kind: 'run'; argument: string; input: Uint8Array; flags: string[] };

export type FromWorker =
  | { kind: 'checked'; exitCode: number; stderr: string }
  | { kind: 'out'; bytes: Uint8Array }
  | { kind: 'done'; exitCode: number; stderr: string }
  | { kind: 'fatal'; memory: boolean; message: string };

/** What a filter printed, on either thread: jq's exit code and stderr, and the output not written yet. */
export interface Outcome {
  exitCode: number;
  stderr: string;
  /** Held output, for the caller to write once the filter has succeeded. */
  chunks: Uint8Array[];
  /** Whether output was written already (past the held first bytes). */
  flowed?: boolean;
}

/** What jq or the glue says when jq could not allocate (past the engine's memory bound). */
export const MEMORY_FAILURE = /cannot allocate memory|out of memory|Aborted\(/i;

/** jq's stdout gathered into chunks of CHUNK_BYTES, each handed to `full` as it fills (and the rest by pass). */
export class OutputChunks {
  private buffer = new Uint8Array(CHUNK_BYTES);
  private length = 0;
  constructor(private readonly full: (chunk: Uint8Array) => void) {}
  write(bytes: Uint8Array): void {
    for (let from = 0; from < bytes.length; ) {
      const taken = Math.min(bytes.length - from, CHUNK_BYTES - this.length);
      this.buffer.set(bytes.subarray(from, from + taken), this.length);
      this.length += taken;
      from += taken;
      if (this.length === CHUNK_BYTES) this.pass();
    }
  }
  /** Hands over what is held, if anything; the next bytes go to a new chunk. */
  pass(): void {
    if (this.length === 0) return;
    const chunk = this.buffer.subarray(0, this.length);
    this.buffer = new Uint8Array(CHUNK_BYTES);
    this.length = 0;
    this.full(chunk);
  }
  reset(): void {
    this.length = 0;
  }
  /** The glue's text of its sink, which it asks for after each run: the output went elsewhere. */
  toString(): string {
    return '';
  }
}

/** jq's stderr: its last 64 KiB (`debug` in a loop could say a lot; the error comes last). */
export class Tail {
  private bytes = new Uint8Array(64 << 10);
  private length = 0;
  push(byte: number): void {
    if (this.length === this.bytes.length) {
      this.bytes.copyWithin(0, this.length / 2);
      this.length /= 2;
    }
    this.bytes[this.length++] = byte;
  }
  reset(): void {
    this.length = 0;
  }
  toString(): string {
    return new TextDecoder().decode(this.bytes.subarray(0, this.length));
  }
}
