// A tool call's `jq` filter (cli.md §8): the engine and bounds of --jq (src/terminal/jq*.ts), each
// filter in a worker thread of its own and never on the server's thread, which answers other calls
// meanwhile; the call's signal (`notifications/cancelled`) terminates it. Loaded only when a call
// passes `jq`: the server's start and a call without one never load the engine.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import type { CompiledWasm } from '../terminal/jq-protocol.js';

export interface CallFilter {
  /** The values the filter gives for a document (its JSON text), each as compact JSON. */
  values(json: string): Promise<string[]>;
  /** Ends the filter's thread. */
  close(): void;
}

const { WebAssembly } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> } };

// Compiled once for the server's life, off this thread; each filter's thread instantiates it.
let compiled: Promise<CompiledWasm> | undefined;
function engineModule(file: URL): Promise<CompiledWasm> {
  if (compiled) return compiled;
  const module = readFile(new URL('jq.wasm', file)).then((bytes) => WebAssembly.compile(bytes));
  compiled = module;
  // The thread reports the failure; the next call tries again.
  module.catch(() => {
    if (compiled === module) compiled = undefined;
  });
  return module;
}

/** An error of the engine's, its message naming the tool's argument where the command line names its flag. */
function asArgumentsError(error: unknown): unknown {
  if (error instanceof UsageError && error.message.startsWith('--jq')) error.message = error.message.replace(/^--jq/, 'jq');
  return error;
}

/**
 * Starts the filter's thread and compiles the expression there (nothing is evaluated), so that a
 * typo fails before anything is sent or anyone is asked. Output past maxBytes stops the filter.
 */
export async function compileFilter(expression: string, signal: AbortSignal, maxBytes: number): Promise<CallFilter> {
  // The engine's entry, as --jq loads it (a static import would split its code into a chunk of its own).
  const { asArgument, CHECK_PREFIX, forJq, JQ_COMPILE_ERROR, jqMessage, startThread, threadSession, workerFile } = await import(
    '../terminal/jq.js'
  );
  const file = workerFile();
  // The thread ends when the call is cancelled, or when the output passes maxBytes.
  const stop = new AbortController();
  let tooLarge = false;
  const follow = () => stop.abort();
  if (signal.aborted) follow();
  else signal.addEventListener('abort', follow, { once: true });
  const session = threadSession(startThread(file, engineModule(file)), stop.signal);
  const close = () => {
    session.close();
    signal.removeEventListener('abort', follow);
  };
  try {
    // Module directives must come first: such an expression is checked when it runs, as with --jq.
    if (!/^\s*(import|include|module)\b/.test(expression)) {
      const checked = await session.check(`${CHECK_PREFIX}${expression}`);
      if (checked.exitCode === JQ_COMPILE_ERROR) throw new UsageError(`Invalid jq filter: ${jqMessage(checked.stderr, CHECK_PREFIX)}`);
    }
  } catch (error) {
    close();
    throw asArgumentsError(error);
  }
  session.unref();
  return {
    async values(json) {
      let outcome: Awaited<ReturnType<typeof session.run>>;
      try {
        // Output is held up to maxBytes; the first byte past it (handed to write) ends the filter.
        outcome = await session.run(asArgument(expression), new TextEncoder().encode(forJq(json)), ['-c'], maxBytes, async () => {
          tooLarge = true;
          stop.abort();
        });
      } catch (error) {
        if (tooLarge && !signal.aborted)
          throw new UsageError(
            `The result is more than ${maxBytes / 1024 / 1024} MiB, the most a tool returns: pass a jq filter that keeps less.`,
          );
        throw asArgumentsError(error);
      }
      if (outcome.exitCode !== 0) throw new UsageError(`jq failed: ${jqMessage(outcome.stderr, asArgument(''))}`);
      const text = Buffer.concat(outcome.chunks).toString('utf8');
      return text === '' ? [] : text.replace(/\n$/, '').split('\n');
    },
    close,
  };
}
