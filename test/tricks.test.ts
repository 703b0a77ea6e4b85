// The speed tricks (src/tricks/registry.ts lists them: STYLE.md 14), each checked against the built bundle
// or the running Node: these tests fail loudly when a pinned dependency or Node moves under them,
// and each also proves that WSCTL_NO_TRICKS=1 turns its trick off. Every test here sets the switch
// itself, so the file means the same in the suite's run with the switch on.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, openSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import Module from 'node:module';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { createCtx } from '../src/cli/context.js';
import { declaredVerbs } from '../src/cli/program.js';
import { GLOBAL_OPTIONS } from '../src/common/globals.js';
import { serve } from '../src/mcp/mcp-server.js';
import { Spool } from '../src/conversation/spool.js';
import { randomId } from '../src/sandbox/seed.js';
import type { Sink } from '../src/terminal/index.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ConversationDetail, Message, responseSchemas } from '../src/schemas.js';
import { parseBoolean } from '../bin/booleans.cjs';
import { builtinCrypto, quickCheck, RELIANCES, RUNTIME_FLAGS, TRICKS, tricksOn } from '../src/tricks/registry.js';
import { commandKind, servesCalls } from '../src/tricks/switch.js';
import { mcp } from '../src/commands/mcp/index.js';
import { BIN, ROOT, run, runBin, startConnectProxy, startSandbox, tempDir, type TestSandbox } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const ON = { WSCTL_NO_TRICKS: '0' };
const OFF = { WSCTL_NO_TRICKS: '1' };

// Each trick in the registry has tests named after it: `trick(name, …)`.
const tested = new Set<string>();
function trick(names: string | string[], title: string, fn: () => unknown, timeoutMs?: number) {
  for (const name of [names].flat()) tested.add(name);
  it(`${[names].flat().join(', ')}: ${title}`, fn, timeoutMs);
}

// A preload that records what a run of bin/wsctl did: the V8 flags it set, Node's internal
// modules it loaded, the CommonJS files it required, and whether it made the stdout stream.
const hookDir = tempDir();
const HOOK = join(hookDir, 'record.cjs');
writeFileSync(
  HOOK,
  `const v8 = require('node:v8');
const set = v8.setFlagsFromString;
const flags = [];
let stdoutMade = false;
const made = Object.getOwnPropertyDescriptor(process, 'stdout');
Object.defineProperty(process, 'stdout', { configurable: true, enumerable: made.enumerable, get() { stdoutMade = true; return made.get.call(process); } });
v8.setFlagsFromString = (flag) => { flags.push(flag); return set.call(v8, flag); };
// V8's collector, when the program takes it (takeCollector), counts its calls.
const vm = require('node:vm');
const runInNewContext = vm.runInNewContext;
let collections = 0;
vm.runInNewContext = (...args) => {
  const result = runInNewContext.apply(vm, args);
  return args[0] === 'gc' && typeof result === 'function' ? () => { collections++; return result(); } : result;
};
// Written with writeSync: process.stderr would load the stream modules it records.
process.on('exit', () => {
  const engine = globalThis.__wsctlJq !== undefined;
  const text = '\\nRECORD ' + JSON.stringify({ flags, collections, stdoutMade, engine, builtins: process.moduleLoadList, files: Object.keys(require.cache) }) + '\\n';
  require('node:fs').writeSync(2, text);
});
`,
);

interface Recorded {
  code: number;
  stdout: string;
  stderr: string;
  flags: string[];
  /** How often the program collected garbage by hand. */
  collections: number;
  stdoutMade: boolean;
  /** Whether the main thread started loading the jq engine (its hooks, globalThis.__wsctlJq, are set). */
  engine: boolean;
  builtins: string[];
  files: string[];
}

async function recorded(args: string[], env: Record<string, string | undefined>, stdin?: string): Promise<Recorded> {
  const r = await runBin(args, { env: { ...env, NODE_OPTIONS: `--require ${HOOK}` }, stdin });
  const at = r.stderr.lastIndexOf('\nRECORD ');
  expect(at, r.stderr).toBeGreaterThanOrEqual(0);
  const record = JSON.parse(r.stderr.slice(at + 8));
  return { code: r.code, stdout: r.stdout, stderr: r.stderr.slice(0, at), ...record };
}

/** The same command against the sandbox with the tricks on and off: both succeed with the same output. */
async function onAndOff(args: string[]): Promise<{ on: Recorded; off: Recorded }> {
  const on = await recorded(args, { ...sb.env, ...ON });
  const off = await recorded(args, { ...sb.env, ...OFF });
  expect([on.code, off.code], on.stderr + off.stderr).toEqual([0, 0]);
  expect(off.stdout).toBe(on.stdout);
  return { on, off };
}

/** Whether a run (NODE_DEBUG=worker) started a worker thread: the jq engine's is the only one. */
const workerStarted = (stderr: string) => /WORKER \d+: .*instantiating Worker/i.test(stderr);

const builtin = (r: Recorded, name: string) => r.builtins.includes(`NativeModule ${name}`);

/**
 * The first line of a code cache of a built file: Node, and the hash of the file's text that the
 * build wrote at its top (checked here to be that hash).
 */
function cacheKey(file: string): string {
  const text = readFileSync(join(ROOT, file), 'latin1');
  const [, id] = /^\/\/ wsctl build ([0-9a-f]{32})\n/.exec(text) ?? [];
  expect(id, file).toBeDefined();
  const rest = Buffer.from(text.slice(text.indexOf('\n') + 1), 'latin1');
  expect(createHash('sha256').update(rest).digest('hex').slice(0, 32)).toBe(id);
  return `wsctl code cache 3 ${process.version} ${process.arch} ${id}\n`;
}

/** The ES module files a run loaded (NODE_DEBUG=esm), relative to dist/lazy/. */
async function esmLoads(args: string[], env: Record<string, string | undefined>) {
  // Node 20's code cache (one CommonJS file) off: it cannot be traced module by module.
  const r = await runBin(args, { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1', NODE_DEBUG: 'esm' } });
  return { code: r.code, loaded: [...new Set(r.stderr.match(/dist\/lazy\/[\w./-]+\.js/g) ?? [])] };
}

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});

describe('the registry', () => {
  it('names where each trick is and what it buys, measured', () => {
    expect(TRICKS.length).toBeGreaterThan(5);
    for (const t of TRICKS) {
      expect(t.where, t.name).toMatch(/\w/);
      expect(t.buys, t.name).toMatch(/\d+(\.\d+)? ?(ms|MiB|×|%)/);
    }
  });

  it('the packages the tricks lean on are pinned to exact versions', () => {
    for (const name of ['undici', 'commander', 'jq-wasm', 'zod'])
      expect({ ...pkg.dependencies, ...pkg.devDependencies }[name], name).toMatch(/^\d+\.\d+\.\d+(-[\w.-]+)?$/);
  });

  it('the switch is read once per process, by the one reader of boolean variables: a later copy of the reader keeps the first answer', () => {
    expect(tricksOn).toBe(parseBoolean(process.env.WSCTL_NO_TRICKS) === false);
    const script = `const file = process.argv[1];
      const first = require(file).tricksOn();
      process.env.WSCTL_NO_TRICKS = first ? '1' : '0';
      delete require.cache[require.resolve(file)];
      console.log(first, require(file).tricksOn());`;
    for (const [value, on] of [
      ['true', false],
      ['0', true],
    ] as const) {
      const r = spawnSync(process.execPath, ['-e', script, join(ROOT, 'bin/booleans.cjs')], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, WSCTL_NO_TRICKS: value },
      });
      expect(r.stdout.trim(), r.stderr).toBe(`${on} ${on}`);
    }
  });

  // Each reader of the switch (the launcher, tricks-switch.ts, the two stand-ins of the build, the
  // context's check) reads a value as every boolean variable is read: all tricks off, or all on.
  it.each([
    ['true', false],
    [' 1', false],
    ['yes', false],
    ['On\t', false],
    ['0', true],
    [' false ', true],
    ['NO', true],
    ['', true],
  ])('WSCTL_NO_TRICKS=%j: every reader agrees (tricks on: %s)', async (value, on) => {
    const env = { WSCTL_NO_TRICKS: value };
    const bundleLoaded = (r: Recorded) => r.files.some((f) => f.endsWith('wsctl.cjs'));
    // The launcher: --version and the root help without the bundle, and the compile cache.
    const version = await recorded(['--version'], env);
    expect([version.code, bundleLoaded(version)]).toEqual([0, !on]);
    const help = await recorded(['--help'], env);
    expect([help.code, bundleLoaded(help)]).toEqual([0, !on]);
    const cache = tempDir();
    const nounHelp = await recorded(['keys', '--help'], { ...env, XDG_CACHE_HOME: cache });
    expect(nounHelp.code).toBe(0);
    if (typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function') {
      expect(existsSync(join(cache, 'wsctl')) && readdirSync(join(cache, 'wsctl')).length > 0).toBe(on);
    }
    // The node:child_process stand-in (the entry bundle).
    expect(builtin(nounHelp, 'child_process')).toBe(!on);
    // The node:http2 stand-in (a lazy chunk), tricks-switch.ts (the V8 flags) and tricks.ts (WebCrypto), and the context accepts the value.
    const list = await recorded(['keys', 'list'], { ...sb.env, ...env });
    expect(list.code, list.stderr).toBe(0);
    expect(builtin(list, 'http2')).toBe(!on);
    expect(list.flags).toEqual(on ? [...RUNTIME_FLAGS] : []);
    expect(builtin(list, 'internal/crypto/webcrypto')).toBe(!on);
  });

  it('WSCTL_NO_TRICKS that is not a boolean is exit 2 naming it, as every boolean variable', async () => {
    const r = await runBin(['keys', 'list'], { env: { ...sb.env, WSCTL_NO_TRICKS: 'maybe' } });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(
      "Error: Invalid WSCTL_NO_TRICKS 'maybe': use 1, true, yes or on to turn it on, or 0, false, no, off or empty to turn it off.\n",
    );
  });

  it('every trick has tests below, named after it', () => {
    // Tests are collected before any runs: `tested` is complete here.
    expect(TRICKS.map((t) => t.name).filter((n) => !tested.has(n))).toEqual([]);
    expect([...tested].filter((n) => !TRICKS.some((t) => t.name === n))).toEqual([]);
  });
});

