// Every speed trick in one place (STYLE.md 14), and the one switch that turns them all off:
// WSCTL_NO_TRICKS=1 makes wsctl do the same work the plain way (the suite passes either way, so
// the tricks change speed only). TRICKS below lists each trick, where it sits and what it buys,
// measured (BENCHMARKS.md); the packages the tricks lean on are pinned to exact versions in
// package.json; test/tricks.test.ts checks each assumption against the built bundle or the
// running Node and fails loudly when one breaks. Tricks outside this module (the launcher, the
// build's stand-ins) read the same variable themselves, since they run before or outside it.
import type { Dispatcher } from 'undici';
import { setRuntimeFlags, takeCollector, tricksOn } from './switch.js';

export { RUNTIME_FLAGS, setRuntimeFlags, tricksOn } from './switch.js';

export interface Trick {
  name: string;
  /** Where the code is. */
  where: string;
  /** What it buys, measured; the test that guards it is named after it in test/tricks.test.ts. */
  buys: string;
}

// What each buys is measured by test/bench/tricks.mjs against wsctl without that trick alone. The
// figures are from 2026-11-23, on a shared 2-core machine under a load average of ~50 (the two jq
// tricks: 2026-11-25, load average ~2, medians of 11): read the shares, not the times, and
// expect ±10% of noise.
export const TRICKS: readonly Trick[] = [
  {
    name: 'compile cache',
    where: 'bin/wsctl',
    buys: "Node 22+ keeps V8's compiled code of the bundle in the user's cache folder: Node 24, 7% of `--help` (measured before the launcher answered the root help; a noun's help still gains) and 22% of `keys list --json` (before the code cache below took the commands: now help, the jq engine's thread and what the launcher loads)",
  },
  {
    name: 'code cache of the whole program',
    where:
      "bin/wsctl (loadCached and runCached; the bundle: dist/lazy/all.cjs and dist/lazy/flags.cjs, built by scripts/build.mjs, with the libraries few commands run beside it in dist/lazy/side/; the jq engine's glue, dist/lazy/jq-worker.cjs, through src/terminal/jq-local.ts; `wsctl mcp`'s first call learned: learnFirstCall in src/mcp/mcp-server.ts)",
    buys: "the launcher runs the whole program from one CommonJS file through vm.Script, with V8's code of it, made at exit with every function the run compiled, kept in the user's cache folder (one file per Node version and install). Node 20, which has no compile cache for the ES modules a command loads: `keys list --json` 0.78× of its time (2.03× → 1.59× the `node:http` GET, medians of 20 rounds, load average ~6; 0.81× at ~16), +1 MiB of peak memory (+3-5 MiB with the jq engine). Node 22, 24 and 26, against Node's compile cache of the ES modules (made before they run): `keys list --json` 0.80×, 0.85× and 0.84× of its time (179 → 143, 195 → 166, 194 → 163 ms; medians of 13-15 alternating runs, load average ~1.7). The jq engine's glue the same way, a file of its own made by the first run that loads the engine on the main thread: `keys list --jq '[.keys[] | select(.last_used_at != null) | .id]'` 0.95×, 0.95×, 0.96× and 0.98× of its time on Node 20, 22, 24 and 26 (164 → 155, 175 → 166, 174 → 167, 182 → 178 ms; medians of 21 alternating runs, each side with a cache of its own made by a `--jq` run), peak memory unchanged. The cache learns each kind of command (its first two words, --json, --jq) up to 24, written again once by the first short, successful run of a new kind: `keys list --json` with a cache made by `profile list`, 8% and 9% of its time on Node 20 and 24 against a cache that cannot learn (103 → 94, 100 → 90 ms; `npm run bench:tricks`, medians of 25 alternating runs), while a cache that holds more kinds costs a kind it already held nothing measurable (1.00×, 0.99×). The libraries few commands run (the proxy's whole undici, form-data and its MIME table, the spinner, the MCP SDK's server and client, jsonc-parser) are side files beside all.cjs, each run the same way when first used: all.cjs 1.43 → 0.70 MB, `keys list --json` 0.95×, 0.94×, 0.93× and 0.99× of its time on Node 20, 22, 24 and 26 (medians of 40 alternating runs). `wsctl mcp` learns its first tool call as soon as it is answered (kind `mcp/call`), unless the cache holds one: a cache made at the exit of a session without calls left every start to compile a call's code again, and the first call took 28-57 ms instead of 13-20 (Node 20 and 24, three to five starts each)",
  },
  {
    name: 'version in the launcher',
    where: 'bin/wsctl',
    buys: '`wsctl --version` alone is answered without loading the bundle or commander: Node 20 4%, Node 24 29% of `--version` (commander and the command tree are not built)',
  },
  {
    name: 'initialize in the launcher',
    where: 'bin/wsctl and src/mcp/early.ts (dist/mcp-early.cjs; the answer: src/mcp/initialize.ts, which the server gives the SDK too)',
    buys: "`wsctl mcp`'s answer to `initialize` before the program loads: spawn to the answer, Node 20 0.22× (273 → 45 ms) and Node 24 0.20× (239 → 49 ms) of its time, 1.13× and 1.03× `node -e 0` (medians of 15 alternating runs, load average ~1.5); stdin known to be no terminal by fstat, not node:tty (5 ms to load). The next request (tools/list) still waits for the program",
  },
  {
    name: 'root help in the launcher',
    where: 'bin/wsctl (the text: dist/help-80.txt, rendered by commander in scripts/build.mjs)',
    buys: '`wsctl --help` piped (or COLUMNS=80) is answered without loading the bundle or commander: Node 20 26%, Node 24 17% of `--help` (1.53× → 1.13× and 1.46× → 1.14× `node -e 0`, medians of 21 pairs under a load average of ~26); a pipe known by fstat, not by the isatty of node:tty (5 ms to load): 1.17× → 1.05× (Node 20), 1.15× → 1.02× (Node 24), medians of 40 alternating runs; 0 ms on a terminal, which commander still renders',
  },
  {
    name: 'help written synchronously',
    where: 'src/cli/process.ts (cli: writeHelp)',
    buys: 'help and --version go out with fs.writeSync, without making the stdout stream (which loads node:stream and net): within the noise on the product (Node 20 -13%, Node 24 8% of `--help`); alone, making a piped stdout and writing to it took 26 ms (Node 20) and 14 ms (Node 24) against 0.3 ms for writeSync, minimum of 25 runs',
  },
  {
    name: 'node:child_process stand-in',
    where: 'scripts/lazy-child-process.cjs (alias in scripts/build.mjs)',
    buys: 'commander requires node:child_process for executable subcommands, which wsctl has none of; the stand-in loads it on first use: Node 20 0%, Node 24 5% of `--help`; alone, loading node:child_process took at least 18 ms (Node 20) and 26 ms (Node 24) in 20 runs',
  },
  {
    name: 'node:http2 stand-in',
    where: 'scripts/no-http2.cjs (alias in scripts/build.mjs)',
    buys: 'undici loads node:http2 (and tls) at start-up for HTTP/2, which wsctl never speaks (allowH2 off): Node 20 20%, Node 24 28% of `keys list --json`',
  },
  {
    name: 'node:http stand-in',
    where:
      'scripts/undici-http.cjs (for undici only: the undici-builtins plugin in scripts/build.mjs, which fails the build if undici uses node:http otherwise)',
    buys: 'undici reads maxHeaderSize, STATUS_CODES and IncomingMessage of node:http, which takes 2-2.5 ms to load for requests it never makes: `keys list --json` 162 → 149 ms (Node 20) and 161 → 139 ms (Node 24) with the node:assert stand-in and the stdin change of the same day, medians of 30 alternating runs',
  },
  {
    name: 'node:assert stand-in',
    where:
      'scripts/undici-assert.cjs (for undici only: the undici-assert plugin in scripts/build.mjs, which fails the build if undici uses more than assert(value))',
    buys: 'undici calls assert(value) for its invariants, and node:assert takes 1.5-2.5 ms to load: with the stdin change of the same day, `keys list --json` 151 → 144 ms (Node 20) and 159 → 146 ms (Node 24), medians of 30 alternating runs',
  },
  {
    name: 'undici deep imports',
    where: 'src/tricks/registry.ts (undiciParts)',
    buys: "only undici's Agent and request(), not its index (fetch, WebSocket, caches, the HTTP/2 client): Node 20 40%, Node 24 50% of `keys list --json`, and 6-9 MiB of peak memory",
  },
  {
    name: 'jq paths without the engine',
    where: 'src/terminal/jq-path.ts (plainPath, followPath; used by src/terminal/jq.ts)',
    buys: "a --jq filter that is only a path (`.keys[].id`, `.items[0] | .name`) is read straight from the document, without loading the jq engine: Node 20 15% (33 ms), Node 24 27% (34 ms) of `keys list --jq '.keys[].id'`, against the engine on the main thread; 4-6 MiB of peak memory",
  },
  {
    name: 'jq on the main thread',
    where: 'src/terminal/jq-local.ts (used by src/terminal/jq.ts)',
    buys: "a filter's first try runs on the main thread, within a 200 ms time slice, 64 MiB and 1 MiB of output, without starting the engine's thread; past a bound it moves to the thread (and a second document goes there): Node 20 23% (51 ms), Node 24 39% (98 ms) of `keys list --jq '[.keys[] | select(.last_used_at != null) | .id]'`, and 9-13 MiB of peak memory",
  },
  {
    name: 'jq random bytes without WebCrypto',
    where: "src/terminal/jq-local.ts (the hooks' random; the glue reads it through scripts/jq-wasm.cjs)",
    buys: "jq asks for random bytes as it starts, which jq-wasm's glue takes from WebCrypto (globalThis.crypto, ~15 ms to load on the main thread); the main thread's engine takes them from Math.random: `keys list --jq '[.keys[] | select(.last_used_at != null) | .id]'` Node 24 234 → 214 ms (1.43× → 1.30× `--json`), Node 20 310 → 294 ms, medians of 15 alternating runs",
  },
  {
    name: 'Liftoff only',
    where:
      'src/tricks/switch.ts (setRuntimeFlags, called by src/cli/run.ts; it loads node:v8 with process.getBuiltinModule, so that help and runs with the switch do not load it)',
    buys: "V8's optimising tier-up of undici's and jq's WebAssembly would hold the process at exit: Node 20 55% of `keys list --json` and 59% of `--jq`; Node 24 2% and 24%; 14-37 MiB of peak memory. node:v8 alone took 3.7 ms (Node 20) and 4.2 ms (Node 24) in a fresh process, medians of 21 (within the noise of `keys --help`: +1.0 and +6.6 ms preloaded, medians of 21 alternating runs)",
  },
  {
    name: 'V8 defaults for the MCP server',
    where:
      "src/tricks/switch.ts (servesCalls, read by setRuntimeFlags); bin/wsctl names the server's code cache apart (codeCacheName), as V8 takes a cache only under the flags it was made with",
    buys: "the run-time flags suit one command, which exits before TurboFan or a grown young generation pays off; a server answers call after call: undici's parser tiered up and a young generation left to grow take a `keys_list` call 2.4% (Node 20) and 2.0% (Node 24) sooner, medians of 1,500 calls alternating with a server under the flags, and 2,000 calls see 16 scavenges instead of 248 on Node 20 (61 instead of 143 ms)",
  },
  {
    name: 'steady young generation',
    where: 'src/tricks/switch.ts (setRuntimeFlags, called by src/cli/run.ts)',
    buys: 'V8 doubles the young generation at each busy scavenge (to 3 × 16 MB on Node 24 and 26); held at its start size, a large transcript peaks lower: `convo show` of 55,000 messages peaks at 78 instead of 107 MiB (Node 20) and 93 instead of 119 MiB (Node 24); its time within the noise (Node 20 25% faster, Node 24 12% slower)',
  },
  {
    name: 'collections by what a transcript read',
    where:
      'src/tricks/registry.ts (collectorEvery, given to readConversation of src/conversation/stream.ts by print.ts and follow.ts; the collector: takeCollector in src/tricks/switch.ts)',
    buys: "a body's 64 KiB chunks live outside V8's heap and are often promoted before they are read, and V8 collects the old generation only once external memory has grown by about 64 MiB: a transcript collects all garbage after every 16 MiB read (a follow after every 8 MiB over its polls). `convo show` of 220,000 messages peaks at 70, 82 and 84 MiB instead of 90, 100 and 103 on Node 20, 24 and 26 (1.01× the peak of 55,000, was 1.23-1.26×), 55,000 at 69, 81 and 83 instead of 71, 88 and 84; its time +2% and +0% on Node 24 and 26 (medians of 21 alternating runs; Node 20 within the noise; each collection takes 10-12 ms of a 12 MiB heap, so every 8 MiB cost 8-11%). Together with the follow's digests in one buffer (about 3.7 MiB less, which is no trick and stays with the switch), `--follow` over 20 polls: 80-82 → 70-72 MiB on Node 20, 111-113 → 82-85 on Node 24 and 104-105 → 84-87 on Node 26 (two runs each, alternating with the build before)",
  },
  {
    name: 'node:http without its ES module facade',
    where: 'src/tricks/registry.ts (builtinHttp, used by src/sandbox/server.ts)',
    buys: "Node 22+: the facade's WebSocket getters load Node's own undici; the sandbox server (--sandbox, `sandbox serve`) is the only user: `--sandbox keys list --json` 25% on Node 24 (955 against 1280 ms under load), nothing on Node 20; no other command loads node:http since the sandbox loads only with --sandbox",
  },
  {
    name: 'node:crypto without its ES module facade',
    where: 'src/tricks/registry.ts (builtinCrypto, used by src/conversation/spool.ts and src/sandbox/seed.ts)',
    buys: "the facade's webcrypto getter loads WebCrypto, and the spool is part of every command's module: within the noise on the product (Node 20 -11%, Node 24 -5% of `keys list --json`); alone, the facade took 10 ms (Node 20) and 21 ms (Node 24) more than getBuiltinModule, minimum of 20 runs (re-measured 2026-11-26, medians of 21: 0.8 ms and 1.6 ms more)",
  },
  {
    name: 'quickCheck',
    where: 'src/tricks/registry.ts (quickCheck, used by src/http/decode.ts)',
    buys: "zod's verdict from a predicate compiled from the schema, without zod's copy of every object: `convo show --json` of 55,000 messages, Node 20 36%, Node 24 10% of its time",
  },
];

