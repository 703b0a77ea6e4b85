// --jq: the jq language itself (jq 1.8.2 compiled to WebAssembly, the jq-wasm package), loaded
// only when --jq is given and run in a worker thread (jq-worker.ts), so that Ctrl-C and SIGTERM
// stop any filter at once and a filter that needs more than 1 GiB ends with one line, never a
// crash. Output as gh prints it: each result on its own line, strings raw, every other value as
// compact JSON; on a terminal, strings are cleaned as in human output (cli.md §3).
import type { Worker } from 'node:worker_threads';
import { InterruptedError, UsageError } from '../errors.js';
import { liftoffOnly, tricksOn } from '../tricks.js';
import { followPath, plainPath } from './jq-path.js';
import type { Sink } from './pager.js';
import { clean, escapeInvisible } from '../sanitize.js';
import type { CompiledWasm, FromWorker, ToWorker, WorkerData } from './jq-protocol.js';

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

// A lone surrogate is the one thing JSON.stringify escapes as \udXXX (a pair is written as it is);
// an odd run of backslashes before it makes it an escape rather than text.
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * The document as jq 1.8 can read it: jq refuses a whole document with a lone surrogate in it
 * ("Invalid \uXXXX\uXXXX surrogate pair escape"), where --json prints it; it gets U+FFFD there,
 * as jq 1.7 read it. json is JSON.stringify's text.
 */
export function forJq(json: string): string {
  return json.includes('\\ud') ? json.replace(LONE_SURROGATE_ESCAPE, '$1\\ufffd') : json;
}

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
    return forTerminal(text.slice(0, end));
  }
  end(): string {
    const text = this.rest + this.decoder.decode();
    this.rest = '';
    return forTerminal(text);
  }
}

/** Lines of `jq -c` output for a terminal: strings unquoted and cleaned, other values' invisible characters escaped. */
function forTerminal(lines: string): string {
  if (lines === '') return '';
  return lines.replace(/[^\n]+/g, (line) => (line.startsWith('"') ? clean(JSON.parse(line) as string) : escapeInvisible(line)));
}

interface Engine {
  worker: Worker;
  inFlight: Int32Array;
  /** Why the thread ended before a filter took it. */
  ended?: Error;
}

let started: Promise<Engine> | undefined;

/** The runner, as soon as it sees --jq: the engine starts while the commands load, unless the filter is a plain path. */
export function prestartJq(expression: string | undefined): void {
  if (tricksOn && expression !== undefined && plainPath(expression)) return;
  startJq().catch(() => {});
}

/**
 * Starts the engine's thread and compiles its WebAssembly (on V8's background threads) at the
 * same time, so that neither waits for the other; main.ts calls it as soon as it sees --jq, while
 * the commands load. The first compileJq takes the engine started here.
 */
export function startJq(): Promise<Engine> {
  started ??= (async () => {
    // Before the engine's WebAssembly is compiled: its optimising tier-up would hold the process at exit.
    await liftoffOnly();
    const [{ Worker }, { readFile }] = await Promise.all([import('node:worker_threads'), import('node:fs/promises')]);
    const file = workerFile();
    const compiled = readFile(new URL('jq.wasm', file)).then((bytes) => (globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<CompiledWasm> } }).WebAssembly.compile(bytes));
    const inFlight = new Int32Array(new SharedArrayBuffer(4));
    const data: WorkerData = { inFlight: inFlight.buffer as SharedArrayBuffer };
    // stdout and stderr: true keeps whatever the engine's glue prints (an "Aborted()") off the terminal.
    const worker: Worker = new Worker(file, { workerData: data, stdout: true, stderr: true });
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    const engine: Engine = { worker, inFlight };
    worker.once('error', (error) => (engine.ended ??= error));
    worker.once('exit', () => (engine.ended ??= new Error('the jq engine stopped')));
    // A failure to compile is reported by the first request, as the engine's own.
    compiled.then(
      (module) => worker.postMessage({ kind: 'load', module } satisfies ToWorker),
      (error: Error) => worker.postMessage({ kind: 'load', error: error.message } satisfies ToWorker),
    );
    return engine;
  })();
  return started;
}

/** Compiles the expression (nothing is evaluated) so that a typo fails before any request is sent. */
export async function compileJq(expression: string, signal: AbortSignal): Promise<JqFilter> {
  const steps = tricksOn ? plainPath(expression) : undefined;
  if (!steps) return compileInEngine(expression, signal);
  // A plain path always compiles: the engine starts only for a document the path cannot answer.
  let engine: Promise<JqFilter> | undefined;
  return {
    async run(json, tty, sink) {
      const output = followPath(json, steps, !tty);
      if (output === undefined) return (await (engine ??= compileInEngine(expression, signal))).run(json, tty, sink);
      const text = tty ? forTerminal(output) : output;
      if (text !== '') await sink.write(text);
    },
    close() {
      engine?.then((filter) => filter.close(), () => {});
    },
  };
}

async function compileInEngine(expression: string, signal: AbortSignal): Promise<JqFilter> {
  const { worker, inFlight, ended } = await startJq();
  started = undefined; // one engine per filter

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

  // Module directives must come first; such an expression is checked when it runs.
  if (!/^\s*(import|include|module)\b/.test(expression)) {
    const checked = await ask<{ exitCode: number; stderr: string }>({ kind: 'check', expression }, [], (m, settle) => {
      if (m.kind === 'checked') settle(m);
      else if (m.kind === 'fatal') settle(fatal(m));
    });
    if (checked.exitCode === JQ_COMPILE_ERROR) {
      void worker.terminate();
      throw new UsageError(`Invalid --jq expression: ${jqMessage(checked.stderr)}`);
    }
  }
  worker.unref();

  return {
    async run(json, tty, sink) {
      const input = new TextEncoder().encode(forJq(json));
      const lines = tty ? new TerminalLines() : undefined;
      let held: Uint8Array[] | undefined = [];
      let heldBytes = 0;
      // Chunks are written one after the other; each one written lets the worker send another.
      let writing = Promise.resolve();
      const written = () => {
        Atomics.sub(inFlight, 0, 1);
        Atomics.notify(inFlight, 0);
      };
      const write = async (bytes: Uint8Array) => {
        if (lines) {
          const text = lines.push(bytes);
          if (text !== '') await sink.write(text);
        } else await sink.write(bytes);
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
      const outcome = await ask<{ exitCode: number; stderr: string }>({ kind: 'run', expression, input, flags: tty ? ['-c'] : ['-r', '-c'] }, [input.buffer as ArrayBuffer], (m, settle) => {
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
