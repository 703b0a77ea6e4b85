// `sandbox serve --detach` and `sandbox stop`: a server in its own session, started by this
// process and found again through <config dir>/sandbox-serve.json. Starting and stopping happen
// under one lock, so parallel starts leave one server; a recorded pid is signalled only once the
// process is proven to be that server (its start time, and the nonce it tells its starter).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Ctx } from '../../verbs/declare.js';
import { withLock, writeFileAtomic } from '../../config/atomic.js';
import { UsageError, WsctlError } from '../../errors.js';
import { sleep } from '../../common/builtins.js';

export interface Detached {
  pid: number;
  url: string;
  key: string;
  log: string;
  /** The state file it serves. */
  state: string;
  /** Made by the server at its start; it tells it only to a holder of its key. */
  nonce: string;
  /** The process's start time from /proc (clock ticks since boot), where there is a /proc. */
  start?: string;
}

interface Identity {
  pid: number;
  nonce: string;
  state: string | null;
}

const STARTUP_MS = 10_000;
const STOP_MS = 5_000;

export function serverFile(configDir: string): string {
  return join(configDir, 'sandbox-serve.json');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // An exited server that nobody has reaped yet (its parent is gone) still answers kill(0).
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** When the process started (field 22 of /proc/<pid>/stat), or undefined where that cannot be read. */
export function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function readRecord(configDir: string): Partial<Detached> | undefined {
  try {
    const record = JSON.parse(readFileSync(serverFile(configDir), 'utf8')) as unknown;
    return record && typeof record === 'object' ? (record as Partial<Detached>) : undefined;
  } catch {
    return undefined;
  }
}

/** What the server at url says about itself, asked with its key; undefined when nothing (or not a sandbox) answers. */
async function identity(url: string, key: string): Promise<Identity | undefined> {
  try {
    const answer = await fetch(`${url}/__sandbox/identity`, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(2000),
    });
    if (!answer.ok) return undefined;
    const body = (await answer.json()) as Partial<Identity>;
    if (typeof body.pid !== 'number' || typeof body.nonce !== 'string') return undefined;
    return { pid: body.pid, nonce: body.nonce, state: typeof body.state === 'string' ? body.state : null };
  } catch {
    return undefined;
  }
}

/** The same process as when it was recorded: alive, and started when it was (where /proc says). */
function sameProcess(record: Detached): boolean {
  if (!alive(record.pid)) return false;
  const now = startTime(record.pid);
  return now === undefined || now === record.start;
}

/**
 * The recorded server, if it is proven to be running: its pid holds the process that was
 * started, and the server at its URL answers with its key, that pid and the nonce it made at
 * its start. A reused pid, or another server on the same port with the same key, proves nothing.
 */
async function proven(record: Partial<Detached> | undefined): Promise<Detached | undefined> {
  if (
    !record ||
    !Number.isInteger(record.pid) ||
    typeof record.url !== 'string' ||
    typeof record.key !== 'string' ||
    typeof record.nonce !== 'string'
  )
    return undefined;
  const server = record as Detached;
  if (!sameProcess(server)) return undefined;
  const said = await identity(server.url, server.key);
  return said && said.pid === server.pid && said.nonce === server.nonce ? { ...server, state: said.state ?? server.state } : undefined;
}