describe('each trick, on and off', () => {
  trick(
    'compile cache',
    "keeps V8's code in the user's cache folder where Node has enableCompileCache (22+), and not with the switch",
    async () => {
      for (const [env, expected] of [
        [ON, typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function'],
        [OFF, false],
      ] as const) {
        const cache = tempDir();
        // A noun's help: the root help alone is answered by the launcher, which compiles nothing.
        const r = await runBin(['keys', '--help'], { env: { ...env, XDG_CACHE_HOME: cache } });
        expect(r.code).toBe(0);
        const folder = join(cache, 'wsctl');
        expect(existsSync(folder) && readdirSync(folder).length > 0, JSON.stringify(env)).toBe(expected);
      }
    },
  );

  trick(
    'code cache of the whole program',
    "libraries few commands run are side files beside it, loaded when first used and from V8's code of them: a proxied request, whose side the next run takes",
    async () => {
      const inputs = (name: string) => JSON.parse(readFileSync(join(ROOT, 'build', name), 'utf8')) as string[];
      const side = inputs('side-inputs.json');
      const all = inputs('all-inputs.json');
      for (const library of [
        'undici/index.js',
        'undici/lib/web/fetch/index.js',
        'undici/lib/dispatcher/env-http-proxy-agent.js',
        'form-data/',
        'mime-db/',
        'ora/',
        'jsonc-parser/',
        '@modelcontextprotocol/',
        'ajv/',
      ]) {
        expect(
          side.some((input) => input.includes(`node_modules/${library}`)),
          library,
        ).toBe(true);
        expect(
          all.some((input) => input.includes(`node_modules/${library}`)),
          library,
        ).toBe(false);
      }
      // The command's own client stays in the program.
      expect(all).toContain('node_modules/undici/lib/dispatcher/agent.js');
      const proxy = await startConnectProxy();
      const cache = tempDir();
      const args = ['keys', 'list', '--json'];
      const env = { ...sb.env, HTTP_PROXY: proxy.url, ...ON, XDG_CACHE_HOME: cache };
      const plainCache = tempDir();
      const plain = await recorded(args, { ...sb.env, ...ON, XDG_CACHE_HOME: plainCache });
      const caches = (root: string) =>
        readdirSync(join(root, 'wsctl'))
          .filter((n) => n.startsWith('code-cache-'))
          .map((n) => join(root, 'wsctl', n));
      const sideKey = cacheKey('dist/lazy/side/undici.cjs');
      const sideCache = () => caches(cache).find((f) => readFileSync(f, 'latin1').startsWith(sideKey));
      let made: number | undefined;
      for (let run = 0; run < 2; run++) {
        const r = await recorded(args, env);
        expect([r.code, r.stderr, r.stdout]).toEqual([0, '', plain.stdout]);
        // Not required, but run from V8's code of it, as all.cjs is: made by the first run, taken by the next.
        expect(r.files.some((f) => f.includes('dist/lazy/side/'))).toBe(false);
        const file = sideCache();
        expect(file, `run ${run}`).toBeDefined();
        if (run === 0) made = statSync(file as string).mtimeMs;
        else expect(statSync(file as string).mtimeMs).toBe(made);
      }
      expect(proxy.tunnels).toHaveLength(2);
      // A command without a proxy runs no side: its cache folder holds the program's code alone.
      expect(caches(plainCache).map((f) => readFileSync(f, 'latin1').split('\n')[0])).toEqual([cacheKey('dist/lazy/all.cjs').trim()]);
    },
  );

  trick(
    'code cache of the whole program',
    "a command runs from one CommonJS file whose V8 code is kept in the user's cache folder, one file per Node version and install, checked against the bundle; a cache that cannot be read or written never breaks the command; not for help, nor with the switch",
    async () => {
      const args = ['keys', 'list', '--json'];
      const off = await recorded(args, { ...sb.env, ...OFF, XDG_CACHE_HOME: tempDir() });
      expect(off.code, off.stderr).toBe(0);
      expect(off.files.some((f) => f.endsWith('dist/wsctl.cjs'))).toBe(true);
      expect(off.files.some((f) => f.endsWith('flags.cjs'))).toBe(false);
      const cache = tempDir();
      // The launcher names the file after the Node version and a hash of the bundle's path.
      const cacheFiles = (root: string) =>
        existsSync(join(root, 'wsctl')) ? readdirSync(join(root, 'wsctl')).filter((n) => n.startsWith('code-cache-')) : [];
      const on = async () => {
        const r = await recorded(args, { ...sb.env, ...ON, XDG_CACHE_HOME: cache });
        expect([r.code, r.stderr, r.stdout]).toEqual([0, '', off.stdout]);
        return r;
      };
      const first = await on();
      expect(cacheFiles(cache)).toHaveLength(1);
      expect(cacheFiles(cache)[0]).toMatch(new RegExp(`^code-cache-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{8}$`));
      const file = join(cache, 'wsctl', cacheFiles(cache)[0] as string);
      // No dynamic import() is left in it: vm's callback for one is experimental on Node 20 and
      // prints a warning on stderr (the keyring module, Node's own modules are required instead).
      expect(readFileSync(join(ROOT, 'dist/lazy/all.cjs'), 'utf8')).not.toMatch(/(?<![\w$.])import\(/);
      // The program came from dist/lazy/all.cjs (compiled by vm.Script, so not among required files).
      expect(first.files.some((f) => f.endsWith('dist/wsctl.cjs'))).toBe(false);
      expect(first.files.some((f) => f.endsWith('dist/lazy/flags.cjs'))).toBe(true);
      const key = cacheKey('dist/lazy/all.cjs');
      const made = readFileSync(file);
      expect(made.subarray(0, key.length).toString()).toBe(key);
      expect(made.length).toBeGreaterThan(key.length + 100_000);
      // V8 took it: the next run leaves it as it is.
      const before = statSync(file);
      await on();
      expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
      expect(statSync(file).ino).toBe(before.ino);
      // Its second line names the kinds of command whose code it holds: the first command of
      // another kind adds its code, once, and the cache then stays as it is for both.
      const kinds = () => readFileSync(file, 'latin1').split('\n')[1];
      expect(kinds()).toBe('keys/list/--json');
      // A run that fails teaches nothing: it ran another path than its kind's.
      const failed = await recorded(['--timeout', 'soon', 'caps'], { ...sb.env, ...ON, XDG_CACHE_HOME: cache });
      expect(failed.code).toBe(2);
      expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
      // A global option's value is not a word of the kind: the launcher, which loads none of the
      // program, reads argv with the program's reader (src/common/argv.ts), from the declarations.
      const declared = Object.values(GLOBAL_OPTIONS)
        .filter((o) => o.flags.includes('<'))
        .map((o) => o.flags.split(' ')[0]!);
      expect(declared.length).toBeGreaterThan(3);
      for (const option of declared)
        expect(commandKind([option, 'keys', 'caps', 'show']), option).toBe(option === '--jq' ? 'caps/show/--jq' : 'caps/show');
      const other = await recorded(['--profile', 'work', 'caps'], { ...sb.env, ...ON, XDG_CACHE_HOME: cache });
      expect([other.code, other.stderr]).toEqual([0, '']);
      expect(kinds()).toBe('keys/list/--json caps');
      const learned = statSync(file);
      expect(learned.size).toBeGreaterThan(before.size);
      await on();
      await recorded(['caps'], { ...sb.env, ...ON, XDG_CACHE_HOME: cache });
      expect(statSync(file).mtimeMs).toBe(learned.mtimeMs);
      // It learns 24 kinds at most; past them a new kind leaves it as it is, and still runs from it.
      const many = Array.from({ length: 24 }, (_, i) => `kind${i}`).join(' ');
      writeFileSync(file, Buffer.from(readFileSync(file, 'latin1').replace(/\n[^\n]*\n/, `\n${many}\n`), 'latin1'));
      const capped = statSync(file);
      const third = await recorded(['settings', '--json'], { ...sb.env, ...ON, XDG_CACHE_HOME: cache });
      expect([third.code, third.stderr]).toEqual([0, '']);
      expect(statSync(file).mtimeMs).toBe(capped.mtimeMs);
      expect(kinds()).toBe(many);
      // Code V8 rejects (it checks its own version, flags and the source's length), a cache made
      // for another build of the bundle, and one of the format before kinds: the command runs, and
      // the cache is made again, holding this run's kind alone.
      const code = made.subarray(made.indexOf(10, key.length) + 1);
      for (const stale of [
        Buffer.concat([Buffer.from(`${key}keys/list/--json caps\n`), Buffer.alloc(5000, 7)]),
        Buffer.concat([Buffer.from(key.replace(/ [0-9a-f]+\n$/, ` ${'0'.repeat(32)}\n`)), made.subarray(key.length)]),
        Buffer.concat([Buffer.from(key.replace('code cache 3', 'code cache 2')), code]),
      ]) {
        writeFileSync(file, stale);
        await on();
        expect(readFileSync(file).subarray(0, key.length).toString()).toBe(key);
        expect(kinds()).toBe('keys/list/--json');
        expect(readFileSync(file).length).toBeGreaterThan(key.length + 100_000);
      }
      // Writing a cache forgets old ones past the newest 44, this Node's last (another install's,
      // here the oldest of all, stays), and the first name this cache had.
      const folder = join(cache, 'wsctl');
      const mine = join(folder, `code-cache-${process.version}-${process.arch}-0000ffff`);
      writeFileSync(mine, 'another install');
      utimesSync(mine, new Date(2000, 0, 1), new Date(2000, 0, 1));
      const old = (i: number) => join(folder, `code-cache-v0.0.${i}-x64-000000${String(i).padStart(2, '0')}`);
      for (let i = 0; i < 45; i++) {
        writeFileSync(old(i), 'old');
        utimesSync(old(i), new Date(2001, 0, 1, 0, 0, i), new Date(2001, 0, 1, 0, 0, i));
      }
      writeFileSync(join(folder, 'node20-code-cache'), 'old');
      writeFileSync(file, Buffer.concat([Buffer.from(key), Buffer.alloc(5000, 7)]));
      await on();
      expect(cacheFiles(cache)).toHaveLength(44);
      expect(existsSync(mine)).toBe(true);
      // The oldest three of the others went.
      expect([0, 1, 2, 3].map((i) => existsSync(old(i)))).toEqual([false, false, false, true]);
      expect(cacheFiles(cache)).toContain(basename(file));
      expect(existsSync(join(folder, 'node20-code-cache'))).toBe(false);
      // The jq engine's glue comes the same way: a file of its own, made by the first run that loads
      // the engine on the main thread and taken by the next, with the answer the switch gives.
      const jqArgs = ['keys', 'list', '--jq', '[.keys[] | select(.name != null) | .id]'];
      const jqOff = await runBin(jqArgs, { env: { ...sb.env, ...OFF } });
      const jqCache = tempDir();
      const jqRun = async () => {
        const r = await recorded(jqArgs, { ...sb.env, ...ON, XDG_CACHE_HOME: jqCache });
        expect([r.code, r.stderr, r.stdout, r.engine]).toEqual([0, '', jqOff.stdout, true]);
        // The engine ran here, from the glue the cache gave, not in the thread that takes over when it fails.
        expect(r.files.some((f) => f.endsWith('jq-worker.cjs'))).toBe(false);
        expect(builtin(r, 'worker_threads')).toBe(false);
      };
      await jqRun();
      expect(cacheFiles(jqCache)).toHaveLength(2);
      const glueKey = cacheKey('dist/lazy/jq-worker.cjs');
      const glueFile = cacheFiles(jqCache)
        .map((name) => join(jqCache, 'wsctl', name))
        .find((f) => readFileSync(f).subarray(0, glueKey.length).toString() === glueKey) as string;
      expect(glueFile).toBeDefined();
      const glueMade = statSync(glueFile);
      await jqRun();
      expect(statSync(glueFile).mtimeMs).toBe(glueMade.mtimeMs);
      // Code V8 rejects: the filter runs, and the glue's cache is made again.
      writeFileSync(glueFile, Buffer.concat([Buffer.from(`${glueKey}\n`), Buffer.alloc(5000, 7)]));
      await jqRun();
      expect(readFileSync(glueFile).length).toBeGreaterThan(glueKey.length + 10_000);
      // A cache folder that cannot be made: slower, not broken, and nothing said.
      const notAFolder = join(tempDir(), 'file');
      writeFileSync(notAFolder, 'x');
      const r = await recorded(args, { ...sb.env, ...ON, XDG_CACHE_HOME: notAFolder });
      expect([r.code, r.stderr, r.stdout]).toEqual([0, '', off.stdout]);
      expect(readFileSync(notAFolder, 'utf8')).toBe('x');
      // Nor one under a folder that cannot hold folders, where a recursive mkdir never returns.
      const underProc = await recorded(args, { ...sb.env, ...ON, XDG_CACHE_HOME: '/proc/wsctl-cache' });
      expect([underProc.code, underProc.stderr, underProc.stdout]).toEqual([0, '', off.stdout]);
      // Help goes the usual way; the switch and Node's own switch for its cache turn it off.
      for (const [what, env] of [
        [['keys', '--help'], ON],
        [args, OFF],
        [args, { ...ON, NODE_DISABLE_COMPILE_CACHE: '1' }],
      ] as const) {
        const elsewhere = tempDir();
        const plain = await recorded([...what], { ...sb.env, ...env, XDG_CACHE_HOME: elsewhere });
        expect(plain.code, plain.stderr).toBe(0);
        expect(cacheFiles(elsewhere), what.join(' ')).toEqual([]);
        expect(plain.files.some((f) => f.endsWith('dist/wsctl.cjs'))).toBe(true);
      }
    },
    60_000,
  );

  trick(
    'version in the launcher',
    '`wsctl --version` alone does not load the bundle; with the switch it does, and says the same',
    async () => {
      const on = await recorded(['--version'], ON);
      const off = await recorded(['--version'], OFF);
      expect([on.code, off.code]).toEqual([0, 0]);
      expect(on.stdout).toBe(`${pkg.version}\n`);
      expect(off.stdout).toBe(on.stdout);
      expect(on.files.filter((f) => f.endsWith('wsctl.cjs'))).toEqual([]);
      expect(off.files.filter((f) => f.endsWith('wsctl.cjs'))).toHaveLength(1);
    },
  );

  trick(
    'initialize in the launcher',
    "`wsctl mcp` answers a plain `initialize` from the launcher's small file, and the program's server leaves out its own answer; with the switch the SDK's Server alone answers, the same",
    async () => {
      const input = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`;
      // runBin's test variable is one the launcher leaves to the program (a start it cannot vouch for).
      const plain = { WSCTL_RETRY_BASE_MS: undefined, WSCTL_BASE_URL: 'http://127.0.0.1:9' };
      const on = await recorded(['mcp'], { ...ON, ...plain }, input);
      const off = await recorded(['mcp'], { ...OFF, ...plain }, input);
      expect([on.code, off.code]).toEqual([0, 0]);
      expect(on.stdout.split('\n').filter(Boolean)).toHaveLength(1);
      expect(JSON.parse(on.stdout)).toEqual(JSON.parse(off.stdout));
      expect(on.files.filter((f) => f.endsWith('mcp-early.cjs'))).toHaveLength(1);
      expect(off.files.filter((f) => f.endsWith('mcp-early.cjs'))).toEqual([]);
      // What it loads before answering: node:fs, which Node has loaded at start; not node:tty.
      expect(readFileSync(join(ROOT, 'dist', 'mcp-early.cjs'), 'utf8')).not.toMatch(/require\("(node:)?tty"\)/);
      const inputs = JSON.parse(readFileSync(join(ROOT, 'build', 'mcp-early-inputs.json'), 'utf8'));
      expect(inputs.sort()).toEqual(['src/common/declared.ts', 'src/mcp/early.ts', 'src/mcp/initialize.ts']);
    },
  );

  trick(
    'root help in the launcher',
    "`wsctl`, `--help` and `-h` at 80 columns do not load the bundle and say commander's words; at another width, or with the switch, commander answers",
    async () => {
      const commander = await recorded(['--help'], OFF);
      expect(commander.code).toBe(0);
      expect(commander.files.filter((f) => f.endsWith('wsctl.cjs'))).toHaveLength(1);
      // The text the build wrote is what commander renders from the source now.
      expect(readFileSync(join(ROOT, 'dist', 'help-80.txt'), 'utf8')).toBe((await run(['--help'])).stdout);
      expect(commander.stdout).toBe((await run(['--help'])).stdout);
      for (const args of [[], ['--help'], ['-h']]) {
        for (const env of [ON, { ...ON, COLUMNS: '80' }]) {
          const on = await recorded(args, env);
          expect([on.code, on.stderr]).toEqual([0, '']);
          expect(on.stdout, args.join(' ')).toBe(commander.stdout);
          expect(on.files.filter((f) => f.endsWith('wsctl.cjs'))).toEqual([]);
          expect(on.stdoutMade).toBe(false);
          // A pipe is no terminal by fstat: node:tty (5 ms to load) is not asked.
          expect(builtin(on, 'tty'), args.join(' ')).toBe(false);
        }
      }
      // Another width (or a terminal's) is commander's to render.
      for (const columns of ['60', '80.5', 'wide']) {
        const other = await recorded(['--help'], { ...ON, COLUMNS: columns });
        expect(
          other.files.filter((f) => f.endsWith('wsctl.cjs')),
          columns,
        ).toHaveLength(1);
        expect(other.stdout).toBe((await recorded(['--help'], { ...OFF, COLUMNS: columns })).stdout);
      }
      const full = spawnSync(process.execPath, [BIN, '--help'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, ...ON },
        stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
      });
      expect([full.status, full.stderr]).toEqual([1, 'Error: Cannot write the output: ENOSPC.\n']);
      // /dev/null, a character device as a terminal is, is known for no terminal without node:tty.
      const devNull = spawnSync(process.execPath, [BIN, '--help'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, ...ON, NODE_OPTIONS: `--require ${HOOK}` },
        stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
      });
      const record = JSON.parse(devNull.stderr.slice(devNull.stderr.lastIndexOf('\nRECORD ') + 8));
      expect(devNull.status).toBe(0);
      expect(record.files.filter((f: string) => f.endsWith('wsctl.cjs'))).toEqual([]);
      expect(record.builtins).not.toContain('NativeModule tty');
    },
  );

  trick(
    'help written synchronously',
    '--help goes out without making the stdout stream; with the switch through it, the same bytes',
    async () => {
      for (const args of [['--help'], ['keys', '--help'], ['--version', '--no-color']]) {
        const on = await recorded(args, ON);
        const off = await recorded(args, OFF);
        expect(on.stdout).toBe(off.stdout);
        expect(on.stdout).toMatch(/Usage: wsctl|^\d+\.\d+\.\d+/);
        expect([on, off].map((r) => r.stdoutMade)).toEqual([false, true]);
      }
    },
  );

  trick('node:child_process stand-in', 'commander gets node:child_process only on first use; with the switch at once', async () => {
    const on = await recorded(['--help'], ON);
    const off = await recorded(['--help'], OFF);
    expect(builtin(on, 'child_process')).toBe(false);
    expect(builtin(off, 'child_process')).toBe(true);
  });

  trick('node:child_process stand-in', 'in the bundle, the stand-in reaches the real module (not itself, through the alias)', () => {
    const bundle = readFileSync(join(ROOT, 'dist/wsctl.cjs'), 'utf8');
    // By getBuiltinModule, which the build's alias of node:child_process (to the stand-in) cannot
    // turn back into the stand-in itself; and nothing in the bundle requires it.
    expect(bundle.split('process.getBuiltinModule("node:child_process")').length).toBe(2);
    expect(bundle).not.toMatch(/require\("(node:)?child_process"\)/);
    for (const env of [ON, OFF]) {
      const r = spawnSync(
        process.execPath,
        [
          '-e',
          'const cp = require(process.argv[1]); console.log(typeof cp.spawn, typeof cp.execFileSync)',
          join(ROOT, 'scripts/lazy-child-process.cjs'),
        ],
        {
          encoding: 'utf8',
          env: { PATH: process.env.PATH, ...env },
        },
      );
      expect(r.stdout.trim()).toBe('function function');
    }
  });

  trick('node:http2 stand-in', 'a request loads neither node:http2 nor tls; with the switch undici gets the real module', async () => {
    const { on, off } = await onAndOff(['keys', 'list']);
    expect([builtin(on, 'http2'), builtin(on, 'tls')]).toEqual([false, false]);
    expect(builtin(off, 'http2')).toBe(true);
  });

  trick(
    'node:assert stand-in',
    'a request loads no node:assert; with the switch undici gets the real module; the stand-in throws as assert does',
    async () => {
      const { on, off } = await onAndOff(['keys', 'list', '--json']);
      expect([builtin(on, 'assert'), builtin(off, 'assert')]).toEqual([false, true]);
      const standIn = Module.createRequire(import.meta.url)('../scripts/undici-assert.cjs');
      expect(standIn === process.getBuiltinModule('node:assert')).toBe(!tricksOn);
      expect(() => standIn(1)).not.toThrow();
      for (const [value, message] of [
        [0, undefined],
        [false, 'broken'],
        [null, undefined],
      ] as const) {
        let thrown: unknown;
        try {
          standIn(value, message);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toMatchObject({ name: 'AssertionError', code: 'ERR_ASSERTION', ...(message ? { message } : {}) });
      }
      const own = new RangeError('own');
      expect(() => standIn(false, own)).toThrow(own);
    },
  );

  trick(
    'node:http stand-in',
    'a request loads no node:http; with the switch undici gets the real module; --max-http-header-size still holds',
    async () => {
      const { on, off } = await onAndOff(['keys', 'list', '--json']);
      expect([builtin(on, 'http'), builtin(off, 'http')]).toEqual([false, true]);
      // A header limit given to Node is undici's too: the sandbox's answer does not fit in 100 bytes.
      for (const env of [ON, OFF]) {
        for (const option of ['--max-http-header-size=100', '--max_http_header_size=100']) {
          const r = await runBin(['keys', 'list', '--json'], { env: { ...sb.env, ...env, NODE_OPTIONS: option } });
          expect([r.code, JSON.parse(r.stderr).error.message], option).toEqual([3, expect.stringContaining('Headers Overflow')]);
        }
      }
      const standIn = Module.createRequire(import.meta.url)('../scripts/undici-http.cjs');
      const http = process.getBuiltinModule('node:http');
      expect(standIn === http).toBe(!tricksOn);
      expect([standIn.maxHeaderSize, standIn.STATUS_CODES]).toEqual([http.maxHeaderSize, http.STATUS_CODES]);
    },
  );

  trick('node:http2 stand-in', 'a proxied request works: the path that loads all of undici with the stand-in', async () => {
    const proxy = await startConnectProxy();
    for (const env of [ON, OFF]) {
      const r = await runBin(['keys', 'list', '--json'], { env: { ...sb.env, ...env, HTTP_PROXY: proxy.url } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).keys.length).toBeGreaterThan(0);
    }
    expect(proxy.tunnels).toEqual([new URL(sb.url).host, new URL(sb.url).host]);
  });

  trick('undici deep imports', 'undici/lib/… have the shapes wsctl uses: an Agent without HTTP/2 and request()', async () => {
    const [{ default: request }, { default: Agent }] = await Promise.all([
      import('undici/lib/api/api-request.js'),
      import('undici/lib/dispatcher/agent.js'),
    ]);
    expect(typeof request).toBe('function');
    const server = createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent({ allowH2: false });
    try {
      const response = await (
        request as (this: unknown, o: object) => Promise<{ statusCode: number; body: { json(): Promise<unknown> } }>
      ).call(agent, {
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        path: '/',
        method: 'GET',
      });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toEqual({ ok: true });
    } finally {
      await agent.close();
      server.close();
    }
  });

  trick('undici deep imports', "a request loads undici's agent, not its index; with the switch, its index", async () => {
    const on = await esmLoads(['keys', 'list'], { ...sb.env, ...ON });
    const off = await esmLoads(['keys', 'list'], { ...sb.env, ...OFF });
    expect([on.code, off.code]).toEqual([0, 0]);
    expect(on.loaded.filter((f) => f.includes('chunks/agent-'))).toHaveLength(1);
    expect(on.loaded.filter((f) => f.includes('chunks/undici-'))).toEqual([]);
    expect(off.loaded.filter((f) => f.includes('chunks/undici-'))).toHaveLength(1);
  });

  trick(
    'jq paths without the engine',
    'a plain path is answered without loading the engine, byte for byte as the engine answers it with the switch; a document it cannot answer goes to the engine',
    async () => {
      // The main thread's engine sets its hooks as it loads the glue (jq-local.ts), which comes from
      // the code cache rather than require().
      const engineLoaded = (r: Recorded) => r.engine;
      // Paths that leave out last_used_at: each run authenticates, which moves it between the two.
      for (const filter of ['.keys[].id', '.keys[0].created_at', '.keys | .[-1] | .name', '.keys[].key_prefix']) {
        const on = await recorded(['keys', 'list', '--jq', filter], { ...sb.env, ...ON });
        const off = await runBin(['keys', 'list', '--jq', filter], { env: { ...sb.env, ...OFF, NODE_DEBUG: 'worker' } });
        expect([on.code, off.code], on.stderr + off.stderr).toEqual([0, 0]);
        expect(on.stdout, filter).toBe(off.stdout);
        expect(engineLoaded(on), filter).toBe(false);
        expect(workerStarted(off.stderr), filter).toBe(true);
      }
      // A step jq fails on: the engine runs the filter and says why, as it does with the switch.
      const on = await recorded(['keys', 'list', '--jq', '.keys.id'], { ...sb.env, ...ON });
      const off = await runBin(['keys', 'list', '--jq', '.keys.id'], { env: { ...sb.env, ...OFF } });
      expect([on.code, on.stdout, on.stderr]).toEqual([off.code, off.stdout, off.stderr]);
      expect(off.stderr).toMatch(/Cannot index array with string/);
      expect(engineLoaded(on)).toBe(true);
    },
  );

  trick(
    'jq on the main thread',
    "a filter runs without the engine's thread; past its time slice, its memory or its output bound it moves to the thread, from the start, and a second document goes to the thread, with the same result as the switch gives",
    async () => {
      const cases: [string, string[], boolean][] = [
        ['a small filter, here', ['keys', 'list', '--jq', '.keys | map(.id)'], false],
        ['a typo, here', ['keys', 'list', '--jq', '.keys | map(.id'], false],
        ['a failing filter, here', ['keys', 'list', '--jq', '.keys | error("no")'], false],
        // Some 7 times the slice on the machine it was written on (~1.4 s; 1e7 took 5 s).
        ['past the time slice', ['settings', '--jq', 'last(range(2e6))'], true],
        [
          'many documents: the first here, the rest in the thread',
          ['convo', 'show', 'conv_demo', '--follow', '--jq', '.kind? // .state | ascii_downcase'],
          true,
        ],
        // 90 MB of strings: past the 64 MiB this thread's engine has.
        ['past the memory bound', ['settings', '--jq', '["x" * 3e7, "y" * 3e7, "z" * 3e7] | map(length) | add'], true],
        ['past the output bound', ['settings', '--jq', 'range(300000)'], true],
      ];
      for (const [name, args, moves] of cases) {
        const [on, off] = await Promise.all([
          runBin(args, { env: { ...sb.env, ...ON, NODE_DEBUG: 'worker' }, timeoutMs: 60_000 }),
          runBin(args, { env: { ...sb.env, ...OFF }, timeoutMs: 60_000 }),
        ]);
        expect([on.code, on.stdout], name).toEqual([off.code, off.stdout]);
        expect(on.stderr, name).toContain(off.stderr.trim());
        expect(workerStarted(on.stderr), name).toBe(moves);
      }
      // A filter answered here loads none of the thread's modules, nor fs/promises for the glue.
      const here = await recorded(['keys', 'list', '--jq', '.keys | map(.id)'], { ...sb.env, ...ON });
      expect(here.code).toBe(0);
      expect(['worker_threads', 'fs/promises', 'internal/readline/interface'].filter((m) => builtin(here, m))).toEqual([]);
      // jq reads the document from a file named as the device was: its messages say the same.
      for (const env of [ON, OFF]) {
        const failed = await runBin(['keys', 'list', '--jq', '.keys[0].nothing | error'], { env: { ...sb.env, ...env } });
        expect([failed.code, failed.stderr]).toEqual([2, expect.stringContaining('jq: error (at /dev/stdin:0) (not a string): null')]);
      }
    },
    120_000,
  );

  trick(
    'jq random bytes without WebCrypto',
    "jq on the main thread takes the random bytes it asks for as it starts from Math.random, and this thread loads no WebCrypto for them; the result is the switch's",
    async () => {
      const args = ['keys', 'list', '--jq', '[.keys[] | select(.last_used_at != null) | .id]'];
      const on = await recorded(args, { ...sb.env, ...ON });
      const off = await runBin(args, { env: { ...sb.env, ...OFF } });
      expect([on.code, on.stdout]).toEqual([off.code, off.stdout]);
      expect(on.stdout).toMatch(/^\[/);
      expect(builtin(on, 'internal/crypto/webcrypto')).toBe(false);
      // The hook is the glue's only source: without it the glue's own (WebCrypto) fills them.
      const glue = readFileSync(join(ROOT, 'dist/lazy/jq-worker.cjs'), 'utf8');
      expect(glue).toContain('globalThis.__wsctlJq?.random??');
    },
  );

  trick(
    ['Liftoff only', 'steady young generation'],
    'the V8 flags are set once, in one place, before any WebAssembly: a request, --jq, a proxied request, a transcript; none with the switch',
    async () => {
      const proxy = await startConnectProxy();
      const cases: [string[], Record<string, string>][] = [
        [['keys', 'list'], {}],
        [['keys', 'list', '--jq', '.keys | map(.id)'], {}],
        [['keys', 'list'], { HTTP_PROXY: proxy.url }],
        [['convo', 'show', 'conv_demo'], {}],
      ];
      for (const [args, extra] of cases) {
        const on = await recorded(args, { ...sb.env, ...extra, ...ON });
        const off = await recorded(args, { ...sb.env, ...extra, ...OFF });
        expect([on.code, off.code], on.stderr + off.stderr).toEqual([0, 0]);
        // The sandbox's key says when it was last used: the two runs may fall in different seconds.
        const untimed = (text: string) => text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
        expect(untimed(off.stdout)).toBe(untimed(on.stdout));
        expect(on.flags, args.join(' ')).toEqual([...RUNTIME_FLAGS]);
        expect(off.flags, args.join(' ')).toEqual([]);
      }
      // --help does not pay for them (nor for loading node:v8).
      expect((await recorded(['--help'], ON)).flags).toEqual([]);
    },
  );

  trick(
    'V8 defaults for the MCP server',
    '`wsctl mcp` sets no run-time flag and keeps a code cache of its own; its verbs and every command set them, and keep theirs',
    async () => {
      // The launcher loads none of the program: its reader of argv knows mcp's verbs and flags from the build (src/common/declared.ts).
      for (const verb of mcp.verbs) expect(servesCalls(['mcp', verb.name]), verb.name).toBe(false);
      const valued = Object.values(mcp.self?.flags ?? {}).filter((f): f is { syntax: string } =>
        (f as { syntax: string }).syntax.includes('<'),
      );
      expect(valued.length).toBeGreaterThan(0);
      for (const f of valued) expect(servesCalls(['mcp', f.syntax.split(' ')[0]!, 'install']), f.syntax).toBe(true);
      for (const argv of [['mcp'], ['--profile', 'mcp', 'mcp', '--read-only'], ['mcp', '--upload-dir', 'config']])
        expect(servesCalls(argv), argv.join(' ')).toBe(true);
      for (const argv of [['mcp', 'install'], ['--profile', 'work', 'mcp', 'config'], ['keys', 'list'], ['--profile', 'mcp'], []])
        expect(servesCalls(argv), argv.join(' ')).toBe(false);
      const cache = tempDir();
      // (Not a server's file while it is written: the tests below read the folder while one runs.)
      const codeCaches = () => readdirSync(join(cache, 'wsctl')).filter((n) => n.startsWith('code-cache-') && !n.endsWith('.tmp'));
      const call = (id: number) =>
        `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'keys_list', arguments: {} } })}\n`;
      const input = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n${call(1)}`;
      const served = async (given = input) => {
        const r = await recorded(['mcp'], { ...sb.env, ...ON, XDG_CACHE_HOME: cache }, given);
        expect([r.code, r.flags], r.stderr).toEqual([0, []]);
        return JSON.parse(r.stdout.trim().split('\n').at(-1) as string).result;
      };
      // A session without calls makes the server's caches: the program's and its side file's with
      // the MCP SDK, which it ran from V8's code too.
      const listed = await served(input.replace(call(1), `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`));
      expect(listed.tools.length).toBeGreaterThan(10);
      expect(codeCaches()).toEqual([expect.stringMatching(/-v8-defaults$/), expect.stringMatching(/-v8-defaults$/)]);
      const heads = () =>
        codeCaches().map((n) =>
          readFileSync(join(cache, 'wsctl', n), 'latin1')
            .split('\n')
            .slice(0, 2),
        );
      const programKey = cacheKey('dist/lazy/all.cjs').trim();
      expect(
        heads()
          .map(([key]) => key)
          .sort(),
      ).toEqual([programKey, cacheKey('dist/lazy/side/mcp-sdk.cjs').trim()].sort());
      const programKinds = () => heads().find(([key]) => key === programKey)?.[1];
      expect(programKinds()).toBe('mcp');
      // The first session with a call learns it, once its first call is answered (read here while
      // the session is open); the next leaves it.
      const open = spawn(process.execPath, [BIN, 'mcp'], {
        env: { PATH: process.env.PATH, HOME: tempDir(), ...sb.env, ...ON, XDG_CACHE_HOME: cache },
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      let answered = '';
      open.stdout.on('data', (c) => (answered += c));
      open.stdin.write(input);
      for (let i = 0; i < 200 && programKinds() !== 'mcp mcp/call'; i++) await new Promise((r) => setTimeout(r, 25));
      expect(answered).toContain('"id":1');
      expect(programKinds()).toBe('mcp mcp/call');
      open.stdin.end();
      expect(await new Promise((resolve) => open.on('close', resolve))).toBe(0);
      expect(programKinds()).toBe('mcp mcp/call');
      // A fresh cache whose first session has a call holds both; at most 24 kinds are learned.
      const fresh = tempDir();
      const freshKinds = () =>
        readdirSync(join(fresh, 'wsctl'))
          .filter((n) => n.startsWith('code-cache-'))
          .map((n) =>
            readFileSync(join(fresh, 'wsctl', n), 'latin1')
              .split('\n')
              .slice(0, 2),
          )
          .find(([key]) => key === programKey)?.[1];
      const inFresh = async () => expect((await recorded(['mcp'], { ...sb.env, ...ON, XDG_CACHE_HOME: fresh }, input)).code).toBe(0);
      await inFresh();
      expect(freshKinds()).toBe('mcp mcp/call');
      const freshFile = readdirSync(join(fresh, 'wsctl'))
        .filter((n) => n.startsWith('code-cache-'))
        .map((n) => join(fresh, 'wsctl', n))
        .find((f) => readFileSync(f, 'latin1').startsWith(programKey)) as string;
      const many = Array.from({ length: 23 }, (_, i) => `kind${i}`).join(' ');
      writeFileSync(freshFile, Buffer.from(readFileSync(freshFile, 'latin1').replace(/\n[^\n]*\n/, `\n${many}\n`), 'latin1'));
      await inFresh();
      // (Or none, when V8's code of this run is smaller than the cache's: the launcher then keeps the cache.)
      const learned = freshKinds()?.split(' ') ?? [];
      expect(learned.slice(0, 23).join(' ')).toBe(many);
      expect(learned.length).toBeLessThanOrEqual(24);
      expect(learned).not.toContain('mcp/call');
      const serverCaches = codeCaches().map((n) => join(cache, 'wsctl', n));
      const command = await recorded(['keys', 'list', '--json'], { ...sb.env, ...ON, XDG_CACHE_HOME: cache });
      expect([command.code, command.flags]).toEqual([0, [...RUNTIME_FLAGS]]);
      const verb = await recorded(['--sandbox', 'mcp', 'config'], { ...ON, XDG_CACHE_HOME: cache, WSCTL_CONFIG_DIR: tempDir() });
      expect([verb.code, verb.flags], verb.stderr).toEqual([0, [...RUNTIME_FLAGS]]);
      expect(codeCaches()).toHaveLength(3);
      // Each takes its own next time: neither is made again.
      const made = codeCaches().map((n) => statSync(join(cache, 'wsctl', n)).mtimeMs);
      await served();
      expect((await recorded(['keys', 'list', '--json'], { ...sb.env, ...ON, XDG_CACHE_HOME: cache })).code).toBe(0);
      expect(codeCaches().map((n) => statSync(join(cache, 'wsctl', n)).mtimeMs)).toEqual(made);
      for (const file of serverCaches) expect(existsSync(file)).toBe(true);
    },
  );

  trick('Liftoff only', 'no WebAssembly function is compiled by TurboFan: undici, the jq engine, a proxied request', async () => {
    const proxy = await startConnectProxy();
    for (const [extra, env] of [
      [[], {}],
      [['--jq', '.keys | map(.id)'], {}],
      [[], { HTTP_PROXY: proxy.url }],
    ] as const) {
      // Not spawnSync: the sandbox and the proxy answer from this process.
      const child = spawn(process.execPath, ['--trace-wasm-compilation-times', BIN, 'keys', 'list', ...extra], {
        env: { PATH: process.env.PATH, HOME: tempDir(), ...sb.env, ...env, ...ON },
      });
      const r = { stdout: '', stderr: '', status: 0 as number | null };
      child.stdout.on('data', (c) => (r.stdout += c));
      child.stderr.on('data', (c) => (r.stderr += c));
      r.status = await new Promise((resolve) => child.on('close', resolve));
      expect(r.status, r.stderr).toBe(0);
      const out = r.stdout + r.stderr;
      expect(out).toMatch(/using Liftoff/);
      expect(out, extra.join(' ')).not.toMatch(/using TurboFan/);
    }
  });

  trick('Liftoff only', 'each run-time flag exists on this Node (set, an unknown one would warn on stderr)', () => {
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    for (const flag of RUNTIME_FLAGS) expect(options, flag).toContain(flag.replace(/^--(no-)?/, '--').split('=')[0]);
    const r = spawnSync(
      process.execPath,
      ['-e', 'for (const f of process.argv.slice(1)) require("node:v8").setFlagsFromString(f)', '--', ...RUNTIME_FLAGS],
      { encoding: 'utf8' },
    );
    expect([r.status, r.stderr]).toEqual([0, '']);
  });

  trick('steady young generation', 'the flag keeps the new space at its start size when set at run time', () => {
    const flag = RUNTIME_FLAGS.find((f) => f.startsWith('--semi-space-growth-factor'));
    expect(flag).toBeDefined();
    const newSpace = (f: string) => {
      const script = `const v8 = require('node:v8');
        if (process.argv[1]) v8.setFlagsFromString(process.argv[1]);
        let keep = [];
        for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 2000) keep = []; }
        console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`;
      const r = spawnSync(process.execPath, ['-e', script, '--', f], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return Number(r.stdout);
    };
    const steady = newSpace(flag as string);
    expect(steady).toBeLessThanOrEqual(4 << 20);
    expect(newSpace('')).toBeGreaterThan(steady * 4);
  });

  trick(
    'collections by what a transcript read',
    'a transcript collects all garbage after every 16 MiB read, a follow after every 8 MiB over its polls; --expose-gc is unset after the collector is taken, so the code cache the run made is taken by the next command; not with the switch',
    async () => {
      // A conversation whose messages are 1.5 MiB each: a first answer of `first` messages, then one
      // more each time; running until the third answer.
      const serving = async (first: number) => {
        let answers = first - 1;
        const server = createServer((_req, res) => {
          const state = ++answers < first + 2 ? 'running' : 'idle';
          const messages = Array.from({ length: answers }, (_, i) => ({
            kind: 'request',
            parts: [{ part_kind: 'user-prompt', content: `message ${i} ${'x'.repeat(3 << 19)}`, timestamp: '2026-01-05T09:00:00Z' }],
          }));
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ conversation: { id: 'conv_gc', title: 'polled' }, messages, state }));
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return server;
      };
      const COLLECTED = [...RUNTIME_FLAGS, '--expose-gc', '--no-expose-gc'];
      const runs = async (args: string[], first = 1) => {
        const cache = tempDir();
        const both: Recorded[] = [];
        for (const env of [ON, OFF]) {
          const server = await serving(first);
          const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          try {
            both.push(await recorded(args, { ...sb.env, WSCTL_BASE_URL: url, XDG_CACHE_HOME: cache, ...env }));
          } finally {
            server.close();
          }
        }
        const [on, off] = both as [Recorded, Recorded];
        expect([on.code, off.code], on.stderr + off.stderr).toEqual([0, 0]);
        expect(off.stdout).toBe(on.stdout);
        expect([off.flags, off.collections]).toEqual([[], 0]);
        return { on, cache };
      };
      // A transcript of 3 MiB is not collected by hand, one of 16.5 MiB once.
      const small = (await runs(['convo', 'show', 'conv_gc'], 2)).on;
      expect([small.flags, small.collections]).toEqual([[...RUNTIME_FLAGS], 0]);
      const large = (await runs(['convo', 'show', 'conv_gc'], 11)).on;
      expect([large.flags, large.collections]).toEqual([COLLECTED, 1]);
      // A follow: 1.5, 3, then 4.5 MiB; collected once, in the third poll.
      const { on: followed, cache } = await runs(['convo', 'show', 'conv_gc', '--follow', '--interval', '0.5']);
      expect(followed.stdout).toContain('message 2');
      expect([followed.flags, followed.collections]).toEqual([COLLECTED, 1]);
      // The follow made the program's code cache; V8 takes it in the next run, which adds its own
      // kind of command to it (a cache V8 rejected would be made again, for that kind alone).
      const [file] = readdirSync(join(cache, 'wsctl')).filter((n) => n.startsWith('code-cache-'));
      expect(file).toBeDefined();
      const kinds = () => readFileSync(join(cache, 'wsctl', file as string), 'latin1').split('\n')[1];
      expect(kinds()).toBe('convo/show');
      const next = await recorded(['keys', 'list', '--json'], { ...sb.env, XDG_CACHE_HOME: cache, ...ON });
      expect(next.code, next.stderr).toBe(0);
      expect(kinds()).toBe('convo/show keys/list/--json');
    },
    30_000,
  );

  trick('node:crypto without its ES module facade', 'a request does not load WebCrypto; with the switch, the facade loads it', async () => {
    const { on, off } = await onAndOff(['keys', 'list']);
    expect(builtin(on, 'internal/crypto/webcrypto')).toBe(false);
    expect(builtin(off, 'internal/crypto/webcrypto')).toBe(true);
  });

  trick(
    'node:http without its ES module facade',
    "--sandbox does not load Node's own undici, and says the same with the switch",
    async () => {
      const config = { WSCTL_CONFIG_DIR: tempDir() };
      const on = await recorded(['--sandbox', 'keys', 'list'], { ...config, ...ON });
      const off = await recorded(['--sandbox', 'keys', 'list'], { ...config, ...OFF });
      expect([on.code, off.code], on.stderr + off.stderr).toEqual([0, 0]);
      expect(off.stdout).toBe(on.stdout);
      expect(builtin(on, 'internal/deps/undici/undici')).toBe(false);
      // (With the switch, undici's index loads Node's own copy anyway, on every Node line.)
    },
  );

  trick('quickCheck', 'is off with the switch: zod alone decides', () => {
    // In this process the switch is the suite's: its run with WSCTL_NO_TRICKS=1 proves the off path.
    expect(quickCheck(Message()) === undefined).toBe(!tricksOn);
  });
});

