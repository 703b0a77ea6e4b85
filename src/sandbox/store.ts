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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const what = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
const wrong = (path: string, value: unknown, wanted: string) =>
  value === undefined ? `${path} is missing` : `${path} is ${what(value)}, not ${wanted}`;

/** The first element of list that is not an object (or, for strings, not a string), named by its path. */
function badElement(list: unknown[], path: string, strings = false): string | undefined {
  const index = list.findIndex((item) => (strings ? typeof item !== 'string' : !isObject(item)));
  return index < 0 ? undefined : wrong(`${path}[${index}]`, list[index], strings ? 'a string' : 'an object');
}

/**
 * What in a state file the routes could not work with (a missing collection, a null element,
 * a field of the wrong type that a route reads), or undefined when it is whole: a damaged file
 * is reported as such, never met as a JavaScript error inside a route.
 */
export function damage(state: unknown): string | undefined {
  if (!isObject(state)) return 'not an object';
  if (typeof state.bootstrap_key !== 'string' || state.bootstrap_key === '') return "no 'bootstrap_key'";
  for (const name of LISTS) {
    const list = state[name];
    if (!Array.isArray(list)) return `no '${name}' list`;
    const bad = badElement(list, name, name === 'addresses');
    if (bad) return bad;
  }
  for (const name of MAPS) {
    const map = state[name];
    if (!isObject(map)) return `no '${name}' map`;
    if (name === 'settings') continue;
    for (const [key, value] of Object.entries(map)) if (!isObject(value)) return wrong(`${name}.${key}`, value, 'an object');
  }
  const fields: [map: string, field: string, check: (value: unknown) => boolean, wanted: string][] = [
    ['conversations', 'conversation', isObject, 'an object'],
    ['conversations', 'messages', Array.isArray, 'a list'],
    ['personas', 'published', Array.isArray, 'a list'],
    ['pages', 'title', (v) => typeof v === 'string', 'a string'],
    ['uploads', 'content_type', (v) => typeof v === 'string', 'a string'],
    ['uploads', 'data', (v) => typeof v === 'string', 'a string'],
  ];
  for (const [map, field, check, wanted] of fields) {
    for (const [key, value] of Object.entries(state[map] as Record<string, Record<string, unknown>>)) {
      if (!check(value[field])) return wrong(`${map}.${key}.${field}`, value[field], wanted);
    }
  }
  for (const [key, value] of Object.entries(state.conversations as Record<string, { messages: unknown[] }>)) {
    const bad = badElement(value.messages, `conversations.${key}.messages`);
    if (bad) return bad;
  }
  for (const [key, value] of Object.entries(state.personas as Record<string, { published: unknown[] }>)) {
    const bad = badElement(value.published, `personas.${key}.published`);
    if (bad) return bad;
  }
  return undefined;
}

/** What the default state file's damage asks for: the command that rewrites it. */
export const RESET_HINT = 'Run `wsctl sandbox reset` to start over';

export class FileStore implements Store {
  private cache?: { mtimeMs: number; size: number; state: SandboxState };

  /** startOver: what a damaged file's message tells to do (`sandbox reset` rewrites only the default file). */
  constructor(
    readonly path: string,
    private readonly startOver = 'Fix it, or remove it to start over from the seeded state',
  ) {}

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
      throw new ConfigError(`Sandbox state ${this.path} is not valid JSON. ${this.startOver}; it was left untouched.`);
    }
    const damaged = damage(state);
    if (damaged) throw new ConfigError(`Sandbox state ${this.path} is damaged (${damaged}). ${this.startOver}; it was left untouched.`);
    this.cache = { mtimeMs: stat.mtimeMs, size: stat.size, state };
    return state;
  }

  private write(text: string, state: SandboxState): void {
    writeFileAtomic(this.path, text);
    const stat = statSync(this.path);
    this.cache = { mtimeMs: stat.mtimeMs, size: stat.size, state };
  }
}