async function start(ctx: Ctx, opts: { port?: number; host: string; statePath: string }): Promise<Detached> {
  ctx.config.secureDir();
  const log = join(ctx.config.dir, 'sandbox-serve.log');
  const logFd = openSync(log, 'a', 0o600);
  const bin = process.argv[1] ?? '';
  // Without --port the server takes this config folder's previous port itself, when free.
  const port = opts.port === undefined ? [] : ['--port', String(opts.port)];
  const child = spawn(process.execPath, [bin, 'sandbox', 'serve', ...port, '--host', opts.host, '--state', opts.statePath], {
    detached: true,
    stdio: ['ignore', 'pipe', logFd],
    env: { ...ctx.env, WSCTL_CONFIG_DIR: ctx.config.dir } as NodeJS.ProcessEnv,
  });
  closeSync(logFd);
  const lines = await new Promise<string[]>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new WsctlError(`The sandbox server did not start within ${STARTUP_MS / 1000} s; see ${log}.`)),
      STARTUP_MS,
    );
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      text += chunk;
      const got = text.split('\n');
      if (got.length > 3) {
        clearTimeout(timer);
        resolve(got.slice(0, 2));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new WsctlError(`The sandbox server exited at start (code ${code}); see ${log}.`));
    });
  });
  child.removeAllListeners('exit');
  child.stdout?.destroy();
  child.unref();
  const pid = child.pid as number;
  const url = (lines[0] ?? '').replace(/^WSCTL_BASE_URL=/, '');
  const key = (lines[1] ?? '').replace(/^WSCTL_API_KEY=/, '');
  const said = await identity(url, key);
  if (!said || said.pid !== pid) {
    try {
      process.kill(pid, 'SIGINT'); // our own child, which we cannot record: not left behind
    } catch {
      // gone already
    }
    throw new WsctlError(`The sandbox server started on ${url} but does not answer as the process started (pid ${pid}); see ${log}.`);
  }
  const server: Detached = { pid, url, key, log, state: said.state ?? opts.statePath, nonce: said.nonce, start: startTime(pid) };
  writeFileAtomic(serverFile(ctx.config.dir), JSON.stringify(server));
  return server;
}

/** The server for this config folder: the one running (same state file), else a new one. */
export async function detach(ctx: Ctx, opts: { port?: number; host: string; statePath: string }): Promise<Detached> {
  return withLock(serverFile(ctx.config.dir), async () => {
    const running = await proven(readRecord(ctx.config.dir));
    if (!running) return start(ctx, opts);
    if (running.state !== opts.statePath) {
      throw new UsageError(
        `A sandbox server for this config folder already runs on ${running.url} with state ${running.state}. Stop it first (\`wsctl sandbox stop\`), or use that state file.`,
      );
    }
    return running;
  });
}

/** The recorded server, proven to be running, for `sandbox stop --dry-run`: no lock taken, nothing removed. */
export async function running(configDir: string): Promise<Detached | undefined> {
  return proven(readRecord(configDir));
}

export type Stopped = { stopped: Detached } | { unproven: { pid?: number; url?: string } } | undefined;

/** Stops the detached server: Ctrl-C's signal first, then a kill after 5 s, each only while the pid is proven to be it. */
export async function stop(configDir: string): Promise<Stopped> {
  // Nothing recorded, nothing to stop: no config folder is made for it (nor fails to be, under /proc).
  if (!existsSync(serverFile(configDir))) return undefined;
  return withLock(serverFile(configDir), async () => {
    const record = readRecord(configDir);
    if (!record) return undefined;
    const server = await proven(record);
    rmSync(serverFile(configDir), { force: true });
    if (!server)
      return Number.isInteger(record.pid) && alive(record.pid as number) ? { unproven: { pid: record.pid, url: record.url } } : undefined;
    process.kill(server.pid, 'SIGINT');
    for (let waited = 0; sameProcess(server) && waited < STOP_MS; waited += 50) await sleep(50);
    if (sameProcess(server)) {
      // Where there is no /proc to tell a reused pid, the server itself must still answer.
      const stillIt = startTime(server.pid) !== undefined || (await identity(server.url, server.key))?.nonce === server.nonce;
      if (!stillIt)
        throw new WsctlError(
          `The sandbox server (pid ${server.pid}) did not stop within ${STOP_MS / 1000} s, and it is no longer certain that pid is it: not killed.`,
        );
      process.kill(server.pid, 'SIGKILL');
    }
    return { stopped: server };
  });
}
