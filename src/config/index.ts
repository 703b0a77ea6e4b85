// Profiles in <config dir>/config.json. Reads take the cheap path (one readFileSync); every change
// is made under the config's lock on a fresh read and written by atomic rename (./atomic.ts), so
// concurrent invocations lose nothing. A file that does not parse is reported, never rewritten.
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, UsageError } from '../errors.js';
import type { Env } from '../terminal/index.js';
import { removeStaleTemps, withLock, writeFileAtomic } from './atomic.js';

export interface Profile {
  base_url?: string;
  /** A key kept in the file: with --insecure-storage, where no credential store answers, or from an earlier version. */
  api_key?: string;
  /** The key is in the OS credential store under this profile's entry. */
  key_storage?: 'keyring';
}

export interface ConfigData {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';

export function configDir(env: Env, platform = process.platform): string {
  if (env.WSCTL_CONFIG_DIR) return env.WSCTL_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'wsctl');
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'wsctl');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'wsctl');
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`Invalid profile name '${name}': use letters, digits, '.', '_' or '-' (at most 64).`);
  }
  return name;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseConfig(text: string, path: string): ConfigData {
  const broken = (why: string) =>
    new ConfigError(`Config file ${path} is not valid (${why}). Fix or remove it; wsctl leaves it untouched.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw broken('not JSON');
  }
  if (!isRecord(data)) throw broken('not an object');
  const profiles = data.profiles ?? {};
  if (!isRecord(profiles) || !Object.values(profiles).every(isRecord)) throw broken('"profiles" is not a map of objects');
  if (data.current_profile !== undefined && typeof data.current_profile !== 'string') {
    throw broken('"current_profile" is not a string');
  }
  // Own keys only: a profile named "constructor" or "__proto__" is data, never Object.prototype.
  return { ...data, profiles: Object.fromEntries(Object.entries(profiles)) as Record<string, Profile> } as ConfigData;
}

/** The profile of that name, own keys only. */
export function profileOf(data: ConfigData, name: string): Profile | undefined {
  return Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
}

export class ConfigStore {
  readonly path: string;
  private cached?: ConfigData;
  private warnedMode = false;

  constructor(
    readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.path = join(dir, 'config.json');
  }

  read(): ConfigData {
    if (this.cached) return this.cached;
    return (this.cached = this.load());
  }

  private load(): ConfigData {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
      throw new ConfigError(`Cannot read config file ${this.path}: ${(error as Error).message}`);
    }
    this.checkMode();
    return parseConfig(text, this.path);
  }

  /** Changes the file under its lock, on a fresh read, and writes it back atomically. */
  async update(change: (data: ConfigData) => void): Promise<ConfigData> {
    this.secureDir();
    return withLock(this.path, () => {
      removeStaleTemps(this.path);
      const data = this.load();
      change(data);
      writeFileAtomic(this.path, `${JSON.stringify(data, null, '\t')}\n`);
      this.cached = data;
      return data;
    });
  }

  /** A config that others can read holds keys they should not: say so when reading it. */
  private checkMode(): void {
    if (this.warnedMode || process.platform === 'win32') return;
    try {
      const file = lstatSync(this.path);
      const dir = statSync(this.dir).mode & 0o777;
      const mode = file.mode & 0o777;
      if (!file.isSymbolicLink() && (mode & 0o077 || dir & 0o077)) {
        this.warnedMode = true;
        this.warn(`${this.path} is readable by others (file ${mode.toString(8).padStart(4, '0')}, folder ${dir.toString(8).padStart(4, '0')}): run \`chmod 600 ${this.path}; chmod 700 ${this.dir}\`. wsctl tightens both on its next write.`);
      }
    } catch {
      // nothing to check
    }
  }

  /** The folder holds secrets: create it 0700, and tighten it when it is wider. */
  secureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    if (process.platform === 'win32') return;
    const mode = statSync(this.dir).mode & 0o777;
    if (mode & 0o077) {
      chmodSync(this.dir, 0o700);
      this.warn(`Tightened permissions of ${this.dir} from ${mode.toString(8).padStart(4, '0')} to 0700: it holds API keys.`);
    }
  }
}
