// --jq: the jq language itself (jq 1.7.1 compiled to WebAssembly, the jq-wasm package), loaded
// only when --jq is given. Output as gh prints it: each result on its own line, strings raw,
// every other value as compact JSON.
import { UsageError } from '../errors.js';
import { liftoffOnly } from '../tricks.js';

export interface JqFilter {
  /** The lines to print for this document (given as JSON text). */
  apply(json: string): Promise<string[]>;
}

type Engine = typeof import('jq-wasm');

// jq exits 3 for an expression that does not compile and 5 for an error at run time.
const JQ_COMPILE_ERROR = 3;

/** jq's own message, on one line: "jq: error: syntax error, unexpected ...". */
function jqMessage(stderr: string): string {
  const first = stderr.split('\n').find((line) => line.trim() !== '') ?? 'jq failed';
  return first.replace(/^jq: error \(at [^)]*\):/, 'jq: error:').trim();
}

// A leading space keeps an expression such as "-1" from being read as a flag of jq's own.
const asArgument = (expression: string) => ` ${expression}`;

/** Compiles the expression (nothing is evaluated) so that a typo fails before any request is sent. */
export async function compileJq(expression: string): Promise<JqFilter> {
  // Before the engine's WebAssembly is compiled: its optimising tier-up would hold the process at exit.
  await liftoffOnly();
  const loaded = (await import('jq-wasm')) as Engine & { default?: Engine };
  const engine = loaded.default ?? loaded; // a CommonJS module
  // Module directives must come first; such an expression is checked when it runs.
  if (!/^\s*(import|include|module)\b/.test(expression)) {
    const checked = await engine.raw('null', asArgument(`empty | ${expression}`), ['-n']);
    if (checked.exitCode === JQ_COMPILE_ERROR) throw new UsageError(`Invalid --jq expression: ${jqMessage(checked.stderr)}`);
  }
  return {
    async apply(json) {
      const { stdout, stderr, exitCode } = await engine.raw(json, asArgument(expression), ['-c']);
      if (exitCode !== 0) throw new UsageError(`--jq failed: ${jqMessage(stderr)}`);
      if (stdout === '') return [];
      return stdout.split('\n').map((line) => (line.startsWith('"') ? (JSON.parse(line) as string) : line));
    },
  };
}
