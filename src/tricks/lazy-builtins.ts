// A speed trick (./registry.ts): Node's modules that undici and commander require as they load,
// for what a command seldom does (scripts/build.mjs gives them these, and no one else). Each loads
// the real module when first used, and every use goes to it, but for two answers node:http gives
// undici as it loads (lazyHttp): a new release of either dependency can make this slower, and the
// tests that a request loads none of these modules then fail naming it (test/speed.test.ts).
type NodeAssert = typeof import('node:assert');

function loader<T>(name: string): () => T {
  let real: T | undefined;
  return () => {
    real ??= process.getBuiltinModule(name) as T;
    return real;
  };
}

const assertModule = loader<NodeAssert>('node:assert');

/**
 * node:assert. `assert(value)` does nothing when value is truthy (Node's documented contract), so a
 * passing assertion needs no module; a failing one, and any other use, goes to node:assert.
 */
export const lazyAssert = new Proxy(function assert() {} as unknown as NodeAssert, {
  apply: (_target, self, args: unknown[]) => (args[0] ? undefined : Reflect.apply(assertModule(), self, args)),
  get: (_target, key) => Reflect.get(assertModule(), key),
  has: (_target, key) => Reflect.has(assertModule(), key),
});

const childProcessModule = loader<typeof import('node:child_process')>('node:child_process');

/** node:child_process: commander spawns an executable subcommand with it, which wsctl has none of. */
export const lazyChildProcess = new Proxy({} as typeof import('node:child_process'), {
  get: (_target, key) => Reflect.get(childProcessModule(), key),
  has: (_target, key) => Reflect.has(childProcessModule(), key),
  ownKeys: () => Reflect.ownKeys(childProcessModule()),
  getOwnPropertyDescriptor: (_target, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(childProcessModule(), key);
    return descriptor && { ...descriptor, configurable: true };
  },
});

const httpModule = loader<typeof import('node:http')>('node:http');

/** Node's limit on a response's headers: 16 KiB, unless --max-http-header-size sets it, which node:http then answers. */
function maxHeaderSize(): number {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) =>
    /^--max[-_]http[-_]header[-_]size/.test(arg),
  );
  return given ? httpModule().maxHeaderSize : 16 * 1024;
}

/** What undici compares a stream's class with as it destroys one, to unhook a node:http message first: wsctl gives it none. */
class NoIncomingMessage {}

/**
 * node:http for undici, which speaks HTTP itself (its own parser) and reads two things of node:http
 * as it loads: maxHeaderSize (Node's, as node:http says it) and IncomingMessage (a class no stream
 * of wsctl's is). Anything else goes to node:http, loaded when first used.
 */
export const lazyHttp = new Proxy({} as typeof import('node:http'), {
  get: (_target, key) => {
    if (key === 'maxHeaderSize') return maxHeaderSize();
    if (key === 'IncomingMessage') return NoIncomingMessage;
    return Reflect.get(httpModule(), key);
  },
  has: (_target, key) => Reflect.has(httpModule(), key),
});
