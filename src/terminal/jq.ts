// --jq: the jq language itself (jq 1.8.2 compiled to WebAssembly, the jq-wasm package), loaded
// only when --jq is given and run in a worker thread (jq-worker.ts), so that Ctrl-C and SIGTERM
// stop any filter at once and a filter that needs more than 1 GiB ends with one line, never a
// crash. A small document's filter runs on the main thread first (a speed trick, see localJq).
// Output as gh prints it: each result on its own line, strings raw, every other value as compact
// JSON; on a terminal, strings are cleaned as in human output (cli.md §3).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { InterruptedError, UsageError } from '../errors.js';
import { liftoffOnly, tricksOn } from '../tricks.js';
import type { Sink } from './pager.js';
import { clean, escapeInvisible } from '../sanitize.js';
import type { CompiledWasm, FromWorker, ToWorker, WorkerData } from './jq-protocol.js';
import { CHUNK_BYTES, MEMORY_FAILURE, Tail } from './jq-protocol.js';

export interface JqFilter {
  /**
   * Filters one document (JSON text) into sink as the results come. The first MiB is held until
   * the filter ends, so that a filter that fails early prints nothing; past it, output flows.
   * tty: strings cleaned for a terminal; otherwise jq's bytes as they are.
   */
  run(json: string, tty: boolean, sink: Sink): Promise<void>;
  /** Ends the engine's thread. */
  close(): void;
}

// jq exits 3 for an expression that does not compile and 5 for an error at run time.
const JQ_COMPILE_ERROR = 3;
const HOLD_BYTES = 1 << 20;
export const MEMORY_MESSAGE = '--jq: the filter needs more than 1 GiB of memory.';

/** jq's own message, on one line: "jq: error: syntax error, unexpected ...". */
function jqMessage(stderr: string): string {
  const first = stderr.split('\n').find((line) => line.trim() !== '') ?? 'jq failed';
  return first.replace(/^jq: error \(at [^)]*\):/, 'jq: error:').replace(/:\s*$/, '').trim();
}

/**
 * The worker's file: dist/lazy/jq-worker.cjs, next to the chunk that holds this module; from the
 * sources (the in-process tests), the built one (`npm test` builds first).
 */
function workerFile(): URL {
  const here = import.meta.url;
  const lazy = here.lastIndexOf('/dist/lazy/');
  return lazy >= 0 ? new URL(`${here.slice(0, lazy)}/dist/lazy/jq-worker.cjs`) : new URL('../../dist/lazy/jq-worker.cjs', here);
}

/** On a terminal: each result line with a string's escapes removed (jq -c prints strings quoted). */
class TerminalLines {
  private readonly decoder = new TextDecoder();
  private rest = '';
  push(bytes: Uint8Array): string {
    const text = this.rest + this.decoder.decode(bytes, { stream: true });
    const end = text.lastIndexOf('\n') + 1;
    this.rest = text.slice(end);
    return this.clean(text.slice(0, end));
  }
  end(): string {
    const text = this.rest + this.decoder.decode();
    this.rest = '';
    return this.clean(text);
  }
  private clean(lines: string): string {
    if (lines === '') return '';
    return lines.replace(/[^\n]+/g, (line) => (line.startsWith('"') ? clean(JSON.parse(line) as string) : escapeInvisible(line)));
  }
}

/** The engine's thread, started with the engine's WebAssembly. */
interface WorkerEngine {
  worker: Worker;
  inFlight: Int32Array;
  /** Why the thread ended before a filter took it. */
  ended?: Error;
}

/** jq-wasm's handle, loaded in this thread (jq-worker.cjs exports it). */
interface LocalJq {
  raw(input: string, query: string, flags: string[]): { exitCode: number };
}

interface Engine {
  file: URL;
  module: Promise<CompiledWasm>;
  /** Tricks on, stderr not a terminal: the engine in this thread; the worker starts only when a filter needs it. */
  local?: Promise<LocalJq>;
  /** Otherwise: the worker, started at once. */
  worker?: WorkerEngine;
  interruptible?: Interruptible;
}

let started: Promise<Engine> | undefined;

