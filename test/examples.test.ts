// Every example in every command's --help, pasted into bash as a person would, with wsctl on
// PATH and a fresh sandbox server behind WSCTL_BASE_URL and WSCTL_API_KEY. Examples that name a
// real provider or service host cannot reach it here: they must still parse (no usage error).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { visibleSubcommands } from '../src/visible.js';
import { BIN, noStackTrace, REPEAT_RUN, ROOT, startSandbox, tempDir } from './helpers.js';

async function helpExamples(): Promise<string[]> {
  const { buildProgram, loadCommands } = await import('../src/program.js');
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

function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    // A server that runs until interrupted gets its Ctrl-C; a follow runs for conv_live's six seconds.
    const timer = setTimeout(() => child.kill('SIGINT'), script.includes('--follow') ? 15_000 : 4000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

function onTerminal(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('python3', [join(ROOT, 'test/terminal/pty-run.py'), '80', '24', '--', 'bash', '-c', script], { env: { ...env, PTY_TIMEOUT: '10' }, cwd });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stdin.end(JSON.stringify([['[y/N]', 'y\r']]));
    child.on('close', () => {
      const { code, output } = JSON.parse(stdout) as { code: number; output: string };
      resolve({ code, stderr: output.includes('[y/N]') ? output.replace(/^[\s\S]*\[y\/N\] y/, '') : `no prompt: ${output}` });
    });
  });
}

describe('help examples', () => {
  it('every example in --help works when pasted', async () => {
    const all = await helpExamples();
    expect(all.length).toBeGreaterThan(40);
    // A repeat run of the suite (REPEAT_RUN) pastes every fourth example; the first run pastes all.
    const examples = REPEAT_RUN ? all.filter((_e, i) => i % 4 === 0) : all;
    const bin = tempDir();
    symlinkSync(BIN, join(bin, 'wsctl'));
    const failed: string[] = [];
    for (const example of examples) {
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
      // Profiles that examples switch to or remove.
      await bash('for p in default work old-staging; do wsctl auth login --with-key --no-verify --insecure-storage --profile $p <<<"$WS_KEY" || exit 1; done', env, cwd);
      // `eval "$(wsctl sandbox serve --detach)"` must set and export the variables itself.
      const own = example.includes('sandbox serve') ? { ...env, WSCTL_BASE_URL: '', WSCTL_API_KEY: '' } : env;
      const t0 = Date.now();
      const script = example.includes('sandbox serve') ? `unset WSCTL_BASE_URL WSCTL_API_KEY; ${example}` : example;
      // A destructive example without --yes asks on the terminal: answer it there.
      const r = /\brm\b/.test(example) && !example.includes('--yes') && !example.includes('profile rm') ? await onTerminal(script, own, cwd) : await bash(script, own, cwd);
      if (process.env.EXAMPLES_TIMING) console.log(`${Date.now() - t0} ms  ${example}`);
      const usage = /unknown (command|option)|missing required|is invalid|Unexpected error/.test(r.stderr);
      if (!noStackTrace(r.stderr) || usage || (!REMOTE.test(example) && r.code !== 0)) failed.push(`${example} → exit ${r.code}: ${r.stderr.trim()}`);
      await bash('wsctl sandbox stop', env, cwd);
    }
    expect(failed).toEqual([]);
  }, 240_000);
});
