// Every speed trick in one place (STYLE.md 14). Each says what it buys, measured on this project's
// benchmark (BENCHMARKS.md); the packages it leans on are pinned to exact versions in package.json;
// test/tricks.test.ts checks each assumption against the built bundle and fails loudly if it breaks.
import type { Dispatcher } from 'undici';

/**
 * undici parses HTTP with a WebAssembly module, and --jq's engine is one; V8's optimising tier-up
 * of them would hold the process ~140-230 ms at exit (for --jq, 1.9× → 1.5× of --json on Node 20).
 * Liftoff only: the flag must be set before a module is compiled, which is why it runs before
 * undici or the jq engine loads (test/tricks.test.ts proves the order). Node documents run-time V8 flags as unsupported: the
 * test also checks that the flag took effect.
 */
export async function liftoffOnly(): Promise<void> {
  const v8 = await import('node:v8');
  v8.setFlagsFromString('--liftoff-only');
  // V8 applies a flag's implications only at start-up: on Node 24+ tier-up stays on unless said.
  v8.setFlagsFromString('--no-wasm-tier-up');
  v8.setFlagsFromString('--no-wasm-dynamic-tiering');
}

export interface UndiciParts {
  Agent: new (options?: { allowH2?: boolean }) => Dispatcher;
  request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

/**
 * Only undici's Agent and request(), not its index, which loads http2, tls, fetch and more
 * (~40 ms per request on Node 20). Deep imports of undici/lib/…: undici is pinned to an exact
 * version, and the test imports both paths and checks their shapes.
 */
export async function undiciParts(): Promise<UndiciParts> {
  const [{ default: request }, { default: Agent }] = await Promise.all([import('undici/lib/api/api-request.js'), import('undici/lib/dispatcher/agent.js')]);
  return { request, Agent } as unknown as UndiciParts;
}
