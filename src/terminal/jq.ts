// --jq: the jq language itself (jq 1.8.2 compiled to WebAssembly, the jq-wasm package), loaded
// only when --jq is given. A filter's first try runs on the main thread within a time slice and a
// memory and output bound (jq-local.ts, a speed trick); past them, and with the tricks off, it runs
// in a worker thread (jq-thread.ts), so that Ctrl-C and SIGTERM stop any filter at once and a
// filter that needs more than 1 GiB ends with one line, never a crash. A filter that is only a path
// needs no engine (jq-path.ts, a speed trick). Output as gh prints it: each result on its own line,
// strings raw, every other value as compact JSON; on a terminal, strings are cleaned as in human
// output (cli.md §3).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireBuilt } from '../boot/code-cache.js';
import { InterruptedError, UsageError } from '../errors.js';
import type { LocalEngine } from './jq-local.js';
import { followPath, plainPath } from './jq-path.js';
import type { CompiledWasm, Outcome } from './jq-protocol.js';
import { startThread, threadSession, type EngineThread, type ThreadSession } from './jq-thread.js';
import type { Sink } from './pager.js';
import { clean, escapeInvisible } from '../common/sanitize.js';

export { MEMORY_MESSAGE } from './jq-thread.js';
// For wsctl mcp's filters (src/mcp/jq-filter.ts), which import this entry itself: a module of the
// engine imported from there too would move this entry's code into a chunk that --jq then loads.
export { startThread, threadSession } from './jq-thread.js';
/** The expression as jq's argument: a leading space keeps one such as "-1" from being read as a flag of jq's own. */
export const asArgument = (expression: string) => ` ${expression}`;

export interface JqFilter {
  /**
   * Filters one document (its JSON text: the service's own, so that numbers read as it wrote them,
   * or JSON.stringify's of a document wsctl made) into sink as the results come. The first MiB is
   * held until the filter ends, so that a filter that fails early prints nothing; past it, output
   * flows. tty: strings cleaned for a terminal; otherwise jq's bytes as they are.
   */
  run(json: string, tty: boolean, sink: Sink): Promise<void>;
  /** Ends the engine's thread. */
  close(): void;
}

// jq exits 3 for an expression that does not compile and 5 for an error at run time.
export const JQ_COMPILE_ERROR = 3;
const HOLD_BYTES = 1 << 20;
/** A longer document (in characters) goes straight to the worker, on any path: reading it alone would hold this thread too long. */
const LOCAL_INPUT_LENGTH = 8 << 20;

/**
 * After a filter ran on this thread, before its output is written: a Ctrl-C that came meanwhile
 * is an InterruptedError. The SIGINT listener runs once the event loop has read its signal pipe,
 * which two turns make sure of (~4 µs; --follow pays them for each document).
 */
async function heardSignals(signal: AbortSignal): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  if (signal.aborted) throw new InterruptedError();
}

// The escape of a high surrogate (either case) with no low one's escape after it; an odd run of
// backslashes before it makes it an escape rather than text. jq reads a lone low one as U+FFFD.
const LONE_HIGH_ESCAPE = /(?<!\\)((?:\\\\)*)\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})/g;

/**
 * The document as jq 1.8 can read it: jq refuses a whole document with a lone high surrogate in
 * it ("Invalid \uXXXX\uXXXX surrogate pair escape"), where --json prints it; it gets U+FFFD there,
 * as jq 1.7 read it. json is the document's text: the service's own, or JSON.stringify's.
 */
export function forJq(json: string): string {
  return /\\u[dD][89abAB]/.test(json) ? json.replace(LONE_HIGH_ESCAPE, '$1\\ufffd') : json;
}

/** jq's own message, on one line: "jq: error: syntax error, unexpected ...". */
export function jqMessage(stderr: string, before: string): string {
  const first = stderr.split('\n').find((line) => line.trim() !== '') ?? 'jq failed';
  // The engine read `before` ahead of the expression: positions on its first line are counted as typed.
  const typed = first.replace(
    /\bline 1, column (\d+)/,
    (_m, column: string) => `line 1, column ${Math.max(1, Number(column) - before.length)}`,
  );
  return typed
    .replace(/^jq: error \(at [^)]*\):/, 'jq: error:')
    .replace(/:\s*$/, '')
    .trim();
}

/** What the compile check runs: jq -n with `empty | …` compiles the expression and evaluates nothing. */
export const CHECK_PREFIX = asArgument('empty | ');

/**
 * The worker's file: dist/jq-worker.cjs, next to the program that holds this module; from the
 * sources (the in-process tests), the built one (`npm test` builds first).
 */
export function workerFile(): URL {
  const here = import.meta.url;
  const built = here.lastIndexOf('/dist/');
  return built >= 0 ? new URL(`${here.slice(0, built)}/dist/jq-worker.cjs`) : new URL('../../dist/jq-worker.cjs', here);
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
  file: URL;
  module: Promise<CompiledWasm>;
  /** Tricks on: the engine on this thread, for each filter's first try (undefined if it could not load). */
  local?: Promise<LocalEngine | undefined>;
  /** Tricks off: the worker, started at once. */
  thread?: EngineThread;
}

