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

/**
 * While a 50 MB transcript streams through, V8 doubles the young generation at each busy scavenge
 * up to its maximum (3 × 16 MB on Node 24 and 26), and the peak follows: ~140-155 MiB there for
 * `convo show` of 55,000 messages. Keeping it at its start size holds the peak near 105 MiB on
 * every Node line (issue 14, P3: at most 120) for ~0.05 s more. A run-time flag, like
 * liftoffOnly: test/tricks.test.ts checks that the flag exists on this Node and takes effect.
 */
export async function steadyYoungGeneration(): Promise<void> {
  const v8 = await import('node:v8');
  v8.setFlagsFromString(STEADY_YOUNG_GENERATION);
}

export const STEADY_YOUNG_GENERATION = '--semi-space-growth-factor=1';

/**
 * node:http and node:crypto without an ES module import. The ESM facade of a built-in module
 * reads every export, and lazy getters among them load more: on Node 22+ node:http's WebSocket
 * getters load Node's own copy of undici (~20-30 ms on every command, since the sandbox server,
 * the only user of node:http, is part of the commands' module), and node:crypto's webcrypto
 * getter loads WebCrypto. process.getBuiltinModule (Node 20.16+) gives the CommonJS exports, as
 * require() would. test/startup.test.ts checks that a request loads neither.
 */
export function builtinHttp(): typeof import('node:http') {
  return process.getBuiltinModule('node:http');
}

export function builtinCrypto(): typeof import('node:crypto') {
  return process.getBuiltinModule('node:crypto');
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

type Check = (value: unknown) => boolean;
interface SchemaDef {
  type: string;
  checks?: unknown[];
  shape?: Record<string, { _zod: { def: SchemaDef } }>;
  innerType?: { _zod: { def: SchemaDef } };
  element?: { _zod: { def: SchemaDef } };
  keyType?: { _zod: { def: SchemaDef } };
  valueType?: { _zod: { def: SchemaDef } };
}

const compiled = new WeakMap<object, Check | null>();

/**
 * zod's parse builds a copy of every object it checks: ~100 ms for the 55,000 messages of a large
 * transcript. For values fresh from JSON.parse, this predicate gives zod's yes or no for the
 * subset of zod the response schemas use (object, array, record of string keys, string, number,
 * boolean, unknown, nullish), compiled to one plain function per schema (~4 ms for the same
 * messages; nested closures took ~20 ms); zod still runs on a no, to name the field. Undefined
 * for a schema outside that subset. The generated source holds only the schema's own field names,
 * as JSON strings. test/tricks.test.ts checks it against zod on random values. Leans on zod's
 * `_zod.def`, the internal shape of zod 4's schemas (zod is pinned).
 */
export function quickCheck(schema: { _zod: { def: unknown } }): Check | undefined {
  let check = compiled.get(schema);
  if (check === undefined) {
    const helpers: string[] = [];
    const test = condition(schema._zod.def as SchemaDef, 'v', helpers);
    check = test === undefined ? null : (new Function(`${helpers.join('\n')}\nreturn (v) => ${test};`)() as Check);
    compiled.set(schema, check);
  }
  return check ?? undefined;
}

const OBJECT = (x: string) => `(typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x}))`;

/** A JavaScript condition that holds when the variable named x fits def; helpers gets the functions it calls. */
function condition(def: SchemaDef, x: string, helpers: string[]): string | undefined {
  if (def.checks && def.checks.length > 0) return undefined;
  const helper = (param: string, body: string) => {
    helpers.push(`function f${helpers.length}(${param}) {\n${body}\nreturn true;\n}`);
    return `f${helpers.length - 1}(${x})`;
  };
  const inner = (child: { _zod: { def: SchemaDef } } | undefined, name: string) => (child ? condition(child._zod.def, name, helpers) : undefined);
  switch (def.type) {
    case 'string':
      return `typeof ${x} === "string"`;
    case 'number':
      return `(typeof ${x} === "number" && Number.isFinite(${x}))`;
    case 'boolean':
      return `typeof ${x} === "boolean"`;
    case 'unknown':
      // As an object's field, zod wants the key present.
      return `${x} !== undefined`;
    case 'optional': {
      const test = inner(def.innerType, x);
      return test && `(${x} === undefined || ${test})`;
    }
    case 'nullable': {
      const test = inner(def.innerType, x);
      return test && `(${x} === null || ${test})`;
    }
    case 'array': {
      const test = inner(def.element, 'e');
      return test && helper('a', `if (!Array.isArray(a)) return false;\nfor (let i = 0; i < a.length; i++) { const e = a[i]; if (!(${test})) return false; }`);
    }
    case 'record': {
      const test = inner(def.valueType, 'e');
      if (!test || def.keyType?._zod.def.type !== 'string' || def.keyType._zod.def.checks?.length) return undefined;
      return helper('o', `if (!${OBJECT('o')}) return false;\nfor (const k of Object.keys(o)) { const e = o[k]; if (!(${test})) return false; }`);
    }
    case 'object': {
      const fields: string[] = [];
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        const test = condition(child._zod.def, 'e', helpers);
        if (!test) return undefined;
        fields.push(`{ const e = o[${JSON.stringify(key)}]; if (!(${test})) return false; }`);
      }
      return helper('o', `if (!${OBJECT('o')}) return false;\n${fields.join('\n')}`);
    }
    default:
      return undefined;
  }
}
