// Every example in every command's --help, pasted into bash as a person would, with wsctl on
// PATH and a fresh sandbox server behind WSCTL_BASE_URL and WSCTL_API_KEY. Examples that name a
// real provider or service host cannot reach it here: they must still parse (no usage error).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { visibleSubcommands } from '../src/common/visible.js';
import { BIN, noStackTrace, REPEAT_RUN, ROOT, atOnce, run, startSandbox, tempDir } from './helpers.js';

async function helpExamples(): Promise<string[]> {
  const { buildProgram, loadCommands } = await import('../src/cli/program.js');
  let text = '';
  const program = buildProgram('0.0.0', { writeOut: (t) => (text += t), writeErr: () => {}, onUsageError: () => {} });
  await loadCommands(program, { run: async () => {}, loadAll: async () => {} }, 'all');
  const found: string[] = [];
  const visit = (command: Command) => {
    text = '';
    command.outputHelp();
    for (const match of text.matchAll(/^ {2}\$ (.+)$/gm)) found.push(match[1] as string);
    for (const sub of visibleSubcommands(command)) visit(sub);
  };
  visit(program);
  return [...new Set(found)];
}

const REMOTE = /example\.com|anthropic\.com|openai\.com/;

/** Bash running a pasted line. A server that runs until interrupted gets its Ctrl-C once it has printed its address; a follow runs for conv_live's six seconds; anything else that hangs is interrupted after 20 s (and fails). */
function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const serves = /sandbox serve(?!.*--detach)/.test(script);
    child.stdout.on('data', (c) => {
      stdout += c;
      if (serves && /WSCTL_API_KEY=/.test(stdout)) child.kill('SIGINT');
    });
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGINT'), script.includes('--follow') ? 15_000 : 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

function onTerminal(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('python3', [join(ROOT, 'test/terminal/pty-run.py'), '80', '24', '--', 'bash', '-c', script], {
      env: { ...env, PTY_TIMEOUT: '10' },
      cwd,
    });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stdin.end(JSON.stringify([['[y/N]', 'y\r']]));
    child.on('close', () => {
      const { code, output } = JSON.parse(stdout) as { code: number; output: string };
      resolve({ code, stderr: output.includes('[y/N]') ? output.replace(/^[\s\S]*\[y\/N\] y/, '') : `no prompt: ${output}` });
    });
  });
}

/** A port free right now, for the help example that names a fixed one (8787 may be busy on a shared machine). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Pastes one example into its own sandbox, config folder and working folder; returns why it failed, if it did. */
async function paste(example: string, bin: string): Promise<string | undefined> {
  const sb = await startSandbox();
  const cwd = tempDir();
  copyFileSync(join(ROOT, 'test/fixtures/avatar.png'), join(cwd, 'ada.png'));
  writeFileSync(join(cwd, 'body.json'), '{"permission": "read"}');
  writeFileSync(join(cwd, 'key.txt'), `${sb.key}\n`);
  const home = join(cwd, 'home');
  mkdirSync(home);
  const env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    ...sb.env,
    WS_KEY: sb.key,
    WSCTL_BYOK_API_KEY: 'sk-example-0123456789',
    WSCTL_RETRY_BASE_MS: '10',
    WSCTL_TIMEOUT: '2',
  };
  // Profiles that examples switch to or remove, saved by wsctl itself (in this process: the
  // examples are what runs as pasted).
  for (const profile of ['default', 'work', 'old-staging']) {
    const login = await run(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', profile], {
      env: { WSCTL_CONFIG_DIR: sb.env.WSCTL_CONFIG_DIR, WSCTL_BASE_URL: sb.url },
      stdin: `${sb.key}\n`,
    });
    if (login.code !== 0) return `setting up profile ${profile} → exit ${login.code}: ${login.stderr.trim()}`;
  }
  // The alias that `alias rm` examples remove.
  await run(['alias', 'set', 'ks', 'keys list'], { env: { WSCTL_CONFIG_DIR: sb.env.WSCTL_CONFIG_DIR } });
  // `eval "$(wsctl sandbox serve --detach)"` must set and export the variables itself.
  const own = example.includes('sandbox serve') ? { ...env, WSCTL_BASE_URL: '', WSCTL_API_KEY: '' } : env;
  const t0 = Date.now();
  const pasted = example.replace(/--port 8787\b/, `--port ${await freePort()}`);
  const script = example.includes('sandbox serve') ? `unset WSCTL_BASE_URL WSCTL_API_KEY; ${pasted}` : pasted;
  // A destructive example without --yes asks on the terminal: answer it there.
  const r =
    /\brm\b/.test(example) && !example.includes('--yes') && !example.includes('profile rm')
      ? await onTerminal(script, own, cwd)
      : await bash(script, own, cwd);
  if (process.env.EXAMPLES_TIMING) console.log(`${Date.now() - t0} ms  ${example}`);
  // Only `sandbox serve --detach` leaves a server behind.
  if (example.includes('sandbox serve')) await bash('wsctl sandbox stop', env, cwd);
  const usage = /unknown (command|option)|missing required|is invalid|Unexpected error/i.test(r.stderr);
  if (!noStackTrace(r.stderr) || usage || (!REMOTE.test(example) && r.code !== 0)) return `${example} → exit ${r.code}: ${r.stderr.trim()}`;
  return undefined;
}

/** Examples pasted at once, each in its own sandbox and folders: most of their time is waiting (a follow, a server until Ctrl-C). */
const AT_ONCE = 4;

describe('help examples', () => {
  it('every example in --help works when pasted', async () => {
    const all = await helpExamples();
    expect(all.length).toBeGreaterThan(40);
    // A repeat run of the suite (REPEAT_RUN) pastes every fourth example; the first run pastes all.
    const examples = REPEAT_RUN ? all.filter((_e, i) => i % 4 === 0) : all;
    const bin = tempDir();
    symlinkSync(BIN, join(bin, 'wsctl'));
    const failed = (await atOnce(examples, AT_ONCE, (example) => paste(example, bin))).filter((why) => why !== undefined);
    expect(failed).toEqual([]);
  }, 240_000);
});
