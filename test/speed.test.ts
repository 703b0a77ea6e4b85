// The speed tricks and the reliances (src/tricks/registry.ts: STYLE.md 14), each checked against
// the built program, the pinned dependency or the running Node: these tests fail loudly, naming the
// version, when a pinned dependency or Node moves under one. wsctl's own code cache (src/boot/) is
// checked here too.
import nodeAssert from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import Module from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { cacheName } from '../src/boot/code-cache.js';
import { cacheKind } from '../src/boot/index.js';
import { LIFTOFF_ONLY, STEADY_YOUNG_GENERATION, v8FlagsFor } from '../src/boot/flags.js';
import { declaredVerbs } from '../src/cli/program.js';
import { serve } from '../src/mcp/mcp-server.js';
import { ConversationDetail, Message, responseSchemas } from '../src/schemas.js';
import { lazyAssert, lazyChildProcess, lazyHttp } from '../src/tricks/lazy-builtins.js';
import { collectorEvery, PINNED, quickCheck, RELIANCES, TRICKS } from '../src/tricks/registry.js';
import { BIN, ROOT, run, runBin, startConnectProxy, startSandbox, tempDir, type TestSandbox } from './helpers.js';
import { serverContext } from './mcp/harness.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

// Each trick in the registry has tests named after it: `trick(name, …)`.
const tested = new Set<string>();
function trick(name: string, title: string, fn: () => unknown, timeoutMs?: number) {
  tested.add(name);
  it(`${name}: ${title}`, fn, timeoutMs);
}

// What a run loaded: Node's modules, the files it required.
const hookDir = tempDir();
const HOOK = join(hookDir, 'loaded.cjs');
writeFileSync(
  HOOK,
  `let wasm = false;
const compile = WebAssembly.Module;
// jq's WebAssembly is near 1 MB; undici's llhttp, which every request compiles, far less.
WebAssembly.Module = function (bytes) { wasm ||= bytes.byteLength > 500000; return new compile(bytes); };
process.on('exit', () => require('node:fs').writeSync(2, '\\nLOADED ' + JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache), engine: globalThis.__wsctlJq !== undefined, wasm }) + '\\n'));`,
);

interface Loaded {
  /** Whether the main thread loaded the jq engine (its hooks, globalThis.__wsctlJq, are set), and compiled WebAssembly. */
  engine: boolean;
  wasm: boolean;
  code: number;
  stdout: string;
  stderr: string;
  builtins: string[];
  files: string[];
}

async function loaded(args: string[], env: Record<string, string | undefined>, stdin?: string): Promise<Loaded> {
  const r = await runBin(args, { env: { ...env, NODE_OPTIONS: `--require ${HOOK}` }, stdin });
  const at = r.stderr.lastIndexOf('\nLOADED ');
  expect(at, r.stderr).toBeGreaterThanOrEqual(0);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr.slice(0, at), ...JSON.parse(r.stderr.slice(at + 8)) };
}

const NODE_MAJOR = Number.parseInt(process.versions.node, 10);

// The build's id, as the boot file names the caches with it, and the files the boot file runs from them.
const buildId = /"([0-9a-f]{16})"/.exec(readFileSync(join(ROOT, 'dist', 'boot.cjs'), 'latin1'))?.[1] as string;
const program = join(ROOT, 'dist', 'wsctl.cjs');
const complete = join(ROOT, 'dist', 'complete.cjs');
/** The TAB answerer's cache that runs without the V8 flags take (on Node 20 every run has Liftoff only). */
const completeCache = cacheName(complete, buildId, NODE_MAJOR < 22 ? 'liftoff' : '');

const builtin = (r: Loaded, name: string) => r.builtins.includes(`NativeModule ${name}`);

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});