/**
 * Not speed tricks: code that leans on a library's internals or on the process's shared state for
 * behaviour, which the switch must not change (it stays on with WSCTL_NO_TRICKS=1). Each is checked
 * against the pinned library by test/tricks.test.ts, named after it, so that an upgrade that
 * breaks one fails there.
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
      'scripts/jq-wasm.cjs (an esbuild plugin of scripts/build.mjs: the glue in dist/lazy/jq-worker.cjs, the binary in dist/lazy/jq.wasm); the hooks are set by src/terminal/jq-worker.ts and jq-local.ts (globalThis.__wsctlJq)',
    why: "jq-wasm 3.0.0-jq-1.8.2 (pinned) bounds jq's heap at 256 MiB twice (its binary's memory maximum of 4096 pages and its glue's getHeapMax) and collects output in sinks that double without bound; --jq needs a 1 GiB bound (cli.md §3), output as it comes and taken a block at a time (a call per byte brought in V8's optimising compiler, 2-3 MiB of its code), the document as bytes (read by jq from a file, not a device that gives one byte per call) or, on the main thread, as its text encoded into jq's buffer a block at a time (never held encoded whole), and on the main thread a smaller bound, a silent abort and a way to stop at the output bound. It is a fix, not a speed trick: that its sinks and input take blocks rather than bytes is how they are patched, the same with the switch",
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

/**
 * The run-time V8 flags (switch.ts), set before the jq engine compiles: cli/run.ts starts the
 * engine's thread before any command runs, so the engine cannot wait for that. The flags hold for
 * every thread of the process.
 */
