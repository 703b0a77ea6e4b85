// Profiles in <config dir>/config.json. Reads take the cheap path (one readFileSync); writes go
// through conf, which writes atomically with mode 0600. A file that does not parse is reported
// and never rewritten.
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, UsageError } from './errors.js';
import type { Env } from './output.js';

export interface Profile {
  base_url?: string;
  api_key?: string;
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
  return { ...data, profiles: profiles as Record<string, Profile> } as ConfigData;
}

export class ConfigStore {
  readonly path: string;
  private cached?: ConfigData;

  constructor(
    readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.path = join(dir, 'config.json');
  }

  read(): ConfigData {
    if (this.cached) return this.cached;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return (this.cached = { profiles: {} });
      throw new ConfigError(`Cannot read config file ${this.path}: ${(error as Error).message}`);
    }
    return (this.cached = parseConfig(text, this.path));
  }

  /** Read, change and write back the whole file atomically. */
  async update(change: (data: ConfigData) => void): Promise<ConfigData> {
    const data = structuredClone(this.read());
    change(data);
    this.secureDir();
    const { default: Conf } = await import('conf');
    const conf = new Conf<Record<string, unknown>>({
      cwd: this.dir,
      configName: 'config',
      projectSuffix: '',
      configFileMode: 0o600,
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
    });
    conf.store = data as unknown as Record<string, unknown>;
    chmodSync(this.path, 0o600);
    this.cached = data;
    return data;
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