// A small document's filter runs on the main thread, without a worker's start (~30 ms of CPU and
// ~12 MiB): Ctrl-C still stops it at once (vm's breakOnSigint ends the WebAssembly), SIGTERM
// ends the process as in every command, and an engine past 1 GiB aborts with a catchable error.
// What it cannot do is let output flow while it runs: past HOLD_BYTES of output (which the worker
// holds too), or for a larger document, the filter runs in the worker instead, from the start.
// Nor can it read a Ctrl-C typed while the spinner holds the terminal in raw mode (the spinner's
// stdin reader turns it into SIGINT): with stderr on a terminal, the worker runs every filter.
const LOCAL_INPUT_BYTES = 8 << 20;

/** Thrown by LocalOutput past HOLD_BYTES: the filter moves to the worker. */
const MOVE_TO_WORKER = Symbol('move to the worker');

/** jq's stdout on the main thread: held, up to HOLD_BYTES. */
class LocalOutput {
  readonly chunks: Uint8Array[] = [];
  private buffer = new Uint8Array(CHUNK_BYTES);
  private length = 0;
  private total = 0;
  push(byte: number): void {
    if (++this.total > HOLD_BYTES) throw MOVE_TO_WORKER;
    this.buffer[this.length++] = byte;
    if (this.length === CHUNK_BYTES) this.take();
  }
  take(): Uint8Array[] {
    if (this.length > 0) this.chunks.push(this.buffer.subarray(0, this.length));
    this.buffer = new Uint8Array(CHUNK_BYTES);
    this.length = 0;
    return this.chunks;
  }
}
let localOutput = new LocalOutput();
/** The glue's sinks and input on the main thread (scripts/jq-wasm.cjs; it keeps the sinks it first sees): one filter at a time. */
const localHooks = {
  stdout: { push: (byte: number) => localOutput.push(byte), reset() {}, toString: () => '' },
  stderr: new Tail(),
  input: undefined as Uint8Array | undefined,
  printErr(_message: string) {},
  stop: MOVE_TO_WORKER,
};

/**
 * Runs a blocking computation so that Ctrl-C and SIGTERM still end the process at once; it throws
 * an InterruptedError on Ctrl-C. The shell provides it (it alone touches the process's signals);
 * without one, every filter runs in the worker.
 */
export type Interruptible = <T>(run: () => T) => T;

/** Runs `run` through the shell's hook; a Ctrl-C it took is an InterruptedError. */
function interruptibly<T>(interruptible: Interruptible, run: () => T): T {
  try {
    return interruptible(run);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') throw new InterruptedError();
    throw error;
  }
}

/** Starts the engine's thread; its WebAssembly follows once compiled. */
function startWorker(file: URL, module: Promise<CompiledWasm>): WorkerEngine {
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const inFlight = new Int32Array(new SharedArrayBuffer(4));
  const data: WorkerData = { inFlight: inFlight.buffer as SharedArrayBuffer };
  // stdout and stderr: true keeps whatever the engine's glue prints (an "Aborted()") off the terminal.
  const worker: Worker = new Worker(file, { workerData: data, stdout: true, stderr: true });
  worker.stdout.resume();
  worker.stderr.resume();
  worker.unref();
  const engine: WorkerEngine = { worker, inFlight };
  worker.once('error', (error) => (engine.ended ??= error));
  worker.once('exit', () => (engine.ended ??= new Error('the jq engine stopped')));
  // A failure to compile is reported by the first request, as the engine's own.
  module.then(
    (compiled) => worker.postMessage({ kind: 'load', module: compiled } satisfies ToWorker),
    (error: Error) => worker.postMessage({ kind: 'load', error: error.message } satisfies ToWorker),
  );
  return engine;
}

/**
 * Compiles the engine's WebAssembly (on V8's background threads) and loads the engine in this
 * thread, or (tricks off, stderr on a terminal, or no way to interrupt this thread) starts the engine's thread at the same time. The runner calls it as
 * soon as it sees --jq, while the commands load. The first compileJq takes the engine started here.
 */
export function startJq(here?: { interruptible?: Interruptible; stderrIsTTY: boolean }): Promise<Engine> {
  started ??= (async () => {
    // Before the engine's WebAssembly is compiled: its optimising tier-up would hold the process at exit.
    await liftoffOnly();
    const { readFile } = process.getBuiltinModule('node:fs/promises');
    const file = workerFile();
    const module = readFile(new URL('jq.wasm', file)).then((bytes) => (globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<CompiledWasm> } }).WebAssembly.compile(bytes));
    module.catch(() => {}); // reported by compileJq
    const interruptible = here && !here.stderrIsTTY ? here.interruptible : undefined;
    if (!tricksOn || !interruptible) return { file, module, worker: startWorker(file, module) };
    const glue = createRequire(import.meta.url)(fileURLToPath(file)) as { loadJq(options: { wasmModule: CompiledWasm }): Promise<LocalJq> };
    (globalThis as { __wsctlJq?: typeof localHooks }).__wsctlJq = localHooks;
    const local = module.then((wasmModule) => glue.loadJq({ wasmModule }));
    local.catch(() => {});
    return { file, module, local, interruptible };
  })();
  return started;
}