describe('the registry', () => {
  it('names where each trick is and what it buys, measured', () => {
    for (const t of TRICKS) {
      expect(t.where, t.name).toMatch(/\w/);
      expect(t.buys, t.name).toMatch(/\d/);
    }
  });

  it('every trick has tests here, named after it', () => {
    expect(TRICKS.map((t) => t.name).filter((n) => !tested.has(n))).toEqual([]);
    expect([...tested].filter((n) => !TRICKS.some((t) => t.name === n))).toEqual([]);
  });

  // A dependency's patch release takes no change outside package.json and the lock file, except for
  // the packages a trick or a reliance leans on: their tests then fail here, naming the version.
  it.each(Object.entries(PINNED))(
    '%s is pinned, and installed at the version the tricks and reliances were checked with',
    (name, { checked, why }) => {
      const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
      const declared = pkg.devDependencies[name] ?? pkg.dependencies[name];
      expect(declared, `${name} must be pinned to an exact version in package.json (${why})`).toMatch(/^\d+\.\d+\.\d+(-[\w.-]+)?$/);
      expect(
        [installed, declared],
        `${name} ${installed} is installed (package.json: ${declared}); the tricks and reliances were checked with ${checked}: re-check ${why}, then set PINNED in src/tricks/registry.ts`,
      ).toEqual([checked, checked]);
    },
  );

  it('only the packages a trick or a reliance leans on are pinned exactly', () => {
    // Of the packages bundled into dist/ (tools such as Biome are pinned for reasons of their own).
    const inputs = Object.values(JSON.parse(readFileSync(join(ROOT, 'build/inputs.json'), 'utf8')) as Record<string, string[]>).flat();
    const exact = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })
      .filter(([name, range]) => /^\d/.test(range as string) && inputs.some((i) => i.includes(`node_modules/${name}/`)))
      .map(([name]) => name);
    expect(exact.sort()).toEqual(Object.keys(PINNED).sort());
  });
});

