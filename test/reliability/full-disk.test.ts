// Output that cannot be written (a full disk): every declared verb, its sample run as a real process
// with stdout on /dev/full, exits 1 with one line on stderr. Commands that call no service (auth token, completion, profile …) included.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { declaredVerbs } from '../../src/cli/program.js';
import { argvOf } from '../endpoints.js';
import { atOnce, BIN, run, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

type Env = Record<string, string>;

interface Case {
  args: string[];
  stdin?: string;
  /** Makes the command have something to print: a profile to list, a server to stop. */
  setup?: (env: Env) => Promise<unknown>;
  /** Runs after the command, whatever it did (a detached server to stop). */
  cleanup?: (env: Env) => Promise<unknown>;
}

const login = (env: Env, profile = 'default') =>
  run(['auth', 'login', '--with-key', '--insecure-storage', '--profile', profile], { env, stdin: `${env.WSCTL_API_KEY}\n` });

/** What a verb's sample needs to print something besides the seeded sandbox: a key on stdin, a profile to list, a server to stop. */
const NEEDS: Record<string, Omit<Case, 'args'>> = {
  'auth login': { stdin: 'KEY\n' },
  'auth token': { setup: login },
  'auth logout': { setup: login },
  'profile list': { setup: login },
  'profile use': { setup: login },
  'profile rm': { setup: login },
  'profile pin': { setup: login },
  'auth switch': { setup: login },
  'alias list': { setup: (env) => run(['alias', 'set', 'ks', 'keys list'], { env }) },
  'alias rm': { setup: (env) => run(['alias', 'set', 'ks', 'keys list'], { env }) },
  'sandbox serve': { cleanup: (env) => run(['sandbox', 'stop'], { env }) },
  'sandbox stop': { setup: (env) => run(['sandbox', 'serve', '--detach'], { env }) },
  __complete: { setup: login },
};

/**
 * Every declared verb, run by its sample. `wsctl mcp` itself is left out: it writes to stdout only
 * what a client asks for (test/mcp covers a client that goes away).
 */
async function cases(): Promise<[path: string, c: Case][]> {
  const verbs = (await declaredVerbs()).filter((v) => v.path.join(' ') !== 'mcp');
  return verbs.map((v) => {
    const path = v.path.join(' ');
    return [path, { args: argvOf(v.verb.sample), ...NEEDS[path] }];
  });
}

const full = openSync('/dev/full', 'w');
afterAll(() => closeSync(full));

/** bin/wsctl with stdout on /dev/full; asynchronous, since the sandbox answering it runs in this process. */
function toFullDisk(args: string[], env: Env, stdin = ''): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: tempDir(), WSCTL_RETRY_BASE_MS: '10', ...env },
      stdio: ['pipe', full, 'pipe'],
      cwd: tempDir(),
    });
    let stderr = '';
    child.stderr?.on('data', (c) => (stderr += c));
    child.on('error', (error) => resolve({ code: null, stderr: `${stderr}${error.message}` }));
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin?.end(stdin);
  });
}

/** Whether a line on stderr is the JSON error document of a write to a full disk, exit 1. */
function fullDiskDocument(line: string): boolean {
  try {
    const { error } = JSON.parse(line) as { error?: { message?: unknown; exit_code?: unknown } };
    return /^Cannot write the output: ENOSPC\./.test(String(error?.message)) && error?.exit_code === 1;
  } catch {
    return false;
  }
}

describe('a full disk', () => {
  let sb: TestSandbox;
  const envFor = (sandbox: TestSandbox): Env => ({
    ...sandbox.env,
    WSCTL_CONFIG_DIR: tempDir(),
    WSCTL_BYOK_API_KEY: 'sk-test-0123456789',
  });

  it('every command exits 1 with one line naming the write error, human and --json', async () => {
    const all = await cases();
    expect(all.length).toBeGreaterThan(20);
    const runs = all.flatMap(([, c]) => [false, true].map((json) => ({ c, json })));
    // A few at once, each with a sandbox and a config folder of its own (a served sandbox takes a
    // free port); each says what went wrong rather than throwing, so that every run has ended
    // before the file's cleanup closes what they use.
    const wrong = await atOnce(runs, 4, async ({ c, json }) => {
      const sandbox = await startSandbox();
      const env = envFor(sandbox);
      await c.setup?.(env);
      const args = json ? [...c.args, '--json'] : c.args;
      const r = await toFullDisk(args, env, c.stdin?.replace('KEY', sandbox.key));
      await c.cleanup?.(env);
      // The error is one line, the last; a warning or status line before it may stay.
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      const said = lines.at(-1) ?? '';
      const named = args.includes('--json') ? fullDiskDocument(said) : /^Error: Cannot write the output: ENOSPC\./.test(said);
      const right = r.code === 1 && lines.filter((l) => l.includes('Cannot write')).length === 1 && named;
      return right ? undefined : `${args.join(' ')}: exit ${r.code}, stderr: ${r.stderr}`;
    });
    expect(wrong.filter((w) => w !== undefined)).toEqual([]);
  }, 120_000);

  it('keys create names the key whose secret was lost, so it can be found and deleted', async () => {
    sb = await startSandbox();
    const r = await toFullDisk(['keys', 'create', 'lost-one'], envFor(sb));
    expect(r.code).toBe(1);
    const key = sb.state.keys.find((k) => k.name === 'lost-one');
    expect(key).toBeDefined();
    expect(r.stderr).toContain(`The key 'lost-one' (id ${key?.id}) was created but its secret was not written`);
  });
});
