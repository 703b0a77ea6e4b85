// Profiles in <config dir>/config.json. Reads take the cheap path (one readFileSync); every change
// is made under the config's lock on a fresh read and written by atomic rename (./atomic.ts), so
// concurrent invocations lose nothing. A file that does not parse is reported, never rewritten.
import { chmodSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AGENT_POLICIES, type AgentPolicy } from '../common/agent.js';
import { ConfigError, UsageError } from '../errors.js';
import { makeFolder, removeStaleTemps, withLock, writeFileAtomic } from './atomic.js';
import {
  DEFAULT_PROFILE,
  normaliseDir,
  storedKey,
  typedConfigDir,
  type ConfigData,
  type ConfigFolder,
  type Env,
  type Profile,
} from './resolve.js';
import { homedir } from '../common/builtins.js';

export { DEFAULT_PROFILE, storedKey };

export type { ConfigData, ConfigFolder, Profile };

/**
 * The config folder (WSCTL_CONFIG_DIR, else the platform's): as typed, absolute and normalised
 * (`cfg`, `cfg/` and `./cfg` are one folder), and its real path (a symbolic link to it too).
 */
export function configFolder(env: Env, platform = process.platform): ConfigFolder {
  const typed = typedConfigDir(env, platform, env.HOME || homedir());
  const path = normaliseDir(typed, process.cwd());
  return { typed, path, real: realPath(path) };
}

/** The real path of a folder that may not exist yet: its nearest existing parent's real path, and the rest as it is. */
function realPath(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...rest);
    } catch {
      if (dirname(at) === at) return path;
      rest.unshift(basename(at));
    }
  }
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`Invalid profile name '${name}': use letters, digits, '.', '_' or '-' (at most 64).`, { reason: 'invalid_input' });
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
  if (data.aliases !== undefined && (!isRecord(data.aliases) || !Object.values(data.aliases).every((v) => typeof v === 'string'))) {
    throw broken('"aliases" is not a map of strings');
  }
  if (data.accessible !== undefined && typeof data.accessible !== 'boolean') throw broken('"accessible" is not true or false');
  // A value of the wrong type is as broken as a file that does not parse (cli.md §2).
  for (const [name, profile] of Object.entries(profiles as Record<string, Record<string, unknown>>)) {
    for (const field of ['base_url', 'api_key'] as const) {
      if (profile[field] !== undefined && typeof profile[field] !== 'string')
        throw broken(`"${field}" of profile "${name}" is not a string`);
    }
    if (profile.key_storage !== undefined && profile.key_storage !== 'keyring')
      throw broken(`"key_storage" of profile "${name}" is not "keyring"`);
    if (profile.agents !== undefined && !AGENT_POLICIES.includes(profile.agents as AgentPolicy))
      throw broken(`"agents" of profile "${name}" is not one of ${AGENT_POLICIES.map((p) => `"${p}"`).join(', ')}`);
  }
  // Own keys only: a profile named "constructor" or "__proto__" is data, never Object.prototype.
  const aliases = data.aliases === undefined ? {} : { aliases: Object.fromEntries(Object.entries(data.aliases as Record<string, string>)) };
  return { ...data, profiles: Object.fromEntries(Object.entries(profiles)) as Record<string, Profile>, ...aliases } as ConfigData;
}

/** The profile of that name, own keys only. */
export function profileOf(data: ConfigData, name: string): Profile | undefined {
  return Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
}

function notAFolder(dir: string): ConfigError {
  return new ConfigError(
    `The config folder ${dir} is a file, not a folder: set WSCTL_CONFIG_DIR to a folder (it is created when missing).`,
  );
}

const WRITE_PROBLEMS: Record<string, string> = {
  EROFS: 'it is on a read-only file system',
  EACCES: 'you may not write to it',
  EPERM: 'you may not change it (is it owned by another user?)',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/** A file-system error while changing the config, as one line naming the folder and what to do. */
export function cannotWrite(dir: string, error: unknown): unknown {
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (code === 'EEXIST' || code === 'ENOTDIR') return notAFolder(dir);
  // ENOENT from mkdir with the folder above it there: that folder cannot hold folders (/proc/…), or
  // (rarely) was removed meanwhile.
  if (code === 'ENOENT' && syscall === 'mkdir')
    return new ConfigError(`Cannot create the config folder ${dir}. Set WSCTL_CONFIG_DIR to a folder you can write.`);
  const why = code ? WRITE_PROBLEMS[code] : undefined;
  if (!why) return error;
  return new ConfigError(
    `Cannot write the config folder ${dir}: ${why}. Nothing was saved. Make it writable, or set WSCTL_CONFIG_DIR to a folder you can write.`,
  );
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
    // A writer killed mid-write (kill -9) leaves a temp file holding every key: gone on read too.
    removeStaleTemps(this.path);
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { profiles: {} };
      if (code === 'ENOTDIR') throw notAFolder(this.dir);
      throw new ConfigError(
        `Cannot read config file ${this.path} (${code ?? (error as Error).message}): make it readable, or set WSCTL_CONFIG_DIR to another folder.`,
      );
    }
    this.checkMode();
    return parseConfig(text, this.path);
  }

  /** Changes the file under its lock, on a fresh read, and writes it back atomically. */
  async update(change: (data: ConfigData) => void): Promise<ConfigData> {
    try {
      this.secureDir();
      return await withLock(this.path, () => {
        const data = this.load();
        change(data);
        writeFileAtomic(this.path, `${JSON.stringify(data, null, '\t')}\n`);
        this.cached = data;
        return data;
      });
    } catch (error) {
      throw cannotWrite(this.dir, error);
    }
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
        this.warn(
          `${this.path} is readable by others (file ${mode.toString(8).padStart(4, '0')}, folder ${dir.toString(8).padStart(4, '0')}): run \`chmod 600 ${this.path}; chmod 700 ${this.dir}\`. wsctl tightens both on its next write.`,
        );
      }
    } catch {
      // nothing to check
    }
  }

  /** The folder holds secrets: create it 0700, and tighten it when it is wider. */
  secureDir(): void {
    makeFolder(this.dir);
    if (process.platform === 'win32') return;
    const mode = statSync(this.dir).mode & 0o777;
    if (mode & 0o077) {
      chmodSync(this.dir, 0o700);
      this.warn(`Tightened permissions of ${this.dir} from ${mode.toString(8).padStart(4, '0')} to 0700: it holds API keys.`);
    }
  }
}