type Def = {
  type: string;
  shape?: Record<string, { _zod: { def: Def } }>;
  innerType?: { _zod: { def: Def } };
  element?: { _zod: { def: Def } };
  valueType?: { _zod: { def: Def } };
  options?: { _zod: { def: Def } }[];
  entries?: Record<string, unknown>;
  values?: unknown[];
};

const json = fc.jsonValue({ maxDepth: 2 });
const wrongValue = fc.oneof(
  fc.string(),
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.dictionary(fc.string(), json, { maxKeys: 2 }),
  fc.array(json, { maxLength: 2 }),
);

/** Values near the schema's shape: each part mostly right, now and then anything else; JSON only. */
function near(def: Def, depth = 0): fc.Arbitrary<unknown> {
  const inner = (child: { _zod: { def: Def } } | undefined) => (child ? near(child._zod.def, depth + 1) : json);
  let right: fc.Arbitrary<unknown>;
  switch (def.type) {
    case 'string':
      right = fc.string({ maxLength: 8 });
      break;
    case 'number':
      right = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
      break;
    case 'boolean':
      right = fc.boolean();
      break;
    case 'optional':
      right = fc.oneof(fc.constant(undefined), inner(def.innerType));
      break;
    case 'nullable':
      right = fc.oneof(fc.constant(null), inner(def.innerType));
      break;
    case 'array':
      right = fc.array(inner(def.element), { maxLength: depth > 2 ? 1 : 3 });
      break;
    case 'record':
      right = fc.dictionary(fc.string({ maxLength: 5 }), inner(def.valueType), { maxKeys: 3 });
      break;
    case 'object': {
      const fields = Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, child]) => [k, inner(child)]));
      // Most keys present, now and then one missing, and sometimes a key the schema does not name.
      right = fc
        .tuple(
          fc.record(fields, { requiredKeys: Object.keys(fields).filter((_, i) => i % 3 !== 0) }),
          fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 1 }),
        )
        .map(([known, extra]) => ({ ...extra, ...known }));
      break;
    }
    case 'enum':
      right = fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
      break;
    case 'literal':
      right = fc.constantFrom(...(def.values ?? [null]));
      break;
    case 'union':
      right = fc.oneof(...(def.options ?? []).map((o) => inner(o)));
      break;
    default:
      right = json;
  }
  // As JSON.parse would give them: undefined in arrays turns to null, absent fields stay absent.
  return fc
    .oneof({ arbitrary: right, weight: 12 }, { arbitrary: wrongValue, weight: 1 })
    .map((v) => (v === undefined ? v : JSON.parse(JSON.stringify(v))));
}