/** A failure of the engine in this thread: past 1 GiB, or another abort. */
function localFailure(error: unknown): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  return new UsageError(MEMORY_FAILURE.test(`${localHooks.stderr.toString()}\n${message}`) ? MEMORY_MESSAGE : `--jq failed: ${message.split('\n')[0] ?? ''}`);
}

/** Compiles the expression (nothing is evaluated) so that a typo fails before any request is sent. */
export async function compileJq(expression: string, signal: AbortSignal, here?: { interruptible?: Interruptible; stderrIsTTY: boolean }): Promise<JqFilter> {
  const engine = await startJq(here);
  const interruptible = engine.interruptible as Interruptible;
  started = undefined; // one engine per filter
  let local: LocalJq | undefined;
  if (engine.local) {
    try {
      local = await engine.local;
    } catch (error) {
      throw localFailure(error);
    }
  }
  let session: WorkerSession | undefined;
  const worker = () => (session ??= workerSession(engine.worker ?? startWorker(engine.file, engine.module), signal));
  if (engine.worker) worker();

  // Module directives must come first; such an expression is checked when it runs.
  if (!/^\s*(import|include|module)\b/.test(expression)) {
    let checked: { exitCode: number; stderr: string };
    if (local) {
      if (signal.aborted) throw new InterruptedError();
      localHooks.input = undefined;
      localHooks.stderr.reset();
      const engineHere = local;
      try {
        // Nothing is evaluated: jq -n with `empty | …` only compiles the expression.
        const { exitCode } = interruptibly(interruptible, () => engineHere.raw('null', asArgument(`empty | ${expression}`), ['-n']));
        checked = { exitCode, stderr: localHooks.stderr.toString() };
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        throw localFailure(error);
      }
    } else checked = await worker().check(expression);
    if (checked.exitCode === JQ_COMPILE_ERROR) {
      session?.close();
      throw new UsageError(`Invalid --jq expression: ${jqMessage(checked.stderr)}`);
    }
  }
  session?.worker.unref();

  /** The filter on the main thread: its exit code, jq's stderr and held output; undefined when it must move to the worker. */
  const runHere = async (input: Uint8Array, flags: string[]): Promise<{ exitCode: number; stderr: string; chunks: Uint8Array[] } | undefined> => {
    // A Ctrl-C that came before vm watches for one is handled by the process's listeners first:
    // the second turn of the event loop has read its signal pipe.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) throw new InterruptedError();
    const engineHere = local as LocalJq;
    const output = new LocalOutput();
    localOutput = output;
    localHooks.stderr.reset();
    localHooks.input = input;
    try {
      const { exitCode } = interruptibly(interruptible, () => engineHere.raw('', asArgument(expression), flags));
      return { exitCode, stderr: localHooks.stderr.toString(), chunks: output.take() };
    } catch (error) {
      // The engine stopped part-way cannot run again.
      local = undefined;
      if (error === MOVE_TO_WORKER) return undefined;
      if (error instanceof InterruptedError) throw error;
      throw localFailure(error);
    } finally {
      localHooks.input = undefined;
    }
  };

  return {
    async run(json, tty, sink) {
      const input = new TextEncoder().encode(json);
      const flags = tty ? ['-c'] : ['-r', '-c'];
      const lines = tty ? new TerminalLines() : undefined;
      const write = async (bytes: Uint8Array) => {
        if (lines) {
          const text = lines.push(bytes);
          if (text !== '') await sink.write(text);
        } else await sink.write(bytes);
      };
      const here = local && input.length <= LOCAL_INPUT_BYTES ? await runHere(input, flags) : undefined;
      if (here) {
        if (here.exitCode !== 0) throw new UsageError(`--jq failed: ${jqMessage(here.stderr)}`);
        for (const bytes of here.chunks) await write(bytes);
        if (lines) {
          const rest = lines.end();
          if (rest !== '') await sink.write(rest);
        }
        return;
      }
      await worker().run(expression, input, flags, lines, write, sink);
    },
    close() {
      local = undefined;
      session?.close();
    },
  };
}

