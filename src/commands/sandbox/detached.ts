// `sandbox serve --detach` and `sandbox stop`: a server in its own session, started by this
// process and found again through <config dir>/sandbox-serve.json (its pid and URL).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ctx } from '../../command.js';
import { writeFileAtomic } from '../../config/atomic.js';
import { WsctlError } from '../../errors.js';

export interface Detached {
  pid: number;
  url: string;
  key: string;
  log: string;
}

const STARTUP_MS = 10_000;

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

/** The server the file names, if its process lives and it answers with its own key (a pid can be reused). */
export async function runningServer(configDir: string): Promise<Detached | undefined> {
  let server: Detached;
  try {
    server = JSON.parse(readFileSync(serverFile(configDir), 'utf8')) as Detached;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(server.pid) || !alive(server.pid)) return undefined;
  try {
    const answer = await fetch(`${server.url}/api-keys/`, { headers: { authorization: `Bearer ${server.key}` }, signal: AbortSignal.timeout(2000) });
    return answer.ok ? server : undefined;
  } catch {
    return undefined;
  }
}

export async function detach(ctx: Ctx, opts: { port: number; host: string; statePath: string }): Promise<Detached> {
  const running = await runningServer(ctx.config.dir);
  if (running) return running;
  ctx.config.secureDir();
  const log = join(ctx.config.dir, 'sandbox-serve.log');
  const logFd = openSync(log, 'a', 0o600);
  const bin = process.argv[1] ?? '';
  const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', String(opts.port), '--host', opts.host, '--state', opts.statePath], {
    detached: true,
    stdio: ['ignore', 'pipe', logFd],
    env: { ...ctx.env, WSCTL_CONFIG_DIR: ctx.config.dir } as NodeJS.ProcessEnv,
  });
  closeSync(logFd);
  const lines = await new Promise<string[]>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new WsctlError(`The sandbox server did not start within ${STARTUP_MS / 1000} s; see ${log}.`)), STARTUP_MS);
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
  const server: Detached = {
    pid: child.pid as number,
    url: (lines[0] ?? '').replace(/^WSCTL_BASE_URL=/, ''),
    key: (lines[1] ?? '').replace(/^WSCTL_API_KEY=/, ''),
    log,
  };
  writeFileAtomic(serverFile(ctx.config.dir), JSON.stringify(server));
  return server;
}

/** Stops the detached server: Ctrl-C's signal first, then a kill after 5 s. */
export async function stop(configDir: string): Promise<Detached | undefined> {
  const server = await runningServer(configDir);
  rmSync(serverFile(configDir), { force: true });
  if (!server) return undefined;
  process.kill(server.pid, 'SIGINT');
  for (let waited = 0; alive(server.pid) && waited < 5000; waited += 50) await sleep(50);
  if (alive(server.pid)) process.kill(server.pid, 'SIGKILL');
  return server;
}