let started: Promise<Engine> | undefined;

/** The runner, as soon as it sees --jq: the engine loads while the commands load, unless the filter is a plain path. */
export function prestartJq(expression: string | undefined): void {
  if (expression !== undefined && plainPath(expression)) return;
  startJq().catch(() => {});
}

/**
 * Compiles the engine's WebAssembly and loads the engine on this thread. The runner calls it as soon as it sees --jq, while the commands load; the
 * first compileJq takes the engine started here.
 */
export function startJq(): Promise<Engine> {
  started ??= (async () => {
    const file = workerFile();
    const { WebAssembly } = globalThis as unknown as {
      WebAssembly: { Module: new (bytes: Uint8Array) => CompiledWasm; compile(bytes: Uint8Array): Promise<CompiledWasm> };
    };
    // Compiled at once on this thread (~3 ms, lazily): WebAssembly.compile's answer waits for the
    // event loop of a thread that is busy loading the commands (~15 ms).
    const module = Promise.resolve().then(() => new WebAssembly.Module(readFileSync(new URL('jq.wasm', file))));
    module.catch(() => {}); // the thread reports it
    // The engine's file (jq-wasm's glue), from wsctl's code cache of it, then its host, which takes
    // jq-protocol.ts from that file: a path (./jq-path.ts) does without either.
    const local = module
      .then(async (compiled) => {
        const glue = requireBuilt(fileURLToPath(file));
        return (await import('./jq-local.js')).loadLocalEngine(glue, compiled, HOLD_BYTES);
      })
      .catch(() => undefined);
    return { file, module, local };
  })();
  return started;
}

/** Compiles the expression (nothing is evaluated) so that a typo fails before any request is sent. */
export async function compileJq(expression: string, signal: AbortSignal): Promise<JqFilter> {
  const steps = plainPath(expression);
  if (!steps) return compileInEngine(expression, signal);
  // A plain path always compiles: the engine starts only for a document the path cannot answer.
  let engine: Promise<JqFilter> | undefined;
  return {
    async run(json, tty, sink) {
      const output = json.length <= LOCAL_INPUT_LENGTH ? followPath(json, steps, !tty) : undefined;
      if (output === undefined) return (await (engine ??= compileInEngine(expression, signal))).run(json, tty, sink);
      await heardSignals(signal);
      const text = tty ? forTerminal(output) : output;
      if (text !== '') await sink.write(text);
    },
    close() {
      engine?.then(
        (filter) => filter.close(),
        () => {},
      );
    },
  };
}

async function compileInEngine(expression: string, signal: AbortSignal): Promise<JqFilter> {
  const engine = await startJq();
  started = undefined; // one engine per filter
  // The check and the first document here; any later one (--follow prints many) in the thread,
  // which works beside this one and which Ctrl-C stops at once.
  let local = await engine.local;
  let session: ThreadSession | undefined;
  const thread = () => (session ??= threadSession(engine.thread ?? startThread(engine.file, engine.module), signal));
  if (engine.thread) thread();

  // Module directives must come first; such an expression is checked when it runs.
  if (!/^\s*(import|include|module)\b/.test(expression)) {
    if (signal.aborted) throw new InterruptedError();
    // Nothing is evaluated: jq -n with `empty | …` only compiles the expression.
    const here = local?.run(`${CHECK_PREFIX}${expression}`, ['-n']);
    if (here) await heardSignals(signal);
    const checked = here ?? (await thread().check(`${CHECK_PREFIX}${expression}`));
    if (checked.exitCode === JQ_COMPILE_ERROR) {
      session?.close();
      throw new UsageError(`Invalid --jq expression: ${jqMessage(checked.stderr, CHECK_PREFIX)}`, { reason: 'jq_error' });
    }
  }
  session?.unref();

  return {
    async run(json, tty, sink) {
      if (signal.aborted) throw new InterruptedError();
      const document = forJq(json);
      const flags = tty ? ['-c'] : ['-r', '-c'];
      const lines = tty ? new TerminalLines() : undefined;
      const write = async (bytes: Uint8Array) => {
        if (lines) {
          const text = lines.push(bytes);
          if (text !== '') await sink.write(text);
        } else await sink.write(bytes);
      };
      // This thread's engine reads the text as it goes; the worker gets it encoded, without a copy.
      const here = local && document.length <= LOCAL_INPUT_LENGTH ? local.run(asArgument(expression), flags, document) : undefined;
      local = undefined;
      if (here) await heardSignals(signal);
      const outcome: Outcome =
        here ?? (await thread().run(asArgument(expression), new TextEncoder().encode(document), flags, HOLD_BYTES, write));
      if (outcome.exitCode !== 0) {
        // Output already shown stays, as jq's would; held output of a failed filter is dropped.
        if (outcome.flowed && lines) await sink.write(lines.end());
        throw new UsageError(`--jq failed: ${jqMessage(outcome.stderr, asArgument(''))}`, { reason: 'jq_error' });
      }
      for (const bytes of outcome.chunks) await write(bytes);
      if (lines) {
        const rest = lines.end();
        if (rest !== '') await sink.write(rest);
      }
    },
    close() {
      session?.close();
    },
  };
}
