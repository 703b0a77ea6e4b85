// Every speed trick in one place (STYLE.md 14): each leans on something a maintainer would not
// expect (a dependency's internals, a run-time V8 flag, an answer given before the program loads)
// and stays only because the bench shows, side by side, that it buys 10% or more of a row users
// feel on Node 24 (BENCHMARKS.md). TRICKS lists each, where it sits and what it buys; the packages
// they lean on are pinned to exact versions in package.json, and test/speed.test.ts checks each
// assumption against the built program or the running Node and fails naming the version when one
// breaks. No trick has an off switch: the plain way is what remains when one goes.
import type { Dispatcher } from 'undici';

export interface Trick {
  name: string;
  /** Where the code is. */
  where: string;
  /** What it buys, measured; the test that guards it is named after it in test/speed.test.ts. */
  buys: string;
}

// Measured on Node 24 (and 20, 22, 26 where said), side by side with a build without the trick
// alone (test/bench/side.mjs, medians of alternating runs on a shared 2-core machine): read the
// ratios, not the times.
export const TRICKS: readonly Trick[] = [
  {
    name: 'code cache',
    where:
      'src/boot/code-cache.ts (run by src/boot/index.ts; the cache files: $XDG_CACHE_HOME/wsctl/wsctl-<noun>-<node>-<arch>-<build>.v8, one per noun (wsctl-<noun>-jq-… for a run of the jq engine), wsctl-mcp-server-… for the MCP server, complete-… for the file of the TAB answerer, which holds the modules the program shares with it (a TAB itself requires it plainly), jq-worker-… for the jq engine run on the main thread; these two once for each set of V8 flags a run takes, complete-liftoff-… and so on)',
    buys: "V8's code of a file made at the exit of the first run with every function it compiled, where Node's compile cache keeps only what V8 compiled before the file ran: Node 24, `keys list --json` 0.76× of its time with Node's compile cache alone (64 against 83 ms), `wsctl mcp` to the answer to `tools/list` 0.71× (81 against 115 ms) (21 alternating pairs, 2026-11-29); a cache another noun's run made: `keys list --json` 1.15×",
  },
  {
    name: 'answers in the boot file',
    where:
      'src/boot/index.ts and src/boot/write.ts (the root help: dist/help-80.txt, rendered by commander in scripts/build.mjs); src/mcp/early.ts',
    buys: "`--version`, the root help at 80 columns (piped, or COLUMNS=80) and `wsctl mcp`'s `initialize` need nothing of the program: Node 24, `--version` 0.58× and `--help` piped 0.57× of their time (20 against 40 ms of CPU), spawn to the answer to `initialize` 0.22× (34 against 162 ms), 21 alternating pairs each, 2026-11-29",
  },
  {
    name: "stand-ins for dependencies' Node modules",
    where:
      'src/tricks/no-http2.ts and src/tricks/lazy-builtins.ts (given by scripts/build.mjs to undici: node:http2 and node:assert; to commander: node:child_process)',
    buys: 'undici requires node:http2 (and with it tls) as it loads, for the HTTP/2 wsctl never speaks (allowH2 off): a stand-in; it requires node:http and node:assert, and commander node:child_process, for what a command seldom does: loaded when first used. Node 24, `keys list --json` 0.85× of its time with all four (65 against 77 ms, 60 against 66 MiB of peak memory), 0.85× with the stand-in for node:http2 alone; 0.95× and 0.93× with the three loaded when first used alone (21 alternating pairs each, 2026-11-29). The three are under the 10% bar on their own since the V8 flags left that run (0.87× before); they stay because the goal of round four needs them: `keys list --json` without them is 1.62× a CommonJS GET on Node 24 and 26, over 1.6× (1.51× and 1.53× with them; BENCHMARKS.md)',
  },
  {
    name: 'undici deep imports',
    where: 'src/tricks/registry.ts (undiciParts, used by src/http/transport.ts)',
    buys: "only undici's Agent and request(), not its index (fetch, WebSocket, caches, mocks, the HTTP/2 client): Node 24, `keys list --json` 0.67× of its time (65 against 95 ms), 59 against 70 MiB of peak memory (21 alternating pairs, 2026-11-29)",
  },
  {
    name: 'Liftoff only',
    where:
      'src/boot/flags.ts (LIFTOFF_ONLY, set by src/boot/index.ts before the program is compiled in the runs of a transcript, the `convo` noun, and of the jq engine, a --jq filter that is not a path; on Node 20 in every run)',
    buys: "V8's optimising tier-up of jq's WebAssembly, and of undici's parser on a large transcript, takes time and memory: Node 24, `keys list --jq '[.keys[] | select(.last_used_at != null) | .id]'` 0.83× of its time (93 against 116 ms), 64 against 80 MiB of peak memory (21 alternating pairs); `convo show --follow` of 55,000 messages over 20 polls peaks at 79 instead of 96 MiB (3 pairs); `convo show` 0.97×, 86 against 93 MiB (11 pairs) (2026-11-29). Node 20's V8 tiers undici's parser up after a single small response, so every run there gets it: `keys list --json` without it took 2.37× round four's time (157 against 66 ms), 89 against 52 MiB (21 pairs). Other runs on Node 22+ go without: a flag set at run time costs the Node modules loaded after it the code Node ships for them (`keys list --json` 0.95× of its time without the flags, 21 pairs)",
  },
  {
    name: 'steady young generation',
    where:
      'src/boot/flags.ts (STEADY_YOUNG_GENERATION, set by src/boot/index.ts before the program is compiled, with Liftoff only, in the runs of a transcript, the `convo` noun)',
    buys: "V8 doubles the young generation at each busy scavenge; held at its start size, a large transcript peaks lower: Node 24, `convo show` of 55,000 messages piped peaks at 86 instead of 127 MiB (0.68×), its time 1.015× (11 alternating pairs, 2026-11-29). On the jq engine's row it buys nothing (1.01×, 64 against 65 MiB, 21 pairs): those runs go without it",
  },
  {
    name: 'collections by what a transcript read',
    where:
      'src/tricks/registry.ts (collectorEvery, given to readConversation of src/conversation/stream.ts by print.ts, every 48 MiB, and follow.ts, every 12 MiB of all its polls)',
    buys: "V8 frees the large strings and the memory outside its heap that a transcript's chunks held only in a full collection, which it puts off while a conversation streams; one is asked for through the inspector protocol (no V8 flag): Node 24, `convo show --follow` of 55,000 messages over 20 polls peaks at 80 instead of 115 MiB (0.70×; every 8 MiB, 3 alternating pairs: 1.8× the CPU, so every 12 MiB as built, 80 MiB in 1.15× round four's CPU), `convo show` of 220,000 messages at 96 instead of 113 MiB (0.85×); one of 55,000 (45 MB) reads less than 48 MiB and is not touched (2026-11-29)",
  },
  {
    name: 'jq paths without the engine',
    where: 'src/terminal/jq-path.ts (plainPath, followPath; used by src/terminal/jq.ts)',
    buys: "a --jq filter that is only a path (`.keys[].id`) is read straight from the document, without the jq engine: Node 24, `keys list --jq '.keys[].id'` 0.81× of its time, 62 against 66 MiB (21 alternating pairs, 2026-11-29)",
  },
  {
    name: 'jq on the main thread',
    where: 'src/terminal/jq-local.ts (used by src/terminal/jq.ts)',
    buys: "a filter's first try runs on the main thread, within a 200 ms time slice, 64 MiB and 1 MiB of output, without starting the engine's thread: Node 24, `keys list --jq '[.keys[] | select(.last_used_at != null) | .id]'` 0.61× of its time, 66 against 81 MiB (21 alternating pairs, 2026-11-29)",
  },
  {
    name: 'quickCheck',
    where: 'src/tricks/registry.ts (quickCheck, used by src/http/decode.ts)',
    buys: "zod's verdict from a predicate compiled from the schema, without zod's copy of every object: Node 24, `convo show --json` of 55,000 messages 0.82× of its time (580 against 750 ms of CPU), 80 against 87 MiB (11 alternating pairs, 2026-11-29)",
  },
];