describe('quickCheck: zod’s yes or no on JSON values, without zod’s copies', () => {
  // Every response schema, and the parts the streamed transcript checks one by one.
  const schemas: [string, z.ZodMiniType][] = [
    ...Object.entries(responseSchemas).map(([name, schema]): [string, z.ZodMiniType] => [name, schema()]),
    ['Message', Message()],
    ['ConversationDetail', ConversationDetail()],
    ['Conversation.messages', responseSchemas.Conversation().shape.messages],
  ];

  it.each(schemas)('%s: the same verdict as zod on random values', (_name, schema) => {
    const check = quickCheck(schema);
    if (!tricksOn) return expect(check).toBeUndefined();
    // Every response schema is inside the subset it compiles today: a new one outside it would
    // be checked by zod alone, and should be named here as such.
    if (check === undefined) throw new Error('no quick check: zod alone decides for this schema');
    let yes = 0;
    fc.assert(
      fc.property(near(schema._zod.def as Def), (value) => {
        const zod = schema.safeParse(value).success;
        if (zod) yes++;
        expect(check(value)).toBe(zod);
      }),
      { numRuns: 1500 },
    );
    // At least one in 40 (Conversation's accepted values came to 98 of 1,500 in a CI run, under a bound of 100).
    expect(yes, 'both verdicts are common').toBeGreaterThan(1500 / 40);
  });

  it('compiles a check for the schemas a large response uses, and for none outside its subset', () => {
    if (!tricksOn) return;
    for (const name of ['Conversation', 'ApiKeyList'] as const) expect(quickCheck(responseSchemas[name]()), name).toBeDefined();
    expect(quickCheck(Message())).toBeDefined();
    expect(quickCheck(z.object({ a: z.enum(['x', 'y']) }))).toBeUndefined();
    expect(quickCheck(z.string().check(z.minLength(2)))).toBeUndefined();
  });
});

