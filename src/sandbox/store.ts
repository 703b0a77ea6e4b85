// The sandbox's state: in memory, or in a JSON file shared by concurrent processes. A file store
// changes state only under a lock file and writes by atomic rename, so two invocations lose nothing
// and a killed writer leaves the previous file whole.
import { readFileSync, statSync } from 'node:fs';
import { withLock, writeFileAtomic } from '../config/atomic.js';
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

const LISTS = ['keys', 'numbers', 'addresses', 'prompts', 'connections', 'byok', 'devices', 'publications', 'websites', 'imports'] as const;
const MAPS = ['conversations', 'settings', 'personas', 'pages', 'uploads'] as const;

/** What a state file lacks that every route relies on, or undefined when it is whole. */
function missingCollection(state: unknown): string | undefined {
  if (!state || typeof state !== 'object' || Array.isArray(state)) return 'not an object';
  const s = state as Record<string, unknown>;
  if (typeof s.bootstrap_key !== 'string') return "no 'bootstrap_key'";
  for (const name of LISTS) if (!Array.isArray(s[name])) return `no '${name}' list`;
  for (const name of MAPS) if (!s[name] || typeof s[name] !== 'object' || Array.isArray(s[name])) return `no '${name}' map`;
  return undefined;
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
    return withLock(this.path, () => {
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
    });
  }

  /** The seeded state again; the bootstrap key stays, so a running `sandbox serve` keeps working. */
  async reset(): Promise<void> {
    await withLock(this.path, () => {
      let bootstrap: string | undefined;
      try {
        bootstrap = this.load().bootstrap_key;
      } catch {
        bootstrap = undefined;
      }
      const state = seedState(bootstrap);
      this.write(JSON.stringify(state), state);
    });
  }

  private load(): SandboxState {
    const text = readFileSync(this.path, 'utf8');
    const stat = statSync(this.path);
    let state: SandboxState;
    try {
      state = JSON.parse(text) as SandboxState;
    } catch {
      throw new ConfigError(`Sandbox state ${this.path} is not valid JSON. Run \`wsctl sandbox reset\` to start over; it was left untouched.`);
    }
    const missing = missingCollection(state);
    if (missing) throw new ConfigError(`Sandbox state ${this.path} is damaged (${missing}). Run \`wsctl sandbox reset\` to start over; it was left untouched.`);
    this.cache = { mtimeMs: stat.mtimeMs, size: stat.size, state };
    return state;
  }

  private write(text: string, state: SandboxState): void {
    writeFileAtomic(this.path, text);
    const stat = statSync(this.path);
    this.cache = { mtimeMs: stat.mtimeMs, size: stat.size, state };
  }
}
