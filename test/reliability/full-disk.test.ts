// Output that cannot be written (a full disk): every command of the tree, run as a real process
// with stdout on /dev/full, exits 1 with one line on stderr. Commands that call no service (auth token, completion, profile …) included.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, run, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

type Env = Record<string, string>;

interface Case {
  args: string[];
  stdin?: string;
  /** Makes the command have something to print: a profile to list, a server to stop. */
  setup?: (env: Env) => Promise<unknown>;
  /** Runs after the command, whatever it did (a detached server to stop). */
  cleanup?: (env: Env) => Promise<unknown>;
}

const login = (env: Env, profile = 'default') => run(['auth', 'login', '--with-key', '--insecure-storage', '--profile', profile], { env, stdin: `${env.WSCTL_API_KEY}\n` });

/** How each command of the tree is run so that it succeeds and prints something on stdout. */
const CASES: Record<string, Case> = {
  'auth login': { args: ['auth', 'login', '--with-key', '--insecure-storage'], stdin: 'KEY\n' },
  'auth status': { args: ['auth', 'status'] },
  'auth token': { args: ['auth', 'token'], setup: login },
  'auth logout': { args: ['auth', 'logout'], setup: login },
  'profile list': { args: ['profile', 'list'], setup: login },
  'profile use': { args: ['profile', 'use', 'work'], setup: (env) => login(env, 'work') },
  'profile rm': { args: ['profile', 'rm', 'work'], setup: (env) => login(env, 'work') },
  'keys create': { args: ['keys', 'create', 'full'] },
  'keys list': { args: ['keys', 'list'] },
  settings: { args: ['settings'] },
  caps: { args: ['caps'] },
  'convo show': { args: ['convo', 'show', 'conv_demo'] },
  'notes import': { args: ['notes', 'import', 'page_demo'] },
  'conn set-permission': { args: ['conn', 'set-permission', 'gmail', 'pdc_gmail', 'write'] },
  'conn rm': { args: ['conn', 'rm', 'gmail', 'pdc_gmail', '--yes'] },
  'byok add': { args: ['byok', 'add', '--name', 'x', '--provider-url', 'https://api.openai.com/v1', '--format', 'openai', '--model', 'gpt-4.1'] },
  'device rm': { args: ['device', 'rm', 'dev_laptop', '--yes'] },
  'persona versions': { args: ['persona', 'versions', 'persona_demo'] },
  'persona upload-avatar': { args: ['persona', 'upload-avatar', join(ROOT, 'test/fixtures/avatar.png')] },
  'pub rm': { args: ['pub', 'rm', 'pub_demo', '--yes'] },
  'site create': { args: ['site', 'create', 'launch'] },
  api: { args: ['api', '/settings/'] },
  completion: { args: ['completion', 'bash'] },
  'mcp config': { args: ['mcp', 'config'] },
  'sandbox serve': { args: ['sandbox', 'serve', '--detach'], cleanup: (env) => run(['sandbox', 'stop'], { env }) },
  'sandbox stop': { args: ['sandbox', 'stop'], setup: (env) => run(['sandbox', 'serve', '--detach'], { env }) },
  'sandbox reset': { args: ['sandbox', 'reset'] },
  __complete: { args: ['__complete', 'profiles'], setup: login },
};

/** Every command of the tree, by its path ("keys create"). */
async function leaves(): Promise<string[]> {
  const { buildProgram, loadCommands } = await import('../../src/program.js');
  const program = buildProgram('0.0.0', { writeOut: () => {}, writeErr: () => {}, onUsageError: () => {} });
  await loadCommands(program, { run: async () => {}, loadAll: async () => {} }, 'all');
  const walk = (command: Command, path: string[]): string[] =>
    command.commands.length === 0 ? [path.join(' ')] : command.commands.flatMap((sub) => walk(sub, [...path, sub.name()]));
  return walk(program, []);
}

const full = openSync('/dev/full', 'w');
afterAll(() => closeSync(full));

/** bin/wsctl with stdout on /dev/full; asynchronous, since the sandbox answering it runs in this process. */
function toFullDisk(args: string[], env: Env, stdin = ''): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, HOME: tempDir(), WSCTL_RETRY_BASE_MS: '10', ...env }, stdio: ['pipe', full, 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin?.end(stdin);
  });
}

describe('a full disk', () => {
  let sb: TestSandbox;
  const envFor = (): Env => ({ ...sb.env, WSCTL_CONFIG_DIR: tempDir(), WSCTL_BYOK_API_KEY: 'sk-test-0123456789' });

  it('every command exits 1 with one line naming the write error, human and --json', async () => {
    const paths = await leaves();
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) {
      // A command added later without a case still proves its help output is checked.
      const c = CASES[path] ?? { args: [...path.split(' '), '--help'] };
      for (const json of [false, true]) {
        sb = await startSandbox();
        const env = envFor();
        await c.setup?.(env);
        const args = json && !c.args.includes('--help') ? [...c.args, '--json'] : c.args;
        const r = await toFullDisk(args, env, c.stdin?.replace('KEY', sb.key));
        await c.cleanup?.(env);
        // The error is one line, the last; a warning or status line before it may stay.
        const lines = r.stderr.split('\n').filter((l) => l !== '');
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
        expect(lines.filter((l) => l.includes('Cannot write')), `${args.join(' ')}: ${r.stderr}`).toHaveLength(1);
        const said = lines.at(-1) as string;
        if (args.includes('--json')) expect(JSON.parse(said).error, args.join(' ')).toMatchObject({ message: expect.stringMatching(/^Cannot write the output: ENOSPC\./), exit_code: 1 });
        else expect(said, args.join(' ')).toMatch(/^Error: Cannot write the output: ENOSPC\./);
      }
    }
  }, 120_000);

  it('keys create names the key whose secret was lost, so it can be found and deleted', async () => {
    sb = await startSandbox();
    const r = await toFullDisk(['keys', 'create', 'lost-one'], envFor());
    expect(r.code).toBe(1);
    const key = sb.state.keys.find((k) => k.name === 'lost-one');
    expect(key).toBeDefined();
    expect(r.stderr).toContain(`The key 'lost-one' (id ${key?.id}) was created but its secret was not written`);
  });
});