// What a run loaded of Node's own modules, without loading any itself (the record hook requires node:v8).
const LOADED_HOOK = join(hookDir, 'loaded.cjs');
writeFileSync(
  LOADED_HOOK,
  "process.on('exit', () => require('node:fs').writeSync(2, '\\nLOADED ' + JSON.stringify(process.moduleLoadList) + '\\n'));\n",
);

async function nodeModules(args: string[], env: Record<string, string | undefined>): Promise<string[]> {
  const r = await runBin(args, { env: { ...env, NODE_OPTIONS: `--require ${LOADED_HOOK}` } });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(/\nLOADED (.*)\n/.exec(r.stderr)?.[1] ?? 'null');
}

describe('each trick, on and off: the builtins loaded by hand', () => {
  trick('Liftoff only', 'node:v8 is loaded to set the flags only: not for help, nor with the switch', async () => {
    expect(await nodeModules(['keys', 'list'], { ...sb.env, ...ON })).toContain('NativeModule v8');
    expect(await nodeModules(['keys', 'list'], { ...sb.env, ...OFF })).not.toContain('NativeModule v8');
    expect(await nodeModules(['keys', '--help'], ON)).not.toContain('NativeModule v8');
  });

  trick(
    'node:crypto without its ES module facade',
    "builtinCrypto gives node:crypto's own exports; with the switch, the ES module facade that a plain import gives",
    async () => {
      // The suite runs with and without the switch: each run proves its own side.
      await import('node:crypto');
      await new Promise((resolve) => setImmediate(resolve));
      const crypto = builtinCrypto();
      expect(Object.prototype.toString.call(crypto)).toBe(tricksOn ? '[object Object]' : '[object Module]');
      expect(crypto === process.getBuiltinModule('node:crypto')).toBe(tricksOn);
      expect(crypto.randomBytes(6)).toHaveLength(6);
      // Its users: the spool names its file with it past 256 KiB held, the sandbox its ids.
      const spool = new Spool(tempDir());
      const text = `${'x'.repeat(1 << 20)}\n`;
      for (let i = 0; i < 5; i++) spool.write(text);
      expect((spool as unknown as { file?: unknown }).file, 'the spool went to a file').toBeDefined();
      const parts: Buffer[] = [];
      await spool.drainInto({ write: async (chunk: string | Uint8Array) => void parts.push(Buffer.from(chunk)) } as unknown as Sink);
      expect(Buffer.concat(parts).toString()).toBe(text.repeat(5));
      expect(randomId(12)).toMatch(/^[A-Za-z0-9]{12}$/);
    },
  );

  trick('node:crypto without its ES module facade', "its users work either way, end to end: the sandbox's new key (seed.ts)", async () => {
    for (const env of [ON, OFF]) {
      const r = await runBin(['--sandbox', 'keys', 'create', 'crypto-check', '--json'], { env: { WSCTL_CONFIG_DIR: tempDir(), ...env } });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).key).toMatch(/^wsk_[A-Za-z0-9]{40}$/);
    }
  });
});