// A leading space keeps an expression such as "-1" from being read as a flag of jq's own.
const asArgument = (expression: string) => ` ${expression}`;

interface WorkerSession {
  worker: Worker;
  check(expression: string): Promise<{ exitCode: number; stderr: string }>;
  run(expression: string, input: Uint8Array, flags: string[], lines: TerminalLines | undefined, write: (bytes: Uint8Array) => Promise<void>, sink: Sink): Promise<void>;
  close(): void;
}

/** The filter's requests to the engine's thread; Ctrl-C (signal) terminates the thread. */
function workerSession({ worker, inFlight, ended }: WorkerEngine, signal: AbortSignal): WorkerSession {
  // What the current request listens to; every message and failure goes to it.
  let listener: { message(m: FromWorker): void; fail(error: Error): void } | undefined;
  let dead: Error | undefined;
  const die = (error: Error) => {
    dead ??= error;
    listener?.fail(dead);
    listener = undefined;
  };
  worker.on('message', (m: FromWorker) => listener?.message(m));
  worker.on('error', (error: Error & { code?: string }) => die(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new UsageError(MEMORY_MESSAGE) : new UsageError(`--jq failed: ${error.message}`)));
  worker.on('exit', () => die(new UsageError('--jq failed: the jq engine stopped.')));
  const interrupt = () => {
    die(new InterruptedError());
    void worker.terminate();
  };
  if (ended) die(new UsageError(`--jq failed: ${ended.message}`));
  if (signal.aborted) interrupt();
  else signal.addEventListener('abort', interrupt, { once: true });

  /** Sends a request; settles when handle says so, or the worker fails. */
  const ask = <T>(request: ToWorker, transfer: ArrayBuffer[], handle: (m: FromWorker, settle: (result: T | Error) => void) => void): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (dead) return reject(dead);
      worker.ref();
      const settle = (result: T | Error) => {
        listener = undefined;
        worker.unref();
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      listener = { message: (m) => handle(m, settle), fail: settle };
      worker.postMessage(request, transfer);
    });

  const fatal = (m: { memory: boolean; message: string }) => {
    const error = new UsageError(m.memory ? MEMORY_MESSAGE : `--jq failed: ${m.message}`);
    die(error);
    void worker.terminate();
    return error;
  };

  return {
    worker,
    check: (expression) =>
      ask<{ exitCode: number; stderr: string }>({ kind: 'check', expression }, [], (m, settle) => {
        if (m.kind === 'checked') settle(m);
        else if (m.kind === 'fatal') settle(fatal(m));
      }),
    async run(expression, input, flags, lines, write, sink) {
      let held: Uint8Array[] | undefined = [];
      let heldBytes = 0;
      // Chunks are written one after the other; each one written lets the worker send another.
      let writing = Promise.resolve();
      const written = () => {
        Atomics.sub(inFlight, 0, 1);
        Atomics.notify(inFlight, 0);
      };
      const flushHeld = async () => {
        const chunks = held ?? [];
        held = undefined;
        for (const bytes of chunks) await write(bytes);
      };
      let failure: unknown;
      const step = (work: () => Promise<void>) => {
        writing = writing.then(work).catch((error: unknown) => {
          failure ??= error;
        });
      };
      const outcome = await ask<{ exitCode: number; stderr: string }>({ kind: 'run', expression, input, flags }, [input.buffer as ArrayBuffer], (m, settle) => {
        if (m.kind === 'out') {
          step(async () => {
            if (held) {
              held.push(m.bytes);
              heldBytes += m.bytes.length;
              written();
              if (heldBytes > HOLD_BYTES) await flushHeld();
              return;
            }
            await write(m.bytes);
            written();
          });
        } else if (m.kind === 'done') step(async () => settle(m));
        else if (m.kind === 'fatal') settle(fatal(m));
      });
      await writing;
      if (failure) throw failure;
      if (outcome.exitCode !== 0) {
        // Output already shown stays, as jq's would; held output of a failed filter is dropped.
        if (!held && lines) await sink.write(lines.end());
        throw new UsageError(`--jq failed: ${jqMessage(outcome.stderr)}`);
      }
      await flushHeld();
      if (lines) {
        const rest = lines.end();
        if (rest !== '') await sink.write(rest);
      }
    },
    close() {
      signal.removeEventListener('abort', interrupt);
      listener = undefined;
      dead ??= new UsageError('--jq: the engine is closed.');
      void worker.terminate();
    },
  };
}
