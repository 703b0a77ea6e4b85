// Start-up stays small: `wsctl --version` and `--help` load commander and the command tree,
// nothing else (see BENCHMARKS.md for the timings this protects).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tricksOn } from '../src/tricks/registry.js';
import { BIN, ROOT, runBin, startSandbox, tempDir } from './helpers.js';

// Node 20 runs a command from one CommonJS file with a code cache (a speed trick), where loading
// cannot be traced module by module: these tests trace the ES modules every Node loads without it.
const ES_MODULES = { NODE_DISABLE_COMPILE_CACHE: '1' };

const HEAVY = ['undici', 'zod', 'ora', 'form-data', 'chalk', 'keyring', 'jq-wasm', 'chunks/jq-', 'chunks/follow-', 'chunks/mcp-server-'];

describe('start-up', () => {
  it('the entry bundle holds commander and our command tree only', () => {
    const inputs: string[] = JSON.parse(readFileSync(join(ROOT, 'build', 'entry-inputs.json'), 'utf8'));
    const packages = new Set(inputs.filter((i) => i.includes('node_modules/')).map((i) => i.split('node_modules/')[1]!.split('/')[0]));
    expect([...packages]).toEqual(['commander']);
    expect(inputs.filter((i) => i.startsWith('src/')).sort()).toEqual([
      'src/cli/docs.ts',
      'src/cli/door.ts',
      'src/cli/process.ts',
      'src/cli/program.ts',
      'src/cli/report.ts',
      'src/cli/run.ts',
      'src/common/argv.ts',
      'src/common/declared.ts',
      'src/common/globals.ts',
      'src/main.ts',
      'src/terminal/words.ts',
      'src/tricks/switch.ts',
    ]);
  });

  it.each([['--version'], ['--help'], ['keys', '--help']])(
    '`wsctl %s` loads none of undici, zod, ora, form-data, chalk, the keyring, jq or the follow loop',
    async (...args) => {
      const r = await runBin(args, { env: { NODE_DEBUG: 'esm,module' } });
      expect(r.code).toBe(0);
      const loaded = r.stderr.split('\n').filter((l) => /Storing file:|Module._load REQUEST|load "?\//.test(l));
      for (const name of HEAVY)
        expect(
          loaded.filter((l) => l.includes(name)),
          name,
        ).toEqual([]);
      if (args[0] !== 'keys') expect(loaded.filter((l) => l.includes('dist/lazy/'))).toEqual([]);
      // The trace does see lazy loads: a noun's help loads the commands module.
      else expect(loaded.some((l) => l.includes('dist/lazy/cli/loaded.js'))).toBe(true);
    },
  );

  it('a request with WSCTL_API_KEY loads neither the keyring module, nor the jq engine, nor the follow loop', async () => {
    const sb = await startSandbox();
    const r = await runBin(['keys', 'list'], { env: { ...sb.env, ...ES_MODULES, NODE_DEBUG: 'esm,module' } });
    expect(r.code).toBe(0);
    const loaded = r.stderr.split('\n').filter((l) => /Storing file:|Module._load REQUEST|load "?\//.test(l));
    expect(
      loaded.some((l) => l.includes('dist/lazy/chunks/')),
      'the trace sees what loads',
    ).toBe(true);
    for (const name of ['keyring', 'jq-wasm', 'chunks/jq-', 'chunks/dist-', 'chunks/follow-', 'chunks/mcp-server-'])
      expect(
        loaded.filter((l) => l.includes(name)),
        name,
      ).toEqual([]);
  });

  it('the MCP SDK is bundled into a chunk of its own that only `wsctl mcp` loads, without express or hono', async () => {
    const chunks = readdirSync(join(ROOT, 'dist', 'lazy', 'chunks'));
    const server = chunks.filter((c) => c.startsWith('mcp-server-'));
    expect(server).toHaveLength(1);
    const code = readFileSync(join(ROOT, 'dist', 'lazy', 'chunks', server[0]!), 'utf8');
    // The SDK's server core (wsctl reads stdin with a line transport of its own).
    const marker = 'Client does not support form elicitation.';
    expect(code).toContain(marker);
    // No chunk other than the server's holds the SDK, and none imports the SDK's HTTP servers.
    for (const chunk of [...chunks.map((c) => join('lazy', 'chunks', c)), join('lazy', 'cli', 'loaded.js'), 'wsctl.cjs']) {
      if (!chunk.endsWith('js')) continue;
      const text = readFileSync(join(ROOT, 'dist', chunk), 'utf8');
      if (!chunk.includes('mcp-server-')) expect(text.includes(marker), chunk).toBe(false);
      expect(text, chunk).not.toMatch(/(?:require\(|from\s*|import\(\s*)["'](?:express|hono|@hono\/[^"']*|express-rate-limit|cors)["']/);
      expect(text, chunk).not.toMatch(
        /express\.Router|class Hono\b|new Hono\b|function createApplication\(|createMcpExpressApp|StreamableHTTPServerTransport/,
      );
    }
    // wsctl mcp loads it, and no other command does (above).
    const r = await runBin(['mcp', '--sandbox'], {
      env: { ...ES_MODULES, NODE_DEBUG: 'esm,module', WSCTL_CONFIG_DIR: tempDir() },
      stdin: '',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').some((l) => l.includes('chunks/mcp-server-'))).toBe(true);
  });

  it("`wsctl --version` alone is answered by the launcher: the bundle is not even loaded, and the answer is commander's", async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    for (const flag of ['--version', '-V']) {
      const r = await runBin([flag], { env: { NODE_DEBUG: 'module' } });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
      // A speed trick: with WSCTL_NO_TRICKS=1 commander answers (test/tricks.test.ts).
      if (tricksOn) expect(r.stderr).not.toContain('wsctl.cjs');
    }
    // The same words when commander answers (another flag given).
    expect((await runBin(['--version', '--no-color'])).stdout).toBe(`${version}\n`);
    const full = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" --version > /dev/full`], { encoding: 'utf8' });
    expect([full.status, full.stderr]).toEqual([1, 'Error: Cannot write the output: ENOSPC.\n']);
  });

  it("a request loads neither Node's own copy of undici nor WebCrypto (the ES module facades of node:http and node:crypto do)", async () => {
    const sb = await startSandbox();
    const dir = tempDir();
    const hook = join(dir, 'loaded.cjs');
    writeFileSync(hook, "process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(process.moduleLoadList) + '\\n'));");
    const r = await runBin(['keys', 'list'], { env: { ...sb.env, NODE_OPTIONS: `--require ${hook}` } });
    expect(r.code, r.stderr).toBe(0);
    const loaded: string[] = JSON.parse(/LOADED (.*)/.exec(r.stderr)?.[1] ?? 'null');
    // A module a request surely loads (undici's sockets), which `node -e 0` does not.
    expect(loaded, 'the list sees what loads').toContain('NativeModule net');
    // undici's index, which WSCTL_NO_TRICKS=1 loads (test/tricks.test.ts), loads Node's own.
    if (tricksOn) expect(loaded.filter((m) => m.includes('deps/undici') || m.includes('crypto/webcrypto'))).toEqual([]);
    // Modules only some paths need load where first called (src/common/builtins.ts): HOME is set here.
    // (With WSCTL_NO_TRICKS=1 the program is ES modules, whose loader loads os itself on Node 24.)
    if (tricksOn) expect(loaded.filter((m) => m === 'NativeModule os' || m.startsWith('NativeModule timers/promises'))).toEqual([]);
    // Stdin /dev/null (as a scheduler or `< /dev/null` gives it), never read: asking whether it is a
    // terminal makes no stream of it, which would load fs streams, fs/promises and readline.
    // (spawned, not spawnSync: the sandbox answers from this process)
    const stdinHook = join(dir, 'stdin.cjs');
    writeFileSync(
      stdinHook,
      "const d = Object.getOwnPropertyDescriptor(process, 'stdin'); Object.defineProperty(process, 'stdin', { ...d, get() { process.stderr.write('\\nSTDIN MADE\\n'); return d.get.call(process); } });",
    );
    const child = spawn(process.execPath, [BIN, 'keys', 'list', '--json'], {
      env: { PATH: process.env.PATH, HOME: dir, ...sb.env, NODE_OPTIONS: `--require ${hook} --require ${stdinHook}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = { status: await new Promise((resolve) => child.on('close', resolve)), stderr };
    expect(closed.status, closed.stderr).toBe(0);
    expect(closed.stderr).not.toContain('STDIN MADE');
    const withNull: string[] = JSON.parse(/LOADED (.*)/.exec(closed.stderr)?.[1] ?? 'null');
    // (With the switch, undici's whole index loads them: its mocks read files.)
    if (tricksOn) expect(withNull.filter((m) => /internal\/fs\/streams|readline|internal\/fs\/promises/.test(m))).toEqual([]);
  });

  it('only --sandbox and the sandbox commands load the sandbox (its server, routes and seed)', async () => {
    const lazy = join(ROOT, 'dist/lazy');
    const files = [...readdirSync(lazy).filter((f) => f.endsWith('.js')), ...readdirSync(join(lazy, 'chunks')).map((f) => `chunks/${f}`)];
    const server = files.filter((f) => readFileSync(join(lazy, f), 'utf8').includes('Unknown sandbox control route'));
    expect(server).toHaveLength(1);
    const loads = async (args: string[], env: Record<string, string>) => {
      const r = await runBin(args, { env: { ...env, ...ES_MODULES, NODE_DEBUG: 'esm' } });
      expect(r.code, r.stderr.slice(-300)).toBe(0);
      return r.stderr.includes(`dist/lazy/${server[0]}`);
    };
    const sb = await startSandbox();
    const config = { WSCTL_CONFIG_DIR: tempDir() };
    expect(await loads(['keys', 'list'], sb.env)).toBe(false);
    expect(await loads(['convo', 'show', 'conv_demo'], sb.env)).toBe(false);
    expect(await loads(['sandbox', 'reset'], config)).toBe(false);
    expect(await loads(['--sandbox', 'keys', 'list'], config)).toBe(true);
  });

  it('auth login --insecure-storage never loads the keyring module', async () => {
    const r = await runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--base-url', 'http://127.0.0.1:9'], {
      env: { NODE_DEBUG: 'esm,module', WSCTL_CONFIG_DIR: tempDir() },
      stdin: 'wsk_startup_test_key\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => /Storing file:|Module._load REQUEST|load "?\//.test(l) && l.includes('keyring'))).toEqual([]);
  });
});
