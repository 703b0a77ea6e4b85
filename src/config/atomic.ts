// Files that concurrent invocations share (config.json, the ids cache, the sandbox state): written
// whole by atomic rename of a 0600 temp file, and changed only under a lock file on a fresh read,
// so two writers lose nothing, a killed writer leaves the previous file whole, and a symlink in
// the file's place is replaced, never written through.
import {
  closeSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../errors.js';
import { sleep } from '../common/builtins.js';

// Long enough for a holder starved of CPU by many parallel invocations; a live holder is only waited for.
const LOCK_WAIT_MS = 60_000;
/** How long one lock must have stayed, past the wait, to be reported: a take-over takes milliseconds. */
const SAME_LOCK_MS = 2_000;
/** A temp file older than any write could take is left over, whatever its pid says (pids are reused). */
const STALE_MS = 60_000;

function tempPrefix(path: string): string {
  return `${basename(path)}.tmp-`;
}

/**
 * Makes a folder and those above it, 0700 unless told. Not mkdirSync's recursive mode: where a
 * folder cannot be made it says ENOENT (a read-only file system) or never returns (under /proc);
 * this says why. Another process may make any of them meanwhile: a folder found made is as good as
 * one made.
 */
export function makeFolder(dir: string, mode = 0o700): void {
  if (madeOrFound(dir, mode)) return;
  makeFolder(dirname(dir), mode);
  // ENOENT again with its parent there: a folder that cannot hold folders (/proc), or a parent
  // removed meanwhile. mkdir's error is thrown as it comes.
  if (!madeOrFound(dir, mode)) mkdirSync(dir, { mode });
}

/** Makes one folder: true when it is there now, false on ENOENT (its parent is missing, or cannot hold folders). */
function madeOrFound(dir: string, mode: number): boolean {
  try {
    mkdirSync(dir, { mode });
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
// Only a crash leaves one empty (or NULs, on some file systems): a lock's temp is not flushed to
// disk before it is linked, a breaker's is.

/** Unique, not secret (node:crypto would load WebCrypto on every start-up). */
function randomHex(): string {
  return `${Math.random().toString(16).slice(2)}${process.hrtime.bigint().toString(16)}`;
}

function newToken(): string {
  return `${process.pid} ${randomHex()}`;
}

/** createWith's temp beside path: `<path>.<pid>-<random>.new`; LINK_TEMP reads the pid back. */
function linkTemp(path: string): string {
  return `${path}.${process.pid}-${Math.random().toString(36).slice(2, 8)}.new`;
}
const LINK_TEMP = /\.(\d+)-[0-9a-z]+\.new$/;

/** Creates path holding text, or returns false when it exists; never a half-written file, nor an empty one after a crash when durable. */
function createWith(path: string, text: string, { durable = false } = {}): boolean {
  const temp = linkTemp(path);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      writeSync(fd, text);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
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

/** What a lock that is there but cannot be read (another user's, a folder, a symlink to nowhere) is seen as, with the reason. */
const UNREADABLE = '\0unreadable\0';

/** The lock's text; null when there is none. */
function readLock(lockPath: string): string | null {
  try {
    return readFileSync(lockPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return `${UNREADABLE}${code ?? 'unknown'}`;
    return lstatSync(lockPath, { throwIfNoEntry: false })?.isSymbolicLink() ? `${UNREADABLE}a symlink to nowhere` : null;
  }
}

/** A text only a crash leaves: nothing, or NULs where the text never reached the disk. */
function crashLeft(text: string): boolean {
  return /^\0*$/.test(text);
}

/** The holder named in a lock's text is provably gone: its process no longer exists. */
function holderGone(text: string): boolean {
  const pid = Number(text.split(' ')[0]);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid);
}

/** A lock (or a breaker's file) that nobody will remove: its writer is gone, or a crash left it empty. */
function abandoned(text: string): boolean {
  return crashLeft(text) || holderGone(text);
}

/**
 * What tells a lock's instance from every other: its token's random part; "empty" for the one lock
 * a crash left empty (a breaker's file, flushed before it is linked, never is); null for a text
 * wsctl did not write.
 */
function instanceName(text: string): string | null {
  if (crashLeft(text)) return 'empty';
  return /^\d+ ([0-9a-f]{1,32})$/.exec(text)?.[1] ?? null;
}

/** Longer chains of breakers' files than killed breakers can leave are hand-made, and could loop. */
const MAX_BREAKERS = 16;

/**
 * Removes path (the lock, or a breaker's file) if it still holds seen, which was abandoned.
 * Breakers of one instance take turns under <lock>.break-<instance> and re-read path there: while
 * that instance is the lock, only its writer would remove it (the lock's next holder clears
 * leftovers only once it is not), and an abandoned writer never will, so what they read is what
 * they remove. A breaker killed in its turn leaves its own file, which is broken the same way.
 */
function breakStale(lockPath: string, path: string, seen: string, chain = 0): void {
  const instance = instanceName(seen);
  const breaker = `${lockPath}.break-${instance}`;
  if (instance === null || breaker === path || chain > MAX_BREAKERS) return;
  const mine = newToken();
  let turn: boolean;
  try {
    turn = createWith(breaker, mine, { durable: true });
  } catch (error) {
    // A name too long for the file system: the lock is left to the wait, which names it.
    if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') return;
    throw error;
  }
  if (!turn) {
    const other = readOrNull(breaker);
    if (other !== null && abandoned(other)) breakStale(lockPath, breaker, other, chain + 1);
    return;
  }
  try {
    if (readOrNull(path) === seen) rmSync(path, { force: true });
  } finally {
    if (readOrNull(breaker) === mine) rmSync(breaker, { force: true });
  }
}

/** A breaker's file (or an older wsctl's `<lock>.break`) whose writer is gone. */
function leftoverBreaker(file: string, suffix: string): boolean {
  if (!/^break(-[0-9a-z]+)?$/.test(suffix)) return false;
  const text = readOrNull(file);
  return text !== null && abandoned(text);
}

/**
 * A temp file whose writer is gone. Never by age: its writer may only be stopped (Ctrl-Z). An
 * older wsctl's temps have no pid in their names, and stay: nothing tells a left one from a live one.
 */
function leftoverTemp(file: string): boolean {
  const pid = Number(LINK_TEMP.exec(file)?.[1]);
  return pid > 0 && !isAlive(pid);
}

/**
 * Removes what killed lockers left beside the lock. Run while the lock is ours: each of those
 * concerns an instance that is no longer the lock, so removing it changes nothing anyone relies on.
 */
function removeLeftovers(lockPath: string): void {
  const dir = dirname(lockPath);
  const prefix = `${basename(lockPath)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const file = join(dir, name);
    try {
      if (leftoverBreaker(file, name.slice(prefix.length)) || leftoverTemp(file)) rmSync(file, { force: true });
    } catch {
      // gone already
    }
  }
}

/** The locks whose leftovers this process has removed. */
const swept = new Set<string>();

function lockedTooLong(path: string, lockPath: string, seen: string): ConfigError {
  const wait = `${path} stayed locked for ${LOCK_WAIT_MS / 1000} s`;
  if (seen.startsWith(UNREADABLE))
    return new ConfigError(`${wait}: ${lockPath} cannot be read (${seen.slice(UNREADABLE.length)}); if no wsctl is running, remove it.`);
  if (instanceName(seen) !== null && !abandoned(seen)) {
    const pid = seen.split(' ')[0];
    return new ConfigError(
      `${wait} by process ${pid} (${lockPath}): try again once it has finished, or remove that file if it is not a wsctl.`,
    );
  }
  return new ConfigError(`${wait}: ${lockPath} is not held by a running wsctl, and could not be taken over; remove that file.`);
}

/** Runs work while holding <path>.lock. A lock is taken over only when its holder is gone, never by age. */
export async function withLock<T>(path: string, work: () => T | Promise<T>): Promise<T> {
  const lockPath = `${path}.lock`;
  makeFolder(dirname(path));
  const deadline = Date.now() + LOCK_WAIT_MS;
  const token = newToken();
  let last: string | null = null;
  let lastSince = Date.now();
  while (!createWith(lockPath, token)) {
    const seen = readLock(lockPath);
    if (seen !== last) [last, lastSince] = [seen, Date.now()];
    if (seen !== null && abandoned(seen)) breakStale(lockPath, lockPath, seen);
    // Given up past the wait only on a lock seen for a while: one being taken over, or passed to
    // another holder, is tried again.
    if (seen !== null && Date.now() > deadline && Date.now() - lastSince > SAME_LOCK_MS) throw lockedTooLong(path, lockPath, seen);
    await sleep(5 + Math.random() * 20);
  }
  try {
    return await work();
  } finally {
    // Once per lock and process: a `wsctl mcp` takes the ids cache's lock on every call.
    if (!swept.has(lockPath)) {
      swept.add(lockPath);
      removeLeftovers(lockPath);
    }
    // Ours to remove: nobody takes over a live holder's lock.
    if (readOrNull(lockPath) === token) rmSync(lockPath, { force: true });
  }
}
