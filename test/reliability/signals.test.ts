// Ctrl-C and closed pipes, on the real process.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN, quiet, runBin, startSandbox, tempDir } from '../helpers.js';

function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('close', (code) => resolve({ code, at: Date.now() })),
  );
  return { child, exited, stderr: () => stderr };
}

describe('signals and pipes', () => {
  it('SIGINT during a slow request aborts it and exits 130 within a second', async () => {
    // Timed: not beside another file's storm of processes.
    await quiet(async () => {
      const sb = await startSandbox();
      sb.faults.push({ path: '/api-keys', delay_ms: 10_000 });
      const p = start(['keys', 'list'], sb.env);
      while (sb.requests.length === 0) await sleep(20);
      const sent = Date.now();
      p.child.kill('SIGINT');
      const { code, at } = await p.exited;
      expect(code).toBe(130);
      expect(at - sent).toBeLessThan(1000);
      expect(p.stderr()).toContain('Interrupted');
      await sleep(50);
      expect(sb.requests[0]!.aborted).toBe(true);
      expect(sb.requests).toHaveLength(1);
    });
  });

  it('SIGINT during keys create --save-as leaves no config file behind', async () => {
    const sb = await startSandbox();
    sb.faults.push({ method: 'POST', path: '/api-keys', delay_ms: 10_000 });
    const p = start(['keys', 'create', 'k', '--save-as', 'k'], sb.env);
    while (sb.requests.length === 0) await sleep(20);
    p.child.kill('SIGINT');
    expect((await p.exited).code).toBe(130);
    expect(existsSync(join(sb.env.WSCTL_CONFIG_DIR, 'config.json'))).toBe(false);
  });

  it('`wsctl convo show … | head -1` ends quietly, without an EPIPE trace', async () => {
    const sb = await startSandbox();
    const convo = sb.state.conversations.conv_demo!;
    convo.messages = Array.from({ length: 20_000 }, (_, i) => ({ ...convo.messages[i % convo.messages.length]! }));
    const dir = tempDir();
    const child = spawn(
      'bash',
      ['-c', `"${process.execPath}" "${BIN}" convo show conv_demo | head -1; echo "status=\${PIPESTATUS[0]}" >&2`],
      {
        env: { PATH: process.env.PATH, HOME: dir, ...sb.env },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    await new Promise((resolve) => child.on('close', resolve));
    expect(stdout).toBe('title\tPlan the Lisbon team offsite\n');
    expect(stderr.trim()).toBe('status=0');
  });
});

describe('a command that waits for something that never comes', () => {
  // Node exits 0, having printed nothing, when its event loop empties while a promise is pending:
  // a preload makes the avatar's file open never answer, with nothing else left to wait for.
  it('exits 1 with one line, human and --json, not 0 with nothing', async () => {
    const sb = await startSandbox();
    const dir = tempDir();
    const preload = join(dir, 'stall.cjs');
    writeFileSync(preload, "require('node:fs/promises').open = () => new Promise(() => {});\n");
    const avatar = join(dir, 'a.png');
    writeFileSync(avatar, Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64)]));
    for (const json of [false, true]) {
      const r = await runBin(['persona', 'upload-avatar', avatar, ...(json ? ['--json'] : [])], {
        env: { ...sb.env, NODE_OPTIONS: `--require ${preload}` },
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const message = 'wsctl stopped before the command finished: it waited for something that never came (an internal error).';
      expect(r.stderr).toBe(
        json ? `${JSON.stringify({ error: { message, exit_code: 1, reason: 'local_error' } })}\n` : `Error: ${message}\n`,
      );
    }
    expect(sb.requests).toEqual([]);
  });
});
