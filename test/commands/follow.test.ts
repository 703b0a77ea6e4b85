// convo show --follow against a scripted server (each poll gets the next answer) and against the
// sandbox's conv_live, in-process, as bin/wsctl, and on a sized terminal. In process the follow
// loop waits on a clock that never waits; bin/wsctl waits on the real one.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/common/clock.js';
import { BIN, quiet, run, runBin, tempDir } from '../helpers.js';
import { crashed, runPty, tooWide } from '../terminal/pty.js';

const message = (i: number, text: string) => ({
  kind: i % 2 ? 'response' : 'request',
  timestamp: `2026-01-01T00:00:0${i}Z`,
  parts: [{ part_kind: 'text', content: text }],
  extra_field: i,
});
const conversation = { id: 'c1', title: 'Scripted', type: 'chat', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };

/** cutAfter: the body ends just after this text, short of its length, and the connection closes. */
type Answer = { status?: number; body?: unknown; cutAfter?: string };
let server: Server | undefined;
afterEach(() => server?.close());

/** Answers each GET with the next scripted answer (the last one again once they run out). */
async function scripted(answers: Answer[]): Promise<{ url: string; polls: () => number }> {
  let polls = 0;
  server = createServer((_req, res) => {
    const answer = answers[Math.min(polls, answers.length - 1)] as Answer;
    polls++;
    const text = JSON.stringify(answer.body ?? { detail: 'scripted' });
    if (answer.cutAfter) {
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.write(text.slice(0, text.indexOf(answer.cutAfter) + answer.cutAfter.length), () => res.destroy());
      return;
    }
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, polls: () => polls };
}

/** A clock whose sleep returns at once and moves its time on by what was asked; it records each wait. */
function instantClock(): Clock & { waits: number[] } {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    async sleep(ms, signal) {
      signal.throwIfAborted();
      waits.push(ms);
      now += ms;
    },
  };
}

/** The lines of --json output, parsed. */
const jsonLines = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
/** The messages of --json output: its lines between the first ({conversation, state}) and the last ({state}). */
const messageLines = (stdout: string) => jsonLines(stdout).slice(1, -1);
/** The text of each message of the human transcript (its indented lines). */
const messageTexts = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('  '))
    .map((l) => l.trim());

const env = (url: string) => ({ WSCTL_BASE_URL: url, WSCTL_API_KEY: 'wsk_follow_test_key', WSCTL_CONFIG_DIR: tempDir() });
const FAST = ['--interval', '0.5'];

