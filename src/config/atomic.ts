// Files that concurrent invocations share (config.json, the sandbox state): written whole by
// atomic rename of a 0600 temp file, and changed only under a lock file on a fresh read, so two
// writers lose nothing, a killed writer leaves the previous file whole, and a symlink in the
// file's place is replaced, never written through.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../errors.js';

const LOCK_WAIT_MS = 15_000;
/** Older than any write could take: its holder is gone. */
const STALE_MS = 10_000;

function tempPrefix(path: string): string {
  return `${basename(path)}.tmp-`;
}

/** Writes text to path by rename: readers see the old file or the new one, never half of one. */
export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = join(dirname(path), `${tempPrefix(path)}${process.pid}-${Math.random().toString(36).slice(2)}`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
}

/** Temp files left by a writer that was killed mid-write: they may hold secrets. */
export function removeStaleTemps(path: string, now = Date.now()): void {
  const prefix = tempPrefix(path);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const temp = join(dirname(path), name);
    try {
      const pid = Number(name.slice(prefix.length).split('-')[0]);
      if ((pid > 0 && !isAlive(pid)) || now - statSync(temp).mtimeMs > STALE_MS) rmSync(temp, { force: true });
    } catch {
      // gone already
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock whose holder died (kill -9) or that is older than any write could take. */
function lockIsStale(lockPath: string): boolean {
  try {
    const holder = Number(readFileSync(lockPath, 'utf8'));
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && !isAlive(holder)) return true;
    return Date.now() - statSync(lockPath).mtimeMs > STALE_MS;
  } catch {
    return false; // released between our two calls, or still being written
  }
}

/** Runs work while holding <path>.lock; a stale lock is taken over. */
export async function withLock<T>(path: string, work: () => T | Promise<T>): Promise<T> {
  const lockPath = `${path}.lock`;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lockIsStale(lockPath)) rmSync(lockPath, { force: true });
    if (Date.now() > deadline) throw new ConfigError(`${path} stayed locked for ${LOCK_WAIT_MS / 1000} s (${lockPath}); if no wsctl is running, remove the lock file.`);
    await sleep(5 + Math.random() * 20);
  }
  try {
    return await work();
  } finally {
    rmSync(lockPath, { force: true });
  }
}