/**
 * The packages a trick or a reliance leans on, pinned to exact versions in package.json (the rest
 * take ^ ranges: a patch release of one is taken with no change outside package.json and the lock
 * file), and the version each was checked with: test/speed.test.ts fails, naming both, when one
 * moves, until what leans on it is checked again and the version here follows.
 */
export const PINNED: Readonly<Record<string, { checked: string; why: string }>> = {
  undici: { checked: '7.30.2', why: 'the stand-ins for its Node modules and the deep imports (undici/lib/…)' },
  commander: { checked: '14.0.3', why: 'the stand-in for its node:child_process' },
  zod: { checked: '4.6.7', why: "quickCheck (zod's _zod.def)" },
  'jq-wasm': { checked: '3.0.0-jq-1.8.2', why: 'the jq-wasm patch (scripts/jq-wasm.cjs)' },
  '@modelcontextprotocol/sdk': {
    checked: '1.32.2',
    why: "tools/call through the SDK's fallback handler, and console to stderr while serving",
  },
};

/**
 * Not speed tricks: code that leans on a library's internals or on the process's shared state for
 * behaviour. Each is checked against the pinned library by test/speed.test.ts, named after it, so
 * that an upgrade that breaks one fails there.
 */
export interface Reliance {
  name: string;
  /** Where the code is. */
  where: string;
  /** Why it is there. */
  why: string;
  /** What breaks if the library changes, and how the build or the test says so. */
  breaks: string;
}

