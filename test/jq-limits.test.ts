// --jq's edges (cli.md §3): a filter that never ends is stopped by Ctrl-C or SIGTERM at once, a
// filter that needs more than 1 GiB ends with exit 2 and one line, output that never ends flows
// to a reader that stops, and a transcript of a million messages can be filtered. The built
// bin/wsctl, on a sized terminal where it is about one.
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, noStackTrace, runBin, startSandbox, tempDir, type TestSandbox } from './helpers.js';
import { runPty } from './terminal/pty.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});

const NEVER_ENDS = 'def f: f; f';
// --debug traces the response body once it has arrived: the filter runs next. (--debug also
// shows the interruption's stack, so only Node's own crash output is looked for.)
const BODY_TRACED = 'Lisbon."}';
const nodeCrash = (output: string) => /Node\.js v\d+|node:internal|FATAL|Aborted\(/.test(output);

/**
 * Runs bin/wsctl on a sized pty (so the spinner and its signal handlers load, as for a person),
 * waits until text appears, then sends the process a signal. "code" is 128 + the signal when
 * the signal ended it; null when it was still running 10 s later (then it is killed).
 */
function signalOnPty(
  args: string[],
  waitFor: string,
  signal: 'SIGINT' | 'SIGTERM',
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const script = `
import json, os, pty, select, signal, struct, sys, termios, fcntl, time
args = json.loads(sys.argv[1]); wait_for = sys.argv[2].encode(); sig = getattr(signal, sys.argv[3])
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))
    os.execvp(args[0], args)
out = b""
def pump(t):
    global out
    r, _, _ = select.select([fd], [], [], t)
    if r:
        try: out += os.read(fd, 65536)
        except OSError: pass
deadline = time.time() + 60
while wait_for not in out and time.time() < deadline: pump(0.05)
os.kill(pid, sig)
code = None
deadline = time.time() + 10
while time.time() < deadline:
    pump(0.05)
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        code = os.waitstatus_to_exitcode(status)
        code = 128 - code if code < 0 else code
        break
if code is None:
    os.kill(pid, signal.SIGKILL); os.waitpid(pid, 0)
print(json.dumps({"code": code, "output": out.decode("utf-8", "replace")}))
`;
  return new Promise((resolve, reject) => {
    execFile(
      'python3',
      ['-c', script, JSON.stringify([process.execPath, BIN, ...args]), waitFor, signal],
      { env: { PATH: process.env.PATH, HOME: tempDir(), TERM: 'xterm-256color', ...env }, maxBuffer: 16 << 20 },
      (error, stdout) => (error && !stdout ? reject(error) : resolve(JSON.parse(stdout))),
    );
  });
}

describe('--jq: a filter that never ends', () => {
  it.each([
    ['Ctrl-C', 'SIGINT', 130],
    ['SIGTERM', 'SIGTERM', 143],
  ] as const)(
    '%s stops it at once, on a terminal (%s → %i)',
    async (_name, signal, code) => {
      const r = await signalOnPty(['settings', '--debug', '--jq', NEVER_ENDS], BODY_TRACED, signal, sb.env);
      expect(r.code, r.output).toBe(code);
      expect(nodeCrash(r.output)).toBe(false);
    },
    90_000,
  );

  // Piped, as a script or a CI job runs it: the signal as soon as the body is traced (the filter
  // about to start) and again after a pause (the filter surely running).
  it.each([
    ['SIGINT', 0, 130],
    ['SIGTERM', 0, 143],
    ['SIGINT', 500, 130],
    ['SIGTERM', 500, 143],
  ] as const)(
    '%s %i ms after the body stops it at once, piped (→ %i)',
    async (signal, delay, code) => {
      const r = await new Promise<{ code: number | null; by: NodeJS.Signals | null; stderr: string; ms: number }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'settings', '--debug', '--jq', NEVER_ENDS], {
          env: { PATH: process.env.PATH, HOME: tempDir(), ...sb.env },
        });
        let stderr = '';
        let sent = 0;
        child.stderr.on('data', (c) => {
          stderr += c;
          if (!sent && stderr.includes(BODY_TRACED)) {
            sent = Date.now() + delay;
            setTimeout(() => child.kill(signal), delay);
          }
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        // Ended by the signal itself: 128 + the signal, as a shell says.
        child.on('close', (exit, by) => {
          clearTimeout(timer);
          resolve({ code: by && by !== 'SIGKILL' ? 128 + os.constants.signals[by] : exit, by, stderr, ms: Date.now() - sent });
        });
      });
      expect(r.code, r.stderr).toBe(code);
      expect(r.ms).toBeLessThan(5_000);
      // Ctrl-C is handled as in every command: an exit with the error document, not a death by the
      // signal (which a shell would also read as 130).
      if (signal === 'SIGINT') {
        expect(r.by, r.stderr).toBeNull();
        expect(r.stderr).toContain('"message": "Interrupted."');
      }
    },
    60_000,
  );

  it('Ctrl-C typed on a sized terminal: exit 130', async () => {
    const r = await runPty(['settings', '--debug', '--jq', 'until(false; .)'], {
      cols: 80,
      env: sb.env,
      steps: [[BODY_TRACED, '\x03']],
      timeoutS: 30,
    });
    expect(r.code, r.text).toBe(130);
    expect(nodeCrash(r.output)).toBe(false);
  }, 60_000);
});

describe('--jq: memory', () => {
  it('a filter that needs more than 1 GiB: exit 2 and one JSON error document saying so, nothing else', async () => {
    const r = await runBin(['settings', '--jq', '[range(1e8)] | length'], { env: sb.env, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    // Exactly one document: no "Aborted()" or native stack before it.
    expect(JSON.parse(r.stderr)).toEqual({
      error: { message: '--jq: the filter needs more than 1 GiB of memory.', exit_code: 2, reason: 'jq_error' },
    });
    expect(noStackTrace(r.stderr)).toBe(true);
  }, 150_000);

  it("within 1 GiB it runs: [range(1e7)] | length (past the engine package's own 256 MiB)", async () => {
    const r = await runBin(['settings', '--jq', '[range(1e7)] | length'], { env: sb.env, timeoutMs: 120_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('10000000\n');
  }, 150_000);

  it('output that never ends flows to a reader that stops: range(1e9) | head -n 3, exit 0', async () => {
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" settings --jq 'range(1e9)' | head -n 3`], {
        env: { PATH: process.env.PATH, HOME: tempDir(), ...sb.env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
    expect(r.stdout).toBe('0\n1\n2\n');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 90_000);
});

describe('--jq: any document --json can print', () => {
  const conversation = { id: 'c1', title: 'Big', type: 'chat', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
  let url = '';
  let close = () => {};
  beforeAll(async () => {
    const message = '{"kind":"request","timestamp":"2026-01-01T00:00:00Z","parts":[]}';
    const body = Buffer.from(
      `{"conversation":${JSON.stringify(conversation)},"messages":[${Array(1_000_000).fill(message).join(',')}],"state":"idle"}`,
    );
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('a transcript of 1,000,000 tiny messages: .messages | length', async () => {
    const r = await runBin(['convo', 'show', 'c1', '--jq', '(.messages | length), .conversation.title'], {
      env: { WSCTL_BASE_URL: url, WSCTL_API_KEY: 'wsk_big_test_key', WSCTL_CONFIG_DIR: tempDir() },
      timeoutMs: 150_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('1000000\nBig\n');
  }, 180_000);
});
