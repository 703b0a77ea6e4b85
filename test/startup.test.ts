// Start-up stays small (see BENCHMARKS.md for the timings this protects): the answers the boot file
// gives do not compile the program, and a command loads only the Node modules and files its path
// needs. The program is one file (dist/wsctl.cjs) whose lazily run parts Node cannot trace, so what
// is checked is what a process shows: Node's modules loaded, and the files required.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runBin, startSandbox, tempDir } from './helpers.js';

const hookDir = tempDir();
const HOOK = join(hookDir, 'loaded.cjs');
writeFileSync(
  HOOK,
  "process.on('exit', () => require('node:fs').writeSync(2, '\\nLOADED ' + JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) }) + '\\n'));",
);

interface Loaded {
  code: number;
  stdout: string;
  stderr: string;
  builtins: string[];
  files: string[];
}

async function loaded(args: string[], env: Record<string, string | undefined> = {}, stdin?: string): Promise<Loaded> {
  const r = await runBin(args, { env: { ...env, NODE_OPTIONS: `--require ${HOOK}` }, stdin });
  const at = r.stderr.lastIndexOf('\nLOADED ');
  expect(at, r.stderr).toBeGreaterThanOrEqual(0);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr.slice(0, at), ...JSON.parse(r.stderr.slice(at + 8)) };
}

const builtin = (r: Loaded, name: string) => r.builtins.includes(`NativeModule ${name}`);
const file = (r: Loaded, name: string) => r.files.some((f) => f.endsWith(name));

describe('start-up', () => {
  it('`--version`, the root help at 80 columns and a TAB do not compile the program', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    for (const args of [['--version'], ['-V'], ['--help'], ['-h'], [], ['__complete', 'profiles']]) {
      const r = await loaded(args);
      expect([r.code, r.stderr], args.join(' ')).toEqual([0, '']);
      if (args[0]?.startsWith('-V') || args[0] === '--version') expect(r.stdout).toBe(`${version}\n`);
      // node:vm compiles the program (src/boot/code-cache.ts); node:v8 sets its flags.
      expect([builtin(r, 'vm'), builtin(r, 'v8'), builtin(r, 'module')], args.join(' ')).toEqual([false, false, false]);
      // A pipe is no terminal by fstat: node:tty (5 ms to load) is not asked.
      expect(builtin(r, 'tty'), args.join(' ')).toBe(false);
      expect(file(r, 'complete.cjs'), args.join(' ')).toBe(args[0] === '__complete');
    }
  });

  it("a noun's help compiles the program and loads none of the HTTP client, the keyring or the jq engine", async () => {
    const r = await loaded(['keys', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: wsctl keys');
    expect(builtin(r, 'vm')).toBe(true);
    for (const name of ['http', 'worker_threads']) expect(builtin(r, name), name).toBe(false);
    expect(r.files.filter((f) => /keyring|jq-worker/.test(f))).toEqual([]);
  });

  it('a request with WSCTL_API_KEY loads neither the keyring module nor the jq engine, nor Node modules its path does not use', async () => {
    const sb = await startSandbox();
    const r = await loaded(['keys', 'list'], sb.env);
    expect(r.code, r.stderr).toBe(0);
    // A module a request surely loads (undici's sockets), which `node -e 0` does not.
    expect(builtin(r, 'net'), 'the list sees what loads').toBe(true);
    expect(r.files.filter((f) => /keyring|jq-worker/.test(f))).toEqual([]);
    expect(builtin(r, 'worker_threads')).toBe(false);
    // Node's own copy of undici and WebCrypto (the ES module facades of node:http and node:crypto load them).
    expect(r.builtins.filter((m) => m.includes('deps/undici') || m.includes('crypto/webcrypto'))).toEqual([]);
    // Modules only some paths need load where first called (src/common/builtins.ts): HOME is set here.
    expect(r.builtins.filter((m) => m === 'NativeModule os' || m.startsWith('NativeModule timers/promises'))).toEqual([]);
    // The spool names its file with node:crypto only when a transcript needs one.
    expect(builtin(r, 'crypto')).toBe(false);
  });

  it('stdin /dev/null, never read, is never made a stream (which loads fs streams, fs/promises and readline)', async () => {
    const sb = await startSandbox();
    const dir = tempDir();
    const stdinHook = join(dir, 'stdin.cjs');
    writeFileSync(
      stdinHook,
      "const d = Object.getOwnPropertyDescriptor(process, 'stdin'); Object.defineProperty(process, 'stdin', { ...d, get() { process.stderr.write('\\nSTDIN MADE\\n'); return d.get.call(process); } });",
    );
    // spawned, not spawnSync: the sandbox answers from this process
    const child = spawn(process.execPath, [BIN, 'keys', 'list', '--json'], {
      env: { PATH: process.env.PATH, HOME: dir, ...sb.env, NODE_OPTIONS: `--require ${HOOK} --require ${stdinHook}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect(status, stderr).toBe(0);
    expect(stderr).not.toContain('STDIN MADE');
    const { builtins } = JSON.parse(/LOADED (.*)/.exec(stderr)?.[1] ?? 'null') as { builtins: string[] };
    expect(builtins.filter((m) => /internal\/fs\/streams|readline|internal\/fs\/promises/.test(m))).toEqual([]);
  });

  it('auth login --insecure-storage never loads the keyring module', async () => {
    const r = await loaded(
      ['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--base-url', 'http://127.0.0.1:9'],
      { WSCTL_CONFIG_DIR: tempDir() },
      'wsk_startup_test_key\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.files.filter((f) => f.includes('keyring'))).toEqual([]);
  });
});