export const RELIANCES: readonly Reliance[] = [
  {
    name: 'jq-wasm patched',
    where:
      'scripts/jq-wasm.cjs (an esbuild plugin of scripts/build.mjs: the glue in dist/jq-worker.cjs, the binary in dist/jq.wasm); the hooks are set by src/terminal/jq-worker.ts and jq-local.ts (globalThis.__wsctlJq)',
    why: "jq-wasm 3.0.0-jq-1.8.2 (pinned) bounds jq's heap at 256 MiB twice (its binary's memory maximum of 4096 pages and its glue's getHeapMax) and collects output in sinks that double without bound; --jq needs a 1 GiB bound (cli.md §3), output as it comes and taken a block at a time (a call per byte brought in V8's optimising compiler, 2-3 MiB of its code), the document as bytes (read by jq from a file, not a device that gives one byte per call) or, on the main thread, as its text encoded into jq's buffer a block at a time (never held encoded whole), and on the main thread a smaller bound, a silent abort and a way to stop at the output bound. It is a fix, not a speed trick: that its sinks and input take blocks rather than bytes is how they are patched",
    breaks:
      "the build fails when a patched line is not in the glue exactly once, or the binary's memory is not the expected one; the test fails when the pinned version moves, when a line is gone, or when the package no longer bounds jq at 256 MiB (the patch is then not needed)",
  },
  {
    name: 'tools/call through the fallback handler',
    where: 'src/mcp/mcp-server.ts (createServer: server.fallbackRequestHandler)',
    why: "the SDK's Server wraps a tools/call handler given to setRequestHandler in its own check of the request, which turns `arguments: null` into a protocol error with a schema dump; wsctl answers wrong arguments with a result the model can correct itself from (exit code 2). tools/call is given no handler, and the SDK's public fallback for requests without one answers it",
    breaks:
      "if the Server came to register a tools/call handler of its own, or to hand the fallback other requests or other extras, calls would fail or lose progress and cancellation: the test checks on a bare Server of the pinned SDK that the fallback hears tools/call as sent, with its signal, progress token and notifications, and that the Server's own wrapper still refuses `arguments: null` (if it stops, the fallback may go)",
  },
  {
    name: 'console to stderr while serving',
    where: 'src/mcp/mcp-server.ts (serve)',
    why: "`wsctl mcp`'s stdout carries protocol messages only: a line printed there by a library (the SDK's, undici's, zod's) would break the client's stream. While serving, console.log, info and debug write to stderr (console.warn and error already do); they are restored when serving ends",
    breaks:
      "a library that writes to process.stdout itself would get past it: the test checks that the SDK's server side wsctl bundles never names process.stdout, and in this process that console's lines go to stderr while serving and console is as it was after",
  },
  {
    name: 'last-resort handlers swapped while serving',
    where: 'src/mcp/mcp-server.ts (serve), over those of src/cli/process.ts (cli)',
    why: "the shell ends the process on any error nobody caught (one line, exit 1); a server must outlive one call's crash. While serving, the process's uncaughtException and unhandledRejection listeners are set aside for one that logs on stderr and goes on, and put back, in order, when serving ends",
    breaks:
      "it takes every listener of the two events for the time of serving, a library's too: the test checks in this process that an unhandled rejection while serving is logged and the server answers the next request, and that the listeners after are those before",
  },
];

export interface UndiciParts {
  Agent: new (options?: { allowH2?: boolean }) => Dispatcher;
  request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

/**
 * undici's Agent and request(), from undici/lib/… rather than its index (undici is pinned, and
 * test/speed.test.ts checks their shapes and names the version when it moves).
 */
export async function undiciParts(): Promise<UndiciParts> {
  const [{ default: request }, { default: Agent }] = await Promise.all([
    import('undici/lib/api/api-request.js'),
    import('undici/lib/dispatcher/agent.js'),
  ]);
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
 * as JSON strings. test/speed.test.ts checks it against zod on random values. Leans on zod's
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
  const inner = (child: { _zod: { def: SchemaDef } } | undefined, name: string) =>
    child ? condition(child._zod.def, name, helpers) : undefined;
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
      return (
        test &&
        helper(
          'a',
          `if (!Array.isArray(a)) return false;\nfor (let i = 0; i < a.length; i++) { const e = a[i]; if (!(${test})) return false; }`,
        )
      );
    }
    case 'record': {
      const test = inner(def.valueType, 'e');
      if (!test || def.keyType?._zod.def.type !== 'string' || def.keyType._zod.def.checks?.length) return undefined;
      return helper(
        'o',
        `if (!${OBJECT('o')}) return false;\nfor (const k of Object.keys(o)) { const e = o[k]; if (!(${test})) return false; }`,
      );
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

/**
 * V8's full collection, asked for through the inspector protocol (HeapProfiler.collectGarbage, on
 * a session with this process): V8 frees large strings and the memory outside its heap that a
 * transcript's chunks held only in a full collection, which its own heuristics put off while a
 * conversation of 45 MB streams. Undefined where Node has no inspector (a build without it).
 */
function takeCollector(): (() => void) | undefined {
  try {
    const { Session } = process.getBuiltinModule('node:inspector');
    const session = new Session();
    session.connect();
    return () => session.post('HeapProfiler.collectGarbage');
  } catch {
    return undefined;
  }
}

let collector: (() => void) | null | undefined;

/** Collects garbage each time `bytes` more have been read (told with the size of each chunk). */
export function collectorEvery(bytes: number): (read: number) => void {
  let since = 0;
  return (read) => {
    since += read;
    if (since < bytes) return;
    since = 0;
    if (collector === undefined) collector = takeCollector() ?? null;
    collector?.();
  };
}
