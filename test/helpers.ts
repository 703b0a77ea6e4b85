// Test harness: a real sandbox server on 127.0.0.1, wsctl run in-process with an injected
// context, and the built bin/wsctl run as a child process.
import { cleanLine } from '../src/common/sanitize.js';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../src/main.js';
import type { Clock } from '../src/common/clock.js';
import type { IO } from '../src/terminal/index.js';
import type { Prompt } from '../src/terminal/prompt.js';
import { startSandboxServer, type SandboxServer } from '../src/sandbox/server.js';
import { MemoryStore } from '../src/sandbox/store.js';
import { seedState, type SandboxState } from '../src/sandbox/seed.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * CI runs the suite once in full, then again on each other Node line, one of them with the tricks
 * off (.ci/run sets WSCTL_CI_REPEAT=1 there): a repeat keeps every test but runs the long soaks
 * (rounds of concurrent writers, every help example, every width) in a smaller form.
 */
export const REPEAT_RUN = process.env.WSCTL_CI_REPEAT === '1';
export const BIN = join(ROOT, 'bin', 'wsctl');

const cleanups: (() => unknown)[] = [];

/**
 * What the finished test file left: its temporary folders and servers, newest first. Run after
 * each file by test/cleanup-setup.ts: a worker runs many files with this module loaded once.
 */
export async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wsctl-test-'));
  // A shell just killed (tmux) may still be writing there: retry, and never fail a suite over it.
  cleanups.push(() => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    } catch {
      // left for the system's tmp cleaner
    }
  });
  return dir;
}

/** A server on 127.0.0.1 that answers every request with this JSON body (closed after the test file), and the env that points wsctl at it. */
export async function serveBody(body: string): Promise<Record<string, string>> {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return { WSCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`, WSCTL_API_KEY: 'wsk_served_body_key' };
}

export interface TestSandbox extends SandboxServer {
  state: SandboxState;
  key: string;
  /** Env that points wsctl at this sandbox with its bootstrap key. */
  env: Record<string, string>;
}

export async function startSandbox(): Promise<TestSandbox> {
  const state = seedState();
  const server = await startSandboxServer({ store: new MemoryStore(state) });
  cleanups.push(() => server.close());
  return {
    ...server,
    state,
    key: state.bootstrap_key,
    env: { WSCTL_BASE_URL: server.url, WSCTL_API_KEY: state.bootstrap_key, WSCTL_CONFIG_DIR: tempDir() },
  };
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  tty?: boolean;
  stdinTTY?: boolean;
  columns?: number;
  answers?: string[];
  signal?: AbortSignal;
  /** The clock `convo show --follow` reads and waits on (the real one when absent). */
  clock?: Clock;
  /** The working folder, where pin files are looked for. */
  cwd?: string;
  /** As bin/wsctl says it: the process exits once the command ends. */
  exitsAfter?: boolean;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  prompts: string[];
}

/** The streams and prompt of a door no one watches (an MCP server's context in a test): nothing in, nothing asked. */
export function silentDoor(): { io: IO; prompt: Prompt } {
  const never = () => Promise.reject(new Error('no prompts here'));
  return {
    io: {
      stdin: Readable.from([]),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      columns: 0,
    },
    prompt: { secret: never, confirm: never },
  };
}

/** Runs wsctl in this process with its own streams; tty makes stdout and stderr terminals. */
export async function run(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const prompts: string[] = [];
  const answers = [...(options.answers ?? [])];
  const prompt: Prompt = {
    async secret(question) {
      prompts.push(question);
      return answers.shift() ?? '';
    },
    async confirm(question) {
      prompts.push(question);
      return ['y', 'yes'].includes((answers.shift() ?? '').toLowerCase());
    },
    async text(question) {
      prompts.push(question);
      return answers.shift() ?? '';
    },
    async choose(question, items) {
      prompts.push(question, ...items.map((item) => cleanLine(item.description ? `${item.id}  ${item.description}` : item.id)));
      const answer = answers.shift() ?? '';
      return (items.find((item) => item.id.startsWith(answer)) ?? items[0])!.id;
    },
  };
  const io: IO = {
    stdin: Readable.from(options.stdin !== undefined ? [Buffer.from(options.stdin)] : []),
    stdout,
    stderr,
    stdinIsTTY: options.stdinTTY ?? false,
    stdoutIsTTY: !!options.tty,
    stderrIsTTY: !!options.tty,
    columns: options.columns ?? 100,
  };
  // As runBin: a HOME of its own, so that nothing a run caches (remembered ids) lands in the tester's.
  const env = { HOME: tempDir(), WSCTL_RETRY_BASE_MS: '10', ...options.env };
  const code = await main(args, {
    io,
    env,
    signal: options.signal ?? new AbortController().signal,
    version: '0.0.0-test',
    prompt,
    clock: options.clock,
    cwd: options.cwd,
    exitsAfter: options.exitsAfter,
  });
  return { code, stdout: out, stderr: err, prompts };
}

/** Runs the built bin/wsctl as a child process, with only the environment given (plus PATH and HOME). */
export function runBin(
  args: string[],
  options: { env?: Record<string, string | undefined>; stdin?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: options.env?.HOME ?? tempDir(), WSCTL_RETRY_BASE_MS: '10', ...options.env } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: options.cwd,
    });
    let stdout = '';
    let stderr = '';
    // Decoded as a stream: a character cut between two pipe reads stays whole.
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Ended by a signal: 128 + its number, as a shell says, and its name on stderr.
      const signalled = signal ? 128 + (osConstants.signals[signal] ?? 0) : -1;
      resolve({ code: code ?? signalled, stdout, stderr: signal ? `${stderr}[ended by ${signal}]` : stderr, prompts: [] });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

export function lastRequest(sandbox: SandboxServer) {
  const request = sandbox.requests.at(-1);
  if (!request) throw new Error('the sandbox saw no request');
  return request;
}

export const noStackTrace = (text: string) => !/\n\s+at .+:\d+:\d+/.test(text);

/** Text without ANSI colour codes. */
export const strip = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

/** A real forward proxy on 127.0.0.1: undici tunnels through it with CONNECT; `tunnels` lists the targets. */
export async function startConnectProxy(): Promise<{ url: string; tunnels: string[] }> {
  const { createServer } = await import('node:http');
  const { connect } = await import('node:net');
  const tunnels: string[] = [];
  const proxy = createServer();
  proxy.on('connect', (req, client, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    proxy.closeAllConnections();
    proxy.close();
  });
  return { url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`, tunnels };
}

