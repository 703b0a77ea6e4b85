// A speed trick (./registry.ts): Node's modules that undici and commander require as they load,
// for what a command seldom does (scripts/build.mjs gives them these, and no one else). Each loads
// the real module when first used, and every use goes to it: nothing here knows what the
// dependency does with the module, so a new release of it can make this slower, never wrong.
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
