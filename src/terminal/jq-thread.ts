// The jq engine's worker thread (jq-worker.ts), seen from the main thread: started with the
// engine's compiled WebAssembly, asked to check or run a filter, and terminated on Ctrl-C (the
// command's signal), so that any filter stops at once; SIGTERM ends the whole process.
import type { Worker } from 'node:worker_threads';
import { InterruptedError, UsageError } from '../errors.js';
import type { CompiledWasm, FromWorker, Outcome, ToWorker, WorkerData } from './jq-protocol.js';

export const MEMORY_MESSAGE = '--jq: the filter needs more than 1 GiB of memory.';

export interface EngineThread {
  worker: Worker;
  inFlight: Int32Array;
  /** Why the thread ended before a filter took it. */
  ended?: Error;
}

/** Starts the engine's thread; its WebAssembly follows once compiled. */
export function startThread(file: URL, module: Promise<CompiledWasm>): EngineThread {
  const inFlight = new Int32Array(new SharedArrayBuffer(4));
  const data: WorkerData = { inFlight: inFlight.buffer as SharedArrayBuffer };
  // stdout and stderr: true keeps whatever the engine's glue prints (an "Aborted()") off the terminal.
  // Loaded here, not with the module: a filter that the main thread answers never starts a thread (2-4 ms to load).
  const { Worker: WorkerThread } = process.getBuiltinModule('node:worker_threads');
  const worker: Worker = new WorkerThread(file, { workerData: data, stdout: true, stderr: true });
  worker.stdout.resume();
  worker.stderr.resume();
  worker.unref();
  const thread: EngineThread = { worker, inFlight };
  worker.once('error', (error) => (thread.ended ??= error));
  worker.once('exit', () => (thread.ended ??= new Error('the jq engine stopped')));
  // A failure to compile is reported by the first request, as the engine's own.
  module.then(
    (compiled) => worker.postMessage({ kind: 'load', module: compiled } satisfies ToWorker),
    (error: Error) => worker.postMessage({ kind: 'load', error: error.message } satisfies ToWorker),
  );
  return thread;
}

export interface ThreadSession {
  /** Compiles the filter without running it; argument: `empty | ` and the filter, as jq's argument (jq.ts CHECK_PREFIX). */
  check(argument: string): Promise<{ exitCode: number; stderr: string }>;
  /** Runs the filter; output past holdBytes flows to write as it comes. */
  run(
    /** The filter as jq's argument (jq.ts asArgument). */
    argument: string,
    input: Uint8Array,
    flags: string[],
    holdBytes: number,
    write: (bytes: Uint8Array) => Promise<void>,
  ): Promise<Outcome>;
  /** Lets the process exit while the thread waits for a request. */
  unref(): void;
  close(): void;
}

/** A filter's requests to the engine's thread; the signal terminates the thread. */
export function threadSession({ worker, inFlight, ended }: EngineThread, signal: AbortSignal): ThreadSession {
  // What the current request listens to; every message and failure goes to it.
  let listener: { message(m: FromWorker): void; fail(error: Error): void } | undefined;
  let dead: Error | undefined;
  const die = (error: Error) => {
    dead ??= error;
    listener?.fail(dead);
    listener = undefined;
  };
  worker.on('message', (m: FromWorker) => listener?.message(m));
  worker.on('error', (error: Error & { code?: string }) =>
    die(
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new UsageError(MEMORY_MESSAGE, { reason: 'jq_error' })
        : new UsageError(`--jq failed: ${error.message}`, { reason: 'jq_error' }),
    ),
  );
  worker.on('exit', () => die(new UsageError('--jq failed: the jq engine stopped.', { reason: 'jq_error' })));
  const interrupt = () => {
    die(new InterruptedError());
    void worker.terminate();
  };
  if (ended) die(new UsageError(`--jq failed: ${ended.message}`, { reason: 'jq_error' }));
  if (signal.aborted) interrupt();
  else signal.addEventListener('abort', interrupt, { once: true });

  /** Sends a request; settles when handle says so, or the worker fails. */
  const ask = <T>(
    request: ToWorker,
    transfer: ArrayBuffer[],
    handle: (m: FromWorker, settle: (result: T | Error) => void) => void,
  ): Promise<T> =>
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
    const error = new UsageError(m.memory ? MEMORY_MESSAGE : `--jq failed: ${m.message}`, { reason: 'jq_error' });
    die(error);
    void worker.terminate();
    return error;
  };

  return {
    check: (argument) =>
      ask<{ exitCode: number; stderr: string }>({ kind: 'check', argument }, [], (m, settle) => {
        if (m.kind === 'checked') settle(m);
        else if (m.kind === 'fatal') settle(fatal(m));
      }),
    async run(argument, input, flags, holdBytes, write) {
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
      const outcome = await ask<{ exitCode: number; stderr: string }>(
        { kind: 'run', argument, input, flags },
        [input.buffer as ArrayBuffer],
        (m, settle) => {
          if (m.kind === 'out') {
            step(async () => {
              if (held) {
                held.push(m.bytes);
                heldBytes += m.bytes.length;
                written();
                if (heldBytes > holdBytes) await flushHeld();
                return;
              }
              await write(m.bytes);
              written();
            });
          } else if (m.kind === 'done') step(async () => settle(m));
          else if (m.kind === 'fatal') settle(fatal(m));
        },
      );
      await writing;
      if (failure) throw failure;
      return { exitCode: outcome.exitCode, stderr: outcome.stderr, chunks: held ?? [], flowed: !held };
    },
    unref() {
      worker.unref();
    },
    close() {
      signal.removeEventListener('abort', interrupt);
      listener = undefined;
      dead ??= new UsageError('--jq: the engine is closed.', { reason: 'jq_error' });
      void worker.terminate();
    },
  };
}