// A CPU storm (dozens of wsctl processes started at once, a soak) and a check that times a
// reaction in milliseconds (Ctrl-C answered within a second) never run at the same time in two
// test files: on two cores a storm holds every other process back by seconds. The workers of one
// run share a folder (vitest.config.ts names it, test/global-setup.ts removes it); a storm yields
// to a waiting check.
const SHARED = process.env.WSCTL_TEST_SHARED ?? join(tmpdir(), `wsctl-tests-${process.ppid}`);
mkdirSync(SHARED, { recursive: true });
const marked = (kind: string) => readdirSync(SHARED).some((name) => name.startsWith(kind));
const pause = () => new Promise((resolve) => setTimeout(resolve, 25));
let marks = 0;

async function marking<T>(kind: 'storm' | 'quiet', work: () => Promise<T>): Promise<T> {
  const mark = join(SHARED, `${kind}-${process.pid}-${marks++}`);
  for (;;) {
    if (kind === 'storm') while (marked('quiet')) await pause();
    writeFileSync(mark, '');
    // Both sides mark first and look second, so at least one sees the other; the storm gives way.
    if (kind === 'quiet' || !marked('quiet')) break;
    rmSync(mark, { force: true });
  }
  try {
    if (kind === 'quiet') while (marked('storm')) await pause();
    return await work();
  } finally {
    rmSync(mark, { force: true });
  }
}

/** Starts a CPU storm (dozens of processes at once) when no timed check runs in another file. */
export const storm = <T>(work: () => Promise<T>): Promise<T> => marking('storm', work);

/** Runs a check that times a reaction when no storm runs in another file, and holds storms off meanwhile. */
export const quiet = <T>(work: () => Promise<T>): Promise<T> => marking('quiet', work);

/**
 * Runs work over items with at most `limit` at once, results in the items' order. For loops of
 * child processes that mostly wait (a pty, a server, a timer): each item must use its own state.
 */
export async function atOnce<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