describe('convo show --follow', () => {
  it('running → running → idle: each message once, in order; a growing last message only when complete', async () => {
    const s = await scripted([
      { body: { conversation, state: 'running', messages: [message(0, 'hello'), message(1, 'Wor')] } },
      { body: { conversation, state: 'running', messages: [message(0, 'hello'), message(1, 'World, growing')] } },
      {
        body: {
          conversation,
          state: 'running',
          messages: [message(0, 'hello'), message(1, 'World, growing and done'), message(2, 'next')],
        },
      },
      {
        body: {
          conversation,
          state: 'idle',
          messages: [message(0, 'hello'), message(1, 'World, growing and done'), message(2, 'next, final')],
        },
      },
    ]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', ...FAST], { env: env(s.url), clock });
    expect(clock.waits).toEqual([500, 500, 500]);
    expect(r.code, r.stderr).toBe(0);
    expect(s.polls()).toBe(4);
    const bodies = messageTexts(r.stdout);
    expect(bodies).toEqual(['hello', 'World, growing and done', 'next, final']);
    expect(r.stdout).toMatch(/^state\trunning$/m);
    expect(r.stdout).toMatch(/\(3 messages\)\n$/);
    expect(r.stderr).not.toMatch(/changed between polls/);
  });

  it('a history that reorders between polls: each message printed once, none lost, said once on stderr (built bin)', async () => {
    const [a, b, c, d, e, f] = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'].map((text, i) => message(i, text));
    const history: Answer[] = [
      { body: { conversation, state: 'running', messages: [a, b, c] } },
      { body: { conversation, state: 'running', messages: [c, a, b, d, e] } },
      { body: { conversation, state: 'idle', messages: [e, d, c, b, a, f] } },
    ];
    // The transcript and --json each against a server of their own, at the same time (each waits 1 s in real time).
    const s = await scripted(history);
    const first = server;
    const again = await scripted(history);
    const [human, json] = await Promise.all([
      runBin(['convo', 'show', 'c1', '--follow', ...FAST], { env: env(s.url) }),
      runBin(['convo', 'show', 'c1', '--follow', '--json', ...FAST], { env: env(again.url) }),
    ]);
    first?.close();
    expect(human.code, human.stderr).toBe(0);
    const bodies = messageTexts(human.stdout);
    expect(bodies).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']);
    expect(human.stderr.match(/changed between polls/g)).toHaveLength(1);
    expect(human.stderr).toMatch(
      /^! The history of conversation 'c1' changed between polls \(messages moved, removed or rewritten\); no message is printed twice\.$/m,
    );
    // --json: one line per message, each once, as the service sent it.
    expect(json.code, json.stderr).toBe(0);
    expect(jsonLines(json.stdout)).toEqual([{ conversation, state: 'running' }, a, b, c, d, e, f, { state: 'idle' }]);
    expect(json.stderr.match(/changed between polls/g)).toHaveLength(1);
  });

  it('a history that shrinks and regrows: the new messages are printed, none twice, said once', async () => {
    const [a, b, c, d, e] = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((text, i) => message(i, text));
    const s = await scripted([
      { body: { conversation, state: 'running', messages: [a, b, c] } },
      { body: { conversation, state: 'running', messages: [a] } },
      { body: { conversation, state: 'idle', messages: [a, d, e] } },
    ]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', ...FAST], { env: env(s.url), clock });
    expect(clock.waits).toEqual([500, 500]);
    expect(r.code, r.stderr).toBe(0);
    const bodies = messageTexts(r.stdout);
    // charlie was still the last message (perhaps growing) when it went away: never complete, never printed.
    expect(bodies).toEqual(['alpha', 'bravo', 'delta', 'echo']);
    expect(r.stderr.match(/changed between polls/g)).toHaveLength(1);
  });

  it('identical messages are distinct messages: a repeated one is printed each time it is added', async () => {
    const ok = message(1, 'ok');
    const s = await scripted([
      { body: { conversation, state: 'running', messages: [ok, ok] } },
      { body: { conversation, state: 'idle', messages: [ok, ok, ok] } },
    ]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', '--json', ...FAST], { env: env(s.url), clock });
    expect(clock.waits).toEqual([500]);
    expect(r.code, r.stderr).toBe(0);
    expect(messageLines(r.stdout)).toEqual([ok, ok, ok]);
    expect(r.stderr).not.toMatch(/changed between polls/);
  });

  it('more messages than the first buffer of digests holds (1,024): added ones printed once; two moved past it are a change, not printed again', async () => {
    const many = Array.from({ length: 3002 }, (_, i) => ({ ...message(i % 10, `message ${i}`), extra_field: i }));
    const moved = [...many.slice(0, 2000), many[2500], ...many.slice(2001, 2500), many[2000], ...many.slice(2501)];
    const s = await scripted([
      { body: { conversation, state: 'running', messages: many.slice(0, 3000) } },
      { body: { conversation, state: 'running', messages: many.slice(0, 3001) } },
      { body: { conversation, state: 'idle', messages: moved } },
    ]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', '--json', ...FAST], { env: env(s.url), clock });
    expect(clock.waits).toEqual([500, 500]);
    expect(r.code, r.stderr).toBe(0);
    expect(messageLines(r.stdout).map((m) => m.extra_field)).toEqual(many.map((m) => m.extra_field));
    expect(r.stderr.match(/changed between polls/g)).toHaveLength(1);
  });

  it('--tail on a running conversation: what it leaves out is never printed later, and is no change of history', async () => {
    const [a, b, c, d] = ['alpha', 'bravo', 'charlie', 'delta'].map((text, i) => message(i, text));
    const s = await scripted([
      { body: { conversation, state: 'running', messages: [a, b, c] } },
      { body: { conversation, state: 'idle', messages: [a, b, c, d] } },
    ]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', '--tail', '2', '--json', ...FAST], { env: env(s.url), clock });
    expect(clock.waits).toEqual([500]);
    expect(r.code, r.stderr).toBe(0);
    expect(messageLines(r.stdout)).toEqual([b, c, d]);
    expect(r.stderr).not.toMatch(/changed between polls/);
  });

  it('--tail, and a first answer cut after its messages: asked for again, each message once, nothing counted twice', async () => {
    const [a, b, c, d] = ['alpha', 'bravo', 'charlie', 'delta'].map((text, i) => message(i, text));
    const running = { conversation, messages: [a, b, c], state: 'running' };
    const s = await scripted([
      // Cut before the closing brace: the bytes held back to mask an echoed key (the key's length
      // less one) are past the messages' end, which is read.
      { body: running, cutAfter: '"running"' },
      { body: running },
      { body: { conversation, state: 'idle', messages: [a, b, c, d] } },
    ]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', '--tail', '2', '--json', ...FAST], { env: env(s.url), clock });
    expect(r.code, r.stderr).toBe(0);
    // The cut answer asked for again, then one wait and the idle answer.
    expect([s.polls(), clock.waits]).toEqual([3, [500]]);
    expect(messageLines(r.stdout)).toEqual([b, c, d]);
    expect(r.stderr).not.toMatch(/changed between polls/);
  });

  it('idle at once: one request, the whole transcript, exit 0', async () => {
    const s = await scripted([{ body: { conversation, messages: [message(0, 'a'), message(1, 'b')] } }]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '-f'], { env: env(s.url), clock });
    expect(clock.waits).toEqual([]);
    expect(r.code).toBe(0);
    expect(s.polls()).toBe(1);
    expect(r.stdout).toContain('(2 messages)');
  });

  it('without --interval, polls every 2 s', async () => {
    const s = await scripted([
      { body: { conversation, state: 'running', messages: [message(0, 'a')] } },
      { body: { conversation, state: 'stopping', messages: [message(0, 'a')] } },
      { body: { conversation, state: 'idle', messages: [message(0, 'a')] } },
    ]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', '--json'], { env: env(s.url), clock });
    expect(r.code, r.stderr).toBe(0);
    expect(clock.waits).toEqual([2000, 2000]);
    expect(s.polls()).toBe(3);
  });

  it('--json: a first {conversation, state} line, one compact line per message as sent, a last {"state": "idle"}', async () => {
    const s = await scripted([
      { body: { conversation, state: 'running', messages: [message(0, 'a'), message(1, 'b…')] } },
      { body: { conversation, state: 'idle', messages: [message(0, 'a'), message(1, 'b, done')] } },
    ]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', '--json', ...FAST], { env: env(s.url), clock });
    expect(clock.waits).toEqual([500]);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines).toEqual([{ conversation, state: 'running' }, message(0, 'a'), message(1, 'b, done'), { state: 'idle' }]);
  });

  it('--tail n keeps the last n messages of the first answer; --jq applies to each line', async () => {
    const s = await scripted([{ body: { conversation, state: 'idle', messages: [message(0, 'a'), message(1, 'b'), message(2, 'c')] } }]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', '--tail', '1', '--jq', '.parts[0].content // .state'], {
      env: env(s.url),
      clock,
    });
    expect(clock.waits).toEqual([]);
    expect(r.stdout).toBe('idle\nc\nidle\n');
  });

  it('a poll that keeps failing follows the retry policy, then exits with its code (404 → 5)', async () => {
    const s = await scripted([{ body: { conversation, state: 'running', messages: [message(0, 'a')] } }, { status: 404 }]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', ...FAST], { env: env(s.url), clock });
    expect(clock.waits).toEqual([500]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^Error: Conversation 'c1' not found/m);
  });

  it('a 503 is retried and the follow goes on', async () => {
    const s = await scripted([
      { body: { conversation, state: 'running', messages: [message(0, 'a')] } },
      { status: 503 },
      { body: { conversation, state: 'idle', messages: [message(0, 'a'), message(1, 'b')] } },
    ]);
    const clock = instantClock();
    const r = await run(['convo', 'show', 'c1', '--follow', ...FAST], { env: env(s.url), clock });
    expect(clock.waits).toEqual([500]);
    expect(r.code, r.stderr).toBe(0);
    expect(s.polls()).toBe(3);
    expect(r.stdout).toContain('(2 messages)');
  });

  it('--interval is checked: not a number, zero, or without --follow is exit 2', async () => {
    for (const args of [
      ['--follow', '--interval', 'x'],
      ['--follow', '--interval', '0'],
      ['--interval', '1'],
    ]) {
      const r = await run(['convo', 'show', 'c1', ...args], { env: env('http://127.0.0.1:9') });
      expect(r.code, args.join(' ')).toBe(2);
    }
  });

  it('Ctrl-C while waiting exits 130 within a second; piped output is flushed per message', async () => {
    // Timed: not beside another file's storm of processes.
    await quiet(async () => {
      const s = await scripted([{ body: { conversation, state: 'running', messages: [message(0, 'first'), message(1, 'second')] } }]);
      const child = spawn(process.execPath, [BIN, 'convo', 'show', 'c1', '--follow', '--interval', '5'], {
        env: { PATH: process.env.PATH, HOME: tempDir(), ...env(s.url) },
      });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      // The first message is complete (a later one exists) and must arrive while wsctl still runs.
      for (let waited = 0; !out.includes('first') && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      expect(out).toContain('first');
      expect(out).not.toContain('second');
      const interrupted = Date.now();
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(Date.now() - interrupted).toBeLessThan(1000);
    });
  });
});

// Real time, as bin/wsctl: conv_live gains a message about every second. Each test has its own sandbox.
describe.concurrent('conv_live in the sandbox', () => {
  it('--sandbox convo show conv_live --follow: at least five messages in about a second each, then idle; reset starts it over', async () => {
    const dir = tempDir();
    const started = Date.now();
    const human = await runBin(['--sandbox', 'convo', 'show', 'conv_live', '--follow', '--interval', '0.5'], {
      env: { WSCTL_CONFIG_DIR: dir },
      timeoutMs: 30_000,
    });
    expect(human.code, human.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(4000);
    expect(human.stdout.match(/^▸ /gm)?.length).toBeGreaterThanOrEqual(5);
    expect(human.stdout).toContain('→ search_venues(');
    expect(human.stdout).toMatch(/Done: Casa do Largo is held .* to finance\.\n/);
    // Finished now: a second follow is one request and the same messages.
    const again = await runBin(['--sandbox', 'convo', 'show', 'conv_live', '--follow', '--json'], { env: { WSCTL_CONFIG_DIR: dir } });
    const lines = jsonLines(again.stdout);
    expect(lines[0]).toMatchObject({ state: 'idle' });
    expect(lines.at(-1)).toEqual({ state: 'idle' });
    expect(lines.length - 2).toBe(human.stdout.match(/^▸ /gm)?.length);
    expect((await runBin(['--sandbox', 'sandbox', 'reset'], { env: { WSCTL_CONFIG_DIR: dir } })).code).toBe(0);
    const restarted = JSON.parse(
      (await runBin(['--sandbox', 'convo', 'show', 'conv_live', '--json'], { env: { WSCTL_CONFIG_DIR: dir } })).stdout,
    );
    expect(restarted.state).toBe('running');
  }, 90_000);

  it('on an 80-column terminal: the status line, the transcript within the width, no crash', async () => {
    const r = await runPty(['--sandbox', 'convo', 'show', 'conv_live', '-f', '--interval', '0.5'], {
      cols: 80,
      env: { WSCTL_CONFIG_DIR: tempDir() },
      timeoutS: 30,
    });
    expect(r.code).toBe(0);
    expect(crashed(r.output)).toBe(false);
    expect(r.output).toMatch(/running · \d+ s since the last message/);
    expect(tooWide(r.text, 80)).toEqual([]);
    expect(r.text).toMatch(/Totals .*\(6 messages\)/);
  }, 90_000);
});
