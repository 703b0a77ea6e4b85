// The sandbox's state: in memory, or in a JSON file shared by concurrent processes. A file store
// changes state only under a lock file and writes by atomic rename, so two invocations lose nothing
// and a killed writer leaves the previous file whole.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../errors.js';
import { seedState, type SandboxState } from './seed.js';

export interface Store {
  /** The current state, for reading only. */
  read(): Promise<SandboxState>;
  /** Runs change on the current state and saves what it leaves. */
  transact<T>(change: (state: SandboxState) => T): Promise<T>;
  reset(): Promise<void>;
}

export class MemoryStore implements Store {
  constructor(private state: SandboxState = seedState()) {}
  async read() {
    return this.state;
  }
  async transact<T>(change: (state: SandboxState) => T) {
    return change(this.state);
  }
  async reset() {
    this.state = seedState();
  }
}

const LOCK_WAIT_MS = 15_000;
const LOCK_STALE_MS = 10_000;

/** A lock whose holder died (kill -9) or that is older than any write could take. */
function lockIsStale(lockPath: string): boolean {
  try {
    const holder = Number(readFileSync(lockPath, 'utf8'));
    if (Number.isInteger(holder) && holder > 0) {
      try {
        process.kill(holder, 0);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
      }
    }
    return Date.now() - statSync(lockPath).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false; // released between our two calls, or still being written
  }
}

export class FileStore implements Store {
  private cache?: { mtimeMs: number; size: number; state: SandboxState };

  constructor(readonly path: string) {}

  async read(): Promise<SandboxState> {
    let stat;
    try {
      stat = statSync(this.path);
    } catch {
      return this.transact((state) => state);
    }
    if (this.cache && this.cache.mtimeMs === stat.mtimeMs && this.cache.size === stat.size) return this.cache.state;
    return this.load();
  }

  async transact<T>(change: (state: SandboxState) => T): Promise<T> {
    const release = await this.lock();
    try {
      let state: SandboxState;
      try {
        state = this.load();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        state = seedState();
      }
      const result = change(state);
      this.write(JSON.stringify(state), state);
      return result;
    } finally {
      release();
    }
  }

  async reset(): Promise<void> {
    const release = await this.lock();
    try {
      const state = seedState();
      this.write(JSON.stringify(state), state);
    } finally {
      release();
    }
  }

  private load(): SandboxState {
    const text = readFileSync(this.path, 'utf8');
    const stat = statSync(this.path);
    let state: SandboxState;
    try {
      state = JSON.parse(text) as SandboxState;
      if (!state || typeof state !== 'object' || !Array.isArray(state.keys)) throw new Error('shape');
    } catch {
      throw new ConfigError(`Sandbox state ${this.path} is not valid JSON. Run \`wsctl sandbox reset\` to start over; it was left untouched.`);
    }
    this.cache = { mtimeMs: stat.mtimeMs, size: stat.size, state };
    return state;
  }

  private write(text: string, state: SandboxState): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.path);
    const stat = statSync(this.path);
    this.cache = { mtimeMs: stat.mtimeMs, size: stat.size, state };
  }

  private async lock(): Promise<() => void> {
    const lockPath = `${this.path}.lock`;
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const fd = openSync(lockPath, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return () => rmSync(lockPath, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (lockIsStale(lockPath)) rmSync(lockPath, { force: true });
      if (Date.now() > deadline) throw new ConfigError(`Sandbox state ${this.path} stayed locked for ${LOCK_WAIT_MS / 1000} s (${lockPath}).`);
      await sleep(5 + Math.random() * 20);
    }
  }
}