// The reliances (src/tricks/registry.ts, RELIANCES): behaviour, not speed, so the switch leaves
// them on; each is checked against the pinned library, so that an upgrade that breaks one fails here.
const relied = new Set<string>();
function reliance(name: string, title: string, fn: () => unknown, timeoutMs?: number) {
  relied.add(name);
  it(`${name}: ${title}`, fn, timeoutMs);
}

describe("reliances on a library's internals or on the process's state", () => {
  it('each names where it is, why, and what breaks; none is a trick the switch turns off; each has tests below', () => {
    expect(RELIANCES.length).toBeGreaterThan(0);
    for (const r of RELIANCES) for (const field of [r.where, r.why, r.breaks]) expect(field, r.name).toMatch(/\w/);
    expect(RELIANCES.filter((r) => TRICKS.some((t) => t.name === r.name))).toEqual([]);
    expect(RELIANCES.map((r) => r.name).filter((n) => !relied.has(n))).toEqual([]);
    expect([...relied].filter((n) => !RELIANCES.some((r) => r.name === n))).toEqual([]);
  });

  const jqWasm = Module.createRequire(import.meta.url)(join(ROOT, 'scripts/jq-wasm.cjs')) as {
    PATCHES: [string, string][];
    PACKAGE_PAGES: number;
    MAX_PAGES: number;
    memorySection(wasm: Buffer, path: string): { max: number };
  };
  const jqPackage = join(ROOT, 'node_modules/jq-wasm');

  reliance(
    'jq-wasm patched',
    'the pinned glue has each patched line exactly once, and the package still caps jq at 256 MiB (else the patch is no longer needed)',
    () => {
      const pinned = JSON.parse(readFileSync(join(jqPackage, 'package.json'), 'utf8')).version;
      expect(pinned, 'jq-wasm moved: re-check scripts/jq-wasm.cjs').toBe(pkg.devDependencies['jq-wasm']);
      const glue = readFileSync(join(jqPackage, 'dist/index.cjs'), 'utf8');
      for (const [from] of jqWasm.PATCHES) expect(glue.split(from).length - 1, `once in jq-wasm's glue: ${from}`).toBe(1);
      // Still needed: the package bounds jq's heap at 256 MiB in its glue and in its binary, below cli.md's 1 GiB.
      expect(glue).toContain('var getHeapMax = () => 268435456;');
      const wasm = join(jqPackage, 'dist/build/jq.wasm');
      expect(jqWasm.memorySection(readFileSync(wasm), wasm).max * 65536).toBe(256 * 2 ** 20);
      expect(jqWasm.PACKAGE_PAGES * 65536).toBe(256 * 2 ** 20);
      // Still needed: the glue collects output in sinks of its own, which the worker replaces.
      expect(glue).toMatch(/function createByteSink\(/);
    },
  );

  reliance('jq-wasm patched', 'the build applied it: a 1 GiB memory in dist/lazy/jq.wasm, and the hooks in the glue', () => {
    const built = join(ROOT, 'dist/lazy/jq.wasm');
    expect(jqWasm.memorySection(readFileSync(built), built).max).toBe(jqWasm.MAX_PAGES);
    expect(jqWasm.MAX_PAGES * 65536).toBe(2 ** 30);
    const worker = readFileSync(join(ROOT, 'dist/lazy/jq-worker.cjs'), 'utf8');
    expect(worker.split('__wsctlJq').length - 1).toBeGreaterThanOrEqual(jqWasm.PATCHES.length);
  });

  /** A bare Server of the pinned SDK on a linked in-memory pair, and the raw answers it sends. */
  async function bareServer(setup: (server: Server) => void) {
    const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
    setup(server);
    const [client, side] = InMemoryTransport.createLinkedPair();
    const answers = new Map<unknown, { result?: unknown; error?: { code: number; message: string } }>();
    client.onmessage = (m) => void ('id' in m && answers.set(m.id, m as never));
    await server.connect(side);
    await client.start();
    const ask = async (id: number, method: string, params: unknown) => {
      await client.send({ jsonrpc: '2.0', id, method, params } as never);
      for (let i = 0; i < 200 && !answers.has(id); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      return answers.get(id);
    };
    return { ask, close: () => server.close() };
  }

  reliance(
    'tools/call through the fallback handler',
    "the pinned SDK's Server wraps its own tools/call handler in a check that refuses `arguments: null` (so wsctl does not use it)",
    async () => {
      let called = false;
      const s = await bareServer((server) =>
        server.setRequestHandler(CallToolRequestSchema, async () => {
          called = true;
          return { content: [] };
        }),
      );
      const answer = await s.ask(1, 'tools/call', { name: 'x', arguments: null });
      await s.close();
      // Refused before the handler (the SDK says "invalid params" or, from its schema, "internal error").
      expect([ErrorCode.InvalidParams, ErrorCode.InternalError]).toContain(answer?.error?.code);
      expect(called).toBe(false);
    },
  );

  reliance(
    'tools/call through the fallback handler',
    "a Server with no tools/call handler gives the request to fallbackRequestHandler as sent, with the call's signal, progress token and notifications, and sends its result as it is",
    async () => {
      let seen: { params: unknown; signal: boolean; token: unknown; notify: boolean } | undefined;
      const s = await bareServer((server) => {
        server.fallbackRequestHandler = async (request, extra) => {
          if (request.method !== 'tools/call') throw Object.assign(new Error('Method not found'), { code: ErrorCode.MethodNotFound });
          seen = {
            params: request.params,
            signal: extra.signal instanceof AbortSignal,
            token: extra._meta?.progressToken,
            notify: typeof extra.sendNotification === 'function',
          };
          return { content: [{ type: 'text', text: 'ok' }], isError: true, structuredContent: { exit_code: 2 } };
        };
      });
      const answer = await s.ask(1, 'tools/call', { name: 'x', arguments: null, _meta: { progressToken: 7 } });
      const other = await s.ask(2, 'no/such/method', {});
      await s.close();
      expect(seen).toEqual({ params: { name: 'x', arguments: null, _meta: { progressToken: 7 } }, signal: true, token: 7, notify: true });
      expect(answer?.result).toEqual({ content: [{ type: 'text', text: 'ok' }], isError: true, structuredContent: { exit_code: 2 } });
      // The fallback hears every method without a handler: wsctl's answers the others as the SDK would without it.
      expect(other?.error).toEqual({ code: ErrorCode.MethodNotFound, message: 'Method not found' });
    },
  );

  /** `wsctl mcp`'s serve in this process, on streams of the test's, with one moment of serving given to `during`. */
  async function serving(during: () => Promise<void>) {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c) => (out += c));
    stderr.on('data', (c) => (err += c));
    const never = () => Promise.reject(new Error('no prompts here'));
    const ctx = await createCtx(
      {
        io: { stdin, stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, columns: 0 },
        env: { ...sb.env },
        signal: new AbortController().signal,
        version: '0.0.0-test',
        prompt: { secret: never, confirm: never },
      },
      {},
    );
    const answered = async (id: number) => {
      for (let i = 0; i < 400 && !out.includes(`"id":${id}`); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const served = serve({}, ctx, () => declaredVerbs());
    const clientInfo = { name: 't', version: '1' };
    stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } })}\n`,
    );
    await answered(1);
    await during();
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
    await answered(2);
    stdin.end();
    await served;
    await ctx.close();
    return { out, err };
  }

  reliance(
    'console to stderr while serving',
    "what a library prints with console.log, info or debug goes to stderr while serving, never into stdout's protocol lines; console is as it was after",
    async () => {
      const before = { log: console.log, info: console.info, debug: console.debug };
      const { out, err } = await serving(async () => {
        console.log('printed by log');
        console.info('printed by info');
        console.debug('printed by debug');
      });
      expect({ log: console.log, info: console.info, debug: console.debug }).toEqual(before);
      const lines = out.trim().split('\n');
      expect(lines.map((l) => JSON.parse(l).jsonrpc)).toEqual(['2.0', '2.0']);
      for (const word of ['log', 'info', 'debug']) expect(err).toContain(`printed by ${word}\n`);
    },
  );

  reliance(
    'console to stderr while serving',
    "the SDK's server side that wsctl bundles writes nothing to process.stdout itself (what it prints goes through console)",
    () => {
      const inputs: string[] = JSON.parse(readFileSync(join(ROOT, 'build/bundle-inputs.json'), 'utf8'));
      const sdk = inputs.filter((f) => f.includes('@modelcontextprotocol/sdk/') && !f.includes('/client/'));
      expect(sdk.some((f) => f.endsWith('server/index.js'))).toBe(true);
      for (const file of sdk) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/process\.stdout/);
    },
  );

  reliance(
    'last-resort handlers swapped while serving',
    "an error nobody caught while serving is logged and the server goes on; the process's own handlers are back after, in order",
    async () => {
      const before = { exception: process.listeners('uncaughtException'), rejection: process.listeners('unhandledRejection') };
      const { out, err } = await serving(async () => {
        void Promise.reject(new Error('nobody caught this'));
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      expect(err).toContain('wsctl mcp: unexpected error (the server goes on): nobody caught this');
      expect(out).toContain('"id":2');
      expect(process.listeners('uncaughtException')).toEqual(before.exception);
      expect(process.listeners('unhandledRejection')).toEqual(before.rejection);
    },
  );
});