export async function liftoffOnly(): Promise<void> {
  // Only --jq starts the engine, and the MCP server takes no --jq: the flags are the commands'.
  setRuntimeFlags([]);
}

/**
 * node:http and node:crypto without their ES module facades, which read every export: lazy
 * getters among them load more (node:http's WebSocket getters load Node's own copy of undici on
 * Node 22+; node:crypto's webcrypto getter loads WebCrypto). process.getBuiltinModule gives the
 * CommonJS exports, as require() would. node:http serves the sandbox (--sandbox, `sandbox
 * serve`); node:crypto names the transcript spool's file, and the spool is part of every
 * command's module. Off, the facades load as a plain import would load them.
 */
export async function builtinHttp(): Promise<typeof import('node:http')> {
  return tricksOn ? process.getBuiltinModule('node:http') : await import('node:http');
}

// Off: the facade, loaded with the commands as `import ... from 'node:crypto'` in the spool would.
let cryptoFacade: typeof import('node:crypto') | undefined;
if (!tricksOn) void import('node:crypto').then((facade) => (cryptoFacade = facade));

/**
 * Synchronous, as its users are (the spool, the sandbox's ids). Off, the facade; a call before its
 * import settles (in the ticks right after this module loads: nothing calls it so early) gets the
 * same functions from the module itself.
 */