describe("wsctl's code cache of the program (src/boot/code-cache.ts)", () => {
  const cacheFiles = (home: string) => {
    try {
      return readdirSync(join(home, 'wsctl')).filter((n) => n.endsWith('.v8'));
    } catch {
      return [];
    }
  };

  trick(
    'code cache',
    'the first command makes one of the program and one of the TAB answerer at exit, the next takes them and leaves them as they are; one file per Node, build and noun',
    async () => {
      expect(buildId).toMatch(/^[0-9a-f]{16}$/);
      const cache = tempDir();
      const env = { ...sb.env, XDG_CACHE_HOME: cache };
      const first = await runBin(['keys', 'list', '--json'], { env });
      expect(first.code, first.stderr).toBe(0);
      const made = cacheFiles(cache);
      expect(made.sort()).toEqual([completeCache, cacheName(program, buildId, 'keys')].sort());
      const at = made.map((name) => statSync(join(cache, 'wsctl', name)).mtimeMs);
      const second = await runBin(['keys', 'list', '--json'], { env });
      expect(second.stdout).toBe(first.stdout);
      expect(cacheFiles(cache).sort()).toEqual(made);
      expect(made.map((name) => statSync(join(cache, 'wsctl', name)).mtimeMs)).toEqual(at);
    },
  );

  trick('code cache', "each noun and the MCP server have one of their own, which another's run leaves as it is", async () => {
    const cache = tempDir();
    const env = { ...sb.env, XDG_CACHE_HOME: cache };
    const served = await runBin(['mcp'], { env, stdin: '' });
    expect([served.code, served.stderr]).toEqual([0, '']);
    const server = cacheName(program, buildId, 'mcp-server');
    expect(cacheFiles(cache).sort()).toEqual([completeCache, server].sort());
    const at = statSync(join(cache, 'wsctl', server)).mtimeMs;
    expect((await runBin(['--profile', 'default', 'keys', 'list'], { env })).code).toBe(0);
    // A verb of `wsctl mcp` is a command; an unknown word is of the kind `other`, never a file name.
    expect((await runBin(['mcp', 'config'], { env: { XDG_CACHE_HOME: cache, WSCTL_CONFIG_DIR: tempDir() } })).code).toBe(0);
    expect((await runBin(['../../x'], { env })).code).toBe(2);
    // A failed run makes none: its kind's next run that ends well does.
    expect(cacheFiles(cache).some((name) => name.startsWith('wsctl-other-'))).toBe(false);
    const failed = tempDir();
    expect((await runBin(['keys', 'get'], { env: { ...env, XDG_CACHE_HOME: failed } })).code).toBe(2);
    expect(cacheFiles(failed)).toEqual([]);
    expect((await runBin(['help', 'environment'], { env })).code).toBe(0);
    expect(cacheFiles(cache).sort()).toEqual(
      [
        completeCache,
        server,
        cacheName(program, buildId, 'keys'),
        cacheName(program, buildId, 'mcp'),
        cacheName(program, buildId, 'other'),
      ].sort(),
    );
    expect(statSync(join(cache, 'wsctl', server)).mtimeMs).toBe(at);
    expect(cacheKind(['--profile', 'mcp', 'mcp', '--read-only'])).toBe('mcp-server');
    // A filter the jq engine runs has a kind of its own; a path, read without the engine, does not.
    expect(cacheKind(['--jq', 'map(.id)', 'keys', 'list'])).toBe('keys-jq');
    expect(cacheKind(['keys', 'list', '--jq=.keys | length'])).toBe('keys-jq');
    expect(cacheKind(['keys', 'list', '--jq', '.keys[].id'])).toBe('keys');
    expect(cacheKind(['keys', 'list', '--jq=.'])).toBe('keys');
    expect(cacheKind(['keys', 'list', '--jq', '.keys[].id', '--jq', '.[]?'])).toBe('keys-jq');
    expect(cacheKind(['keys', 'list', '--', '--jq', 'map(.id)'])).toBe('keys');
    expect(cacheKind(['constructor'])).toBe('other');
  });

  it('one V8 cannot take (another build of the same length, garbage) is made again; a stale build goes, kind by kind; older rounds’ files go', async () => {
    const cache = tempDir();
    const env = { ...sb.env, XDG_CACHE_HOME: cache };
    expect((await runBin(['keys', 'list'], { env })).code).toBe(0);
    const name = cacheName(program, buildId, 'keys');
    expect(cacheFiles(cache)).toContain(name);
    writeFileSync(join(cache, 'wsctl', name), 'not V8 code');
    const stale = [cacheName(program, '0123456789abcdef', 'keys'), cacheName(program, '0123456789abcdef', 'mcp-server')];
    for (const file of stale) writeFileSync(join(cache, 'wsctl', file), 'an older build');
    writeFileSync(join(cache, 'wsctl', `code-cache-${process.version}-x64-00000000`), 'round four');
    writeFileSync(
      join(cache, 'wsctl', `program-${process.version}-x64-0123456789abcdef.v8`),
      'round five, before the TAB answerer had one',
    );
    const r = await runBin(['keys', 'list', '--json'], { env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    // Another kind's cache of another build waits for a run of its kind.
    expect(
      readdirSync(join(cache, 'wsctl'))
        .filter((n) => n.includes('code-cache') || n.endsWith('.v8'))
        .sort(),
    ).toEqual([completeCache, name, stale[1]].sort());
    expect(readFileSync(join(cache, 'wsctl', name)).length).toBeGreaterThan(1000);
  });

  it('a cache folder that cannot be made or written costs time, never the command', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'file'), '');
    const locked = tempDir();
    chmodSync(locked, 0o500);
    for (const cache of [join(home, 'file'), '/proc/wsctl-cannot', locked]) {
      const r = await runBin(['keys', 'list', '--json'], { env: { ...sb.env, XDG_CACHE_HOME: cache } });
      expect([r.code, r.stderr], cache).toEqual([0, '']);
    }
  });

  it('NODE_DISABLE_COMPILE_CACHE turns it off with Node’s', async () => {
    const cache = tempDir();
    const r = await runBin(['keys', 'list', '--json'], { env: { ...sb.env, XDG_CACHE_HOME: cache, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(r.code).toBe(0);
    expect(cacheFiles(cache)).toEqual([]);
  });

  it('a broken install (no program, a file cut short, a folder in its place) is one line naming npm run build, from the launcher or the boot file', async () => {
    const program = readFileSync(join(ROOT, 'dist', 'wsctl.cjs'), 'latin1');
    const installs: [string[], (dist: string) => void][] = [
      [[], () => {}],
      [['boot.cjs'], () => {}],
      [['boot.cjs', 'complete.cjs'], (dist) => writeFileSync(join(dist, 'wsctl.cjs'), program.slice(0, program.length >> 1))],
      [['boot.cjs', 'complete.cjs'], (dist) => mkdirSync(join(dist, 'wsctl.cjs'))],
    ];
    for (const [files, breakIt] of installs) {
      const root = tempDir();
      cpSync(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
      mkdirSync(join(root, 'dist'));
      for (const f of files) cpSync(join(ROOT, 'dist', f), join(root, 'dist', f));
      breakIt(join(root, 'dist'));
      const r = spawnSync(process.execPath, [join(root, 'bin', 'wsctl'), 'keys', 'list'], {
        encoding: 'utf8',
        env: { ...process.env, XDG_CACHE_HOME: tempDir() },
      });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^Error: wsctl is not built \(\w+\)\. Run `npm run build` in its folder\.\n$/);
    }
  });
});

describe('answers in the boot file', () => {
  trick(
    'answers in the boot file',
    '`--version`, and the root help at 80 columns in commander’s words, without compiling the program',
    async () => {
      const version = await loaded(['--version'], {});
      expect(version.stdout).toBe(`${pkg.version}\n`);
      // The text the build wrote is what commander renders from the source now.
      const commander = (await run(['--help'])).stdout;
      expect(readFileSync(join(ROOT, 'dist', 'help-80.txt'), 'utf8')).toBe(commander);
      for (const args of [[], ['--help'], ['-h']]) {
        for (const env of [{}, { COLUMNS: '80' }]) {
          const r = await loaded(args, env);
          expect([r.code, r.stderr, r.stdout], args.join(' ')).toEqual([0, '', commander]);
          expect(builtin(r, 'vm'), 'the program is compiled by node:vm').toBe(false);
        }
      }
      // Another width is commander's to render.
      const other = await loaded(['--help'], { COLUMNS: '60' });
      expect(builtin(other, 'vm')).toBe(true);
      expect(other.stdout).toBe((await run(['--help'], { env: { COLUMNS: '60' } })).stdout);
      const full = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" --help > /dev/full`], { encoding: 'utf8' });
      expect([full.status, full.stderr]).toEqual([1, 'Error: Cannot write the output: ENOSPC.\n']);
    },
  );

  trick(
    'answers in the boot file',
    "`wsctl mcp`'s `initialize` is answered before the program is compiled (test/mcp/early.test.ts: the same answer as the SDK's)",
    async () => {
      const input = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`;
      // runBin's test variable is one the boot file leaves to the program (a start it cannot vouch for).
      const r = await loaded(['mcp'], { WSCTL_RETRY_BASE_MS: undefined, WSCTL_BASE_URL: 'http://127.0.0.1:9' }, input);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ id: 0, result: { serverInfo: { name: 'wsctl' } } });
      const inputs = JSON.parse(readFileSync(join(ROOT, 'build', 'inputs.json'), 'utf8'));
      expect(inputs['boot.cjs'].filter((i: string) => i.includes('node_modules'))).toEqual([]);
      expect(readFileSync(join(ROOT, 'dist', 'boot.cjs'), 'utf8')).not.toMatch(/require\("(node:)?tty"\)/);
    },
  );
});

describe('the tricks', () => {
  trick(
    "stand-ins for dependencies' Node modules",
    'a request loads none of node:http2, tls, node:http, node:assert and node:child_process; a proxied request (all of undici) works',
    async () => {
      const r = await loaded(['keys', 'list'], sb.env);
      expect(r.code, r.stderr).toBe(0);
      const undici = JSON.parse(readFileSync(join(ROOT, 'node_modules/undici/package.json'), 'utf8')).version;
      expect(
        ['http2', 'tls', 'http', 'assert', 'child_process'].filter((name) => builtin(r, name)),
        `undici ${undici} or commander ${JSON.parse(readFileSync(join(ROOT, 'node_modules/commander/package.json'), 'utf8')).version} uses more of these as it loads or sends: re-check src/tricks/lazy-builtins.ts`,
      ).toEqual([]);
      const proxy = await startConnectProxy();
      const proxied = await runBin(['keys', 'list', '--json'], { env: { ...sb.env, HTTP_PROXY: proxy.url } });
      expect([proxied.code, proxied.stderr]).toEqual([0, '']);
      expect(JSON.parse(proxied.stdout).keys.length).toBeGreaterThan(0);
      expect(proxy.tunnels).toEqual([new URL(sb.url).host]);
    },
  );

  trick("stand-ins for dependencies' Node modules", 'undici and commander get them, nothing else does', () => {
    const program = readFileSync(join(ROOT, 'dist', 'wsctl.cjs'), 'latin1');
    expect(program).toContain('HTTP/2 is not enabled in wsctl');
    expect(program).not.toMatch(/require\("(node:)?(http2|assert)"\)/);
    // wsctl's own modules start processes (the pager, the credential store) with the real module.
    expect(program).toMatch(/require\("node:child_process"\)/);
  });

  trick(
    "stand-ins for dependencies' Node modules",
    'node:assert and node:child_process, loaded when first used, do what the real ones do',
    () => {
      expect(lazyAssert(1)).toBeUndefined();
      expect(lazyAssert(true, 'never said')).toBeUndefined();
      expect(() => lazyAssert(0, 'said')).toThrow(expect.objectContaining({ name: 'AssertionError', message: 'said' }));
      expect(() => lazyAssert(false)).toThrow(nodeAssert.AssertionError);
      expect(lazyAssert.strictEqual).toBe(nodeAssert.strictEqual);
      expect(() => lazyAssert.ok(null)).toThrow(nodeAssert.AssertionError);
      expect(lazyChildProcess.spawnSync(process.execPath, ['-e', 'process.exit(3)']).status).toBe(3);
      expect('spawn' in lazyChildProcess).toBe(true);
      expect(Object.keys(lazyChildProcess).sort()).toEqual(Object.keys(process.getBuiltinModule('node:child_process')).sort());
    },
  );

  trick(
    "stand-ins for dependencies' Node modules",
    "node:http answers undici's two reads as node:http would (Node's header limit, set or not), and anything else from node:http",
    async () => {
      const http = process.getBuiltinModule('node:http');
      expect(lazyHttp.maxHeaderSize).toBe(http.maxHeaderSize);
      expect(lazyHttp.STATUS_CODES).toBe(http.STATUS_CODES);
      expect(lazyHttp.Agent).toBe(http.Agent);
      expect(new lazyHttp.IncomingMessage(new PassThrough() as never)).not.toBeInstanceOf(http.IncomingMessage);
      // A limit set for Node is undici's: the sandbox's headers are longer than 80 bytes.
      for (const env of [{ NODE_OPTIONS: '--max-http-header-size=80' }, { NODE_OPTIONS: '--max_http_header_size=80' }]) {
        const r = await runBin(['keys', 'list', '--json'], { env: { ...sb.env, ...env } });
        expect([r.code, JSON.parse(r.stderr).error.message], env.NODE_OPTIONS).toEqual([3, expect.stringMatching(/Headers Overflow/)]);
      }
    },
  );

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

  trick(
    'Liftoff only',
    'no WebAssembly function is compiled by TurboFan: in a run of the jq engine (its WebAssembly, undici’s, through a proxy), nor in a request’s without the flags on Node 22+ (on Node 20 with them)',
    async () => {
      const proxy = await startConnectProxy();
      for (const [args, env] of [
        [['keys', 'list', '--jq', '.keys | map(.id)'], {}],
        [['keys', 'list', '--jq', '.keys | map(.id)'], { HTTP_PROXY: proxy.url }],
        [['keys', 'list'], {}],
        [['keys', 'list'], { HTTP_PROXY: proxy.url }],
      ] as const) {
        // Not spawnSync: the sandbox and the proxy answer from this process.
        const child = spawn(process.execPath, ['--trace-wasm-compilation-times', BIN, ...args], {
          env: { PATH: process.env.PATH, HOME: tempDir(), ...sb.env, ...env },
        });
        const r = { stdout: '', stderr: '', status: 0 as number | null };
        child.stdout.on('data', (c) => (r.stdout += c));
        child.stderr.on('data', (c) => (r.stderr += c));
        r.status = await new Promise((resolve) => child.on('close', resolve));
        expect(r.status, r.stderr).toBe(0);
        const out = r.stdout + r.stderr;
        expect(out).toMatch(/using Liftoff/);
        const flagged = v8FlagsFor(cacheKind([...args])).flags.length > 0;
        // Without the flags V8 may still compile a call's wrapper with TurboFan, never a function.
        // (A tier-up still under way at the exit prints nothing: a busy machine can hide one, never invent one.)
        expect(out, args.join(' ')).not.toMatch(flagged ? /using TurboFan/ : /Compiled function \S+ using TurboFan/);
      }
    },
  );

  it('each kind of run gets its V8 flags, and V8 takes each cache only under the flags of the runs that take it: runs of every kind in turn make no cache again', async () => {
    const cache = tempDir();
    const env = { ...sb.env, XDG_CACHE_HOME: cache };
    const LIFTOFF_STEADY = [...LIFTOFF_ONLY, ...STEADY_YOUNG_GENERATION];
    // [argv, its kind, its flags' name on Node 22+, on Node 20]
    const runs = [
      [['keys', 'list', '--json'], 'keys', '', 'liftoff'],
      [['keys', 'list', '--jq', '.keys[].id'], 'keys', '', 'liftoff'],
      [['keys', 'list', '--jq', '.keys | map(.id)'], 'keys-jq', 'liftoff', 'liftoff'],
      [['convo', 'show', 'conv_demo'], 'convo', 'liftoff-steady', 'liftoff-steady'],
      [['mcp'], 'mcp-server', '', 'liftoff'],
    ] as const;
    const FLAG_SETS: Record<string, readonly string[]> = { '': [], liftoff: LIFTOFF_ONLY, 'liftoff-steady': LIFTOFF_STEADY };
    const flagsNamed = (name: string) => FLAG_SETS[name] ?? [];
    for (const [args, kind, on22, on20] of runs) {
      expect(cacheKind([...args])).toBe(kind);
      expect([v8FlagsFor(kind, 22).name, v8FlagsFor(kind, 20).name]).toEqual([on22, on20]);
      expect(v8FlagsFor(kind, 22).flags).toEqual(flagsNamed(on22));
      const r = await runBin([...args], { env, stdin: '' });
      expect([r.code, r.stderr], args.join(' ')).toEqual([0, '']);
    }
    // V8's verdict on a cache, read in a child with the flags set: the set it was made under, of the three.
    const madeUnder = (file: string, cacheFile: string) =>
      ['', 'liftoff', 'liftoff-steady'].filter(
        (name) =>
          spawnSync(
            process.execPath,
            [
              '-e',
              `const [file, cached, ...flags] = process.argv.slice(1);
              for (const flag of flags) require('node:v8').setFlagsFromString(flag);
              const fs = require('node:fs');
              const script = new (require('node:vm').Script)(require('node:module').wrap(fs.readFileSync(file, 'latin1')), { filename: file, cachedData: fs.readFileSync(cached) });
              process.stdout.write(String(!script.cachedDataRejected));`,
              '--',
              file,
              join(cache, 'wsctl', cacheFile),
              ...flagsNamed(name),
            ],
            { encoding: 'utf8' },
          ).stdout === 'true',
      );
    for (const [args, kind, on22, on20] of runs) {
      const name = NODE_MAJOR < 22 ? on20 : on22;
      expect([args.join(' '), madeUnder(program, cacheName(program, buildId, kind))]).toEqual([args.join(' '), [name]]);
      // The TAB answerer's file, which every run takes, has a cache for each set of flags.
      expect(madeUnder(complete, cacheName(complete, buildId, name))).toEqual([name]);
    }
    // The jq engine's file, run on the main thread by the filter's run.
    const jqWorker = join(ROOT, 'dist', 'jq-worker.cjs');
    expect(madeUnder(jqWorker, cacheName(jqWorker, buildId, 'liftoff'))).toEqual(['liftoff']);
    const files = () =>
      Object.fromEntries(
        readdirSync(join(cache, 'wsctl'))
          .filter((f) => f.endsWith('.v8'))
          .map((f) => [f, statSync(join(cache, 'wsctl', f)).mtimeMs]),
      );
    // The path's run read the document without the engine: no cache of the engine's file without flags.
    if (NODE_MAJOR >= 22) expect(files()).not.toHaveProperty([cacheName(jqWorker, buildId)]);
    const before = files();
    for (const [args] of runs) expect((await runBin([...args], { env, stdin: '' })).code).toBe(0);
    expect(files()).toEqual(before);
  });

  trick('Liftoff only', 'each flag exists on this Node (set, an unknown one would warn on stderr)', () => {
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    const all = [...LIFTOFF_ONLY, ...STEADY_YOUNG_GENERATION];
    for (const flag of all) expect(options, flag).toContain(flag.replace(/^--(no-)?/, '--').split('=')[0]);
    const r = spawnSync(
      process.execPath,
      ['-e', 'for (const f of process.argv.slice(1)) require("node:v8").setFlagsFromString(f)', '--', ...all],
      { encoding: 'utf8' },
    );
    expect([r.status, r.stderr]).toEqual([0, '']);
  });

  trick('steady young generation', 'the flag keeps the new space at its start size when set at run time', () => {
    const [flag] = STEADY_YOUNG_GENERATION;
    expect(flag).toMatch(/^--semi-space-growth-factor=/);
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

  trick('collections by what a transcript read', 'a full collection each time the bytes read pass the bound, none before', async () => {
    const majors: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) majors.push((entry as unknown as { detail: { kind: number } }).detail.kind);
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      const collect = collectorEvery(1 << 20);
      collect((1 << 20) - 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = majors.filter((kind) => kind === constants.NODE_PERFORMANCE_GC_MAJOR).length;
      collect(1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(majors.filter((kind) => kind === constants.NODE_PERFORMANCE_GC_MAJOR).length).toBeGreaterThan(before);
    } finally {
      observer.disconnect();
    }
  });

  trick(
    'jq paths without the engine',
    'a plain path is answered without loading the engine; a filter that is not one loads it',
    async () => {
      const path = await loaded(['keys', 'list', '--jq', '.keys[].id'], sb.env);
      expect(path.code, path.stderr).toBe(0);
      expect(path.stdout).toMatch(/^key_/);
      // The engine is not loaded: its file is not read, its hooks are not set and its WebAssembly is not compiled.
      expect([path.engine, path.wasm, builtin(path, 'worker_threads')]).toEqual([false, false, false]);
      expect(path.files.filter((f) => f.endsWith('jq-worker.cjs'))).toEqual([]);
      const engine = await loaded(['keys', 'list', '--jq', '[.keys[].id] | length'], sb.env);
      expect(engine.code, engine.stderr).toBe(0);
      expect([engine.engine, engine.wasm]).toEqual([true, true]);
      expect(engine.files.filter((f) => f.endsWith('jq-worker.cjs'))).toHaveLength(1);
    },
  );

  trick('jq on the main thread', "a small document's filter runs on the main thread: no worker thread is started", async () => {
    const r = await runBin(['keys', 'list', '--jq', '[.keys[].id] | length'], { env: { ...sb.env, NODE_DEBUG: 'worker' } });
    expect(r.code, r.stderr).toBe(0);
    expect(Number(r.stdout)).toBeGreaterThan(0);
    expect(r.stderr).not.toMatch(/instantiating Worker/i);
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
  tested.add('quickCheck');
  // Every response schema, and the parts the streamed transcript checks one by one.
  const schemas: [string, z.ZodMiniType][] = [
    ...Object.entries(responseSchemas).map(([name, schema]): [string, z.ZodMiniType] => [name, schema()]),
    ['Message', Message()],
    ['ConversationDetail', ConversationDetail()],
    ['Conversation.messages', responseSchemas.Conversation().shape.messages],
  ];

  it.each(schemas)('%s: the same verdict as zod on random values', (_name, schema) => {
    const check = quickCheck(schema);
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
    for (const name of ['Conversation', 'ApiKeyList'] as const) expect(quickCheck(responseSchemas[name]()), name).toBeDefined();
    expect(quickCheck(Message())).toBeDefined();
    expect(quickCheck(z.object({ a: z.enum(['x', 'y']) }))).toBeUndefined();
    expect(quickCheck(z.string().check(z.minLength(2)))).toBeUndefined();
  });
});

// What a run loaded of Node's own modules, without loading any itself (the record hook requires node:v8).

// The reliances (src/tricks/registry.ts, RELIANCES): behaviour, not speed; each is checked against
// the pinned library, so that an upgrade that breaks one fails here.
const relied = new Set<string>();
function reliance(name: string, title: string, fn: () => unknown, timeoutMs?: number) {
  relied.add(name);
  it(`${name}: ${title}`, fn, timeoutMs);
}

describe("reliances on a library's internals or on the process's state", () => {
  it('each names where it is, why, and what breaks; none is a trick; each has tests below', () => {
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

  reliance('jq-wasm patched', 'the build applied it: a 1 GiB memory in dist/jq.wasm, and the hooks in the glue', () => {
    const built = join(ROOT, 'dist/jq.wasm');
    expect(jqWasm.memorySection(readFileSync(built), built).max).toBe(jqWasm.MAX_PAGES);
    expect(jqWasm.MAX_PAGES * 65536).toBe(2 ** 30);
    const worker = readFileSync(join(ROOT, 'dist/jq-worker.cjs'), 'utf8');
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
    const { ctx, stdout, stderr } = await serverContext(sb.env, {}, undefined, stdin);
    const answered = async (id: number) => {
      for (let i = 0; i < 400 && !stdout().includes(`"id":${id}`); i++) await new Promise((resolve) => setTimeout(resolve, 5));
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
    return { out: stdout(), err: stderr() };
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
      const inputs: string[] = Object.values(
        JSON.parse(readFileSync(join(ROOT, 'build/inputs.json'), 'utf8')) as Record<string, string[]>,
      ).flat();
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
