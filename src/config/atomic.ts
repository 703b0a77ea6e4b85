// Files that concurrent invocations share (config.json, the sandbox state): written whole by
// atomic rename of a 0600 temp file, and changed only under a lock file on a fresh read, so two
// writers lose nothing, a killed writer leaves the previous file whole, and a symlink in the
// file's place is replaced, never written through.
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../errors.js';

// Long enough for a holder starved of CPU by many parallel invocations; a live holder is only waited for.
const LOCK_WAIT_MS = 60_000;
/** A temp file older than any write could take is left over, whatever its pid says (pids are reused). */
const STALE_MS = 60_000;

function tempPrefix(path: string): string {
  return `${basename(path)}.tmp-`;
}

/**
 * Makes a folder and those above it, 0700. Not mkdirSync's recursive mode: where a folder cannot be
 * made it says ENOENT (a read-only file system) or never returns (under /proc); this says why.
 * Another process may make any of them meanwhile: a folder found made is as good as one made.
 */
export function makeFolder(dir: string): void {
  if (madeOrFound(dir)) return;
  makeFolder(dirname(dir));
  // ENOENT again with its parent there: a folder that cannot hold folders (/proc), or a parent
  // removed meanwhile. mkdir's error is thrown as it comes.
  if (!madeOrFound(dir)) mkdirSync(dir, { mode: 0o700 });
}

/** Makes one folder, 0700: true when it is there now, false on ENOENT (its parent is missing, or cannot hold folders). */
function madeOrFound(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Something else in its place (a file, a symlink to nowhere) is the EEXIST it is.
    if (code === 'EEXIST' && statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return true;
    if (code === 'ENOENT' && dirname(dir) !== dir) return false;
    throw error;
  }
}

/**
 * Writes text to path by rename: readers see the old file or the new one, never half of one.
 * `durable: false` skips the fsync, for a file wsctl can do without (the ids it remembers): not
 * worth waiting for the disk, where a journal commit also flushes other files' data. After a
 * crash such a file may be empty, which its reader takes for none.
 */
export function writeFileAtomic(path: string, text: string, { durable = true } = {}): void {
  makeFolder(dirname(path));
  const temp = join(dirname(path), `${tempPrefix(path)}${process.pid}-${Math.random().toString(36).slice(2)}`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    if (durable) fsyncSync(fd);
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

// A lock file holds "<pid> <random token>", written whole before it appears (a hard link of a
// finished temp file), so a reader never sees it half-written. One lock instance is told from
// another by its token, never by its pid alone: a pid read earlier may belong to a later holder.

/** Unique, not secret (node:crypto would load WebCrypto on every start-up). */
function randomHex(): string {
  return `${Math.random().toString(16).slice(2)}${process.hrtime.bigint().toString(16)}`;
}

function newToken(): string {
  return `${process.pid} ${randomHex()}`;
}

/** Creates path holding text, or returns false when it exists; never a half-written file. */
function createWith(path: string, text: string): boolean {
  const temp = `${path}.${randomHex()}.new`;
  writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The holder named in a lock's text is provably gone: its process no longer exists. */
function holderGone(text: string): boolean {
  const pid = Number(text.split(' ')[0]);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid);
}

/** The random part of a lock's text, which names its instance; null for a text wsctl did not write. */
function instanceName(text: string): string | null {
  return /^\d+ ([0-9a-f]{1,32})$/.exec(text)?.[1] ?? null;
}

// Each level of breakers adds at most 39 characters to a file name: four stay within the 255 a name
// may have, with the temp file that creates the last.
const MAX_BREAKER_DEPTH = 3;

/**
 * Removes the instance of path (a lock, or a breaker's file) that seen names, whose holder is gone.
 * Its breakers take turns under <path>.break-<instance>, and re-read path under it: only a holder
 * removes its own file, and a gone holder never will, so the instance seen there is the one
 * removed. A breaker killed in its turn leaves its file, which is broken the same way, one level
 * down. A breaker's file names the one instance it breaks, so none is ever moved aside and put
 * back, where a third breaker could take its place meanwhile.
 */
function breakStale(path: string, seen: string, depth = 0): void {
  const instance = instanceName(seen);
  if (instance === null || depth > MAX_BREAKER_DEPTH) return;
  const breaker = `${path}.break-${instance}`;
  const mine = newToken();
  if (!createWith(breaker, mine)) {
    const other = readOrNull(breaker);
    if (other !== null && holderGone(other)) breakStale(breaker, other, depth + 1);
    return;
  }
  try {
    if (readOrNull(path) === seen) rmSync(path, { force: true });
  } finally {
    if (readOrNull(breaker) === mine) rmSync(breaker, { force: true });
  }
}

/** Runs work while holding <path>.lock. A lock is taken over only when its holder is gone, never by age. */
export async function withLock<T>(path: string, work: () => T | Promise<T>): Promise<T> {
  const lockPath = `${path}.lock`;
  makeFolder(dirname(path));
  const deadline = Date.now() + LOCK_WAIT_MS;
  const token = newToken();
  while (!createWith(lockPath, token)) {
    const seen = readOrNull(lockPath);
    const gone = seen !== null && holderGone(seen);
    if (gone) breakStale(lockPath, seen);
    if (Date.now() > deadline)
      throw new ConfigError(
        gone
          ? `${path} stayed locked for ${LOCK_WAIT_MS / 1000} s: ${lockPath} names a process that is gone, in a form wsctl cannot take over; remove that file.`
          : `${path} stayed locked for ${LOCK_WAIT_MS / 1000} s by a running wsctl (${lockPath}); try again once it has finished.`,
      );
    await sleep(5 + Math.random() * 20);
  }
  try {
    return await work();
  } finally {
    // Ours to remove: nobody takes over a live holder's lock.
    if (readOrNull(lockPath) === token) rmSync(lockPath, { force: true });
  }
}
