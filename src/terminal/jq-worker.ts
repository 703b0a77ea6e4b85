// The jq engine (built to dist/jq-worker.cjs, with jq-wasm's glue). Started as a worker
// thread, it runs a filter so that one that never ends or needs too much memory holds only this
// thread, which the main thread terminates on Ctrl-C or SIGTERM. jq's output goes to the main
// thread in chunks as it comes, at most MAX_IN_FLIGHT chunks ahead of what has been written (a
// filter such as `range(1e9)` never piles up in memory). The main thread also loads this file for
// a filter's first try there (jq-local.ts, with require()), having set its own hooks first.
import type { MessagePort } from 'node:worker_threads';
import { loadJq } from 'jq-wasm';
import type { FromWorker, ToWorker, WorkerData } from './jq-protocol.js';
import { MAX_IN_FLIGHT, MEMORY_FAILURE, OutputChunks, Tail } from './jq-protocol.js';

export { loadJq };

// Run as a worker thread's script, this file is its main module; loaded by the main thread (the
// engine's glue and jq-protocol.ts for jq-local.ts) it is not, and
// node:worker_threads (2-3 ms) is not loaded.
if (typeof module !== 'undefined' && require.main === module) {
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  if (parentPort) serve(parentPort, new Int32Array((workerData as WorkerData).inFlight));
}

function serve(port: MessagePort, inFlight: Int32Array): void {
  const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

  /** jq's stdout (the glue hands it over a block at a time), passed on in chunks as they fill. */
  const stdout = new OutputChunks((bytes) => {
    // Waits while the main thread has not written enough of what it was sent.
    for (let n = Atomics.load(inFlight, 0); n >= MAX_IN_FLIGHT; n = Atomics.load(inFlight, 0)) Atomics.wait(inFlight, 0, n);
    Atomics.add(inFlight, 0, 1);
    post({ kind: 'out', bytes }, [bytes.buffer as ArrayBuffer]);
  });
  const stderr = new Tail();
  // Read by the glue in place of its own sinks and input (scripts/jq-wasm.cjs).
  const hooks: { stdout: OutputChunks; stderr: Tail; input?: Uint8Array } = { stdout, stderr };
  (globalThis as { __wsctlJq?: typeof hooks }).__wsctlJq = hooks;

  /** An engine that aborted (jq could not allocate) cannot run again: the main thread ends the command. */
  function fatal(error: unknown): FromWorker {
    const message = error instanceof Error ? error.message : String(error);
    const memory = MEMORY_FAILURE.test(`${stderr.toString()}\n${message}`);
    return { kind: 'fatal', memory, message: message.split('\n')[0] ?? '' };
  }

  let loaded: (engine: ReturnType<typeof loadJq>) => void;
  const engine = new Promise<Awaited<ReturnType<typeof loadJq>>>((resolve) => (loaded = resolve));

  port.on('message', async (message: ToWorker) => {
    if (message.kind === 'load') {
      loaded(
        message.module
          ? loadJq({ wasmModule: message.module as NonNullable<Parameters<typeof loadJq>[0]>['wasmModule'] })
          : Promise.reject(new Error(message.error)),
      );
      return;
    }
    let jq;
    try {
      jq = await engine;
    } catch (error) {
      return post(fatal(error));
    }
    try {
      if (message.kind === 'check') {
        hooks.input = undefined;
        // Nothing is evaluated: jq -n with `empty | …` only compiles the expression.
        const { exitCode } = jq.raw('null', message.argument, ['-n']);
        stdout.reset();
        return post({ kind: 'checked', exitCode, stderr: stderr.toString() });
      }
      hooks.input = message.input;
      const { exitCode } = jq.raw('', message.argument, message.flags);
      hooks.input = undefined;
      stdout.pass();
      post({ kind: 'done', exitCode, stderr: stderr.toString() });
    } catch (error) {
      stdout.reset();
      post(fatal(error));
    }
  });
}