export function builtinCrypto(): typeof import('node:crypto') {
  if (tricksOn) return process.getBuiltinModule('node:crypto');
  return cryptoFacade ?? process.getBuiltinModule('node:crypto');
}

let gc: (() => void) | null | undefined; // null: V8 did not give it

/**
 * Told each chunk of a large body as it is read, collects all garbage after every `bytes` of them.
 * The chunks (64 KiB each, outside V8's heap) wait in the stream and the splitter long enough to
 * be promoted, and V8 collects the old generation only once external memory has grown by 64 MiB
 * or so: without this, a transcript's peak grew with its size, and a follow's with each poll.
 * Off, nothing is collected by hand.
 */
export function collectorEvery(bytes: number): (read: number) => void {
  let since = 0;
  return (read) => {
    since += read;
    if (since < bytes || !tricksOn) return;
    since = 0;
    if (gc === undefined) gc = takeCollector() ?? null;
    gc?.();
  };
}

/** Set by the launcher (bin/wsctl) when it runs the program from V8's code cache. */
const LEARN_CODE = Symbol.for('wsctl.learnCode');

/**
 * Asks the launcher to keep V8's code of the program now, with a part of the run its cache has not
 * seen (the code cache trick); nothing without the launcher or with the switch. Whether it writes
 * is the launcher's to decide (a cache that holds the part, too much CPU spent).
 */
export function learnCode(part: string): boolean {
  const learn = (globalThis as { [LEARN_CODE]?: (part: string) => void })[LEARN_CODE];
  if (!tricksOn || !learn) return false;
  learn(part);
  return true;
}

export interface UndiciParts {
  Agent: new (options?: { allowH2?: boolean }) => Dispatcher;
  request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

/**
 * undici's Agent and request(). With tricks on, from undici/lib/… (undici is pinned, and the test
 * imports both paths and checks their shapes); off, from its index.
 */
export async function undiciParts(): Promise<UndiciParts> {
  if (!tricksOn) {
    const loaded = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
    const undici = loaded.default ?? loaded;
    return {
      Agent: undici.Agent,
      request(options) {
        return this.request(options);
      },
    };
  }
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
 * as JSON strings. test/tricks.test.ts checks it against zod on random values. Leans on zod's
 * `_zod.def`, the internal shape of zod 4's schemas (zod is pinned).
 */
export function quickCheck(schema: { _zod: { def: unknown } }): Check | undefined {
  if (!tricksOn) return undefined;
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
