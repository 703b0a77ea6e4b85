// Which service a command talks to, with which key, and where that key lives: one pure function
// over flags, environment and config (cli.md §1, §2), so every command, `auth *` and --dry-run
// agree. No I/O here: config.json is read through the thunk only when flags and environment
// leave something open, and the credential store is only named, never asked.
import { isAbsolute, resolve as resolvePath } from 'node:path';
import type { AgentPolicy } from '../agent.js';
import { UsageError } from '../errors.js';

export const DEFAULT_PROFILE = 'default';

export type Env = Record<string, string | undefined>;

export interface Profile {
  base_url?: string;
  /** A key kept in the file: with --insecure-storage, where no credential store answers, or from an earlier version. */
  api_key?: string;
  /** The key is in the OS credential store under this profile's entry. */
  key_storage?: 'keyring';
  /** What an AI agent may do with this profile (cli.md §11); `full` when absent. */
  agents?: AgentPolicy;
}

/** Where a profile keeps its key: in config.json (which wins, as for an older version's file), in the credential store, or nowhere. */
export function storedKey(profile: Profile | undefined): 'file' | 'keyring' | undefined {
  return profile?.api_key ? 'file' : profile?.key_storage === 'keyring' ? 'keyring' : undefined;
}

export interface ConfigData {
  current_profile?: string;
  profiles: Record<string, Profile>;
  /** `wsctl alias set`: name → the command line it stands for (cli.md §5). */
  aliases?: Record<string, string>;
}

/** The credential-store entry of one profile of one config folder. */
export interface StoreEntry {
  /** `wsctl:<absolute, normalised config folder>`. */
  service: string;
  /** The profile name. */
  account: string;
  /** Service names an earlier version may have written for the same folder (the folder as typed). */
  legacy: string[];
}

export type KeyPlace =
  /** WSCTL_API_KEY: the store is never touched. */
  | { source: 'env'; key: string }
  /** In config.json (--insecure-storage, no store, or an earlier version). */
  | { source: 'file'; key: string }
  /** In the credential store, under entry. */
  | { source: 'keyring' }
  | { source: 'sandbox' }
  | { source: 'none' };

/** Where the profile in effect came from (cli.md §2). */
export type ProfileSource = 'flag' | 'env' | 'pin' | 'current' | 'default';

/** A `.wsctl-profile` found above the working folder: its absolute path and what it holds. */
export interface PinFile {
  path: string;
  text: string;
}

export interface ChosenProfile {
  name: string;
  source: ProfileSource;
  /** The pin's absolute path, when source is 'pin'. */
  pinFile?: string;
}

export interface Resolution {
  sandbox: boolean;
  profile: string;
  /** Where the profile came from; undefined under --sandbox, which uses no profile. */
  profileSource?: ProfileSource;
  pinFile?: string;
  /** Whether config.json has this profile (undefined when config.json was not read). */
  profileExists?: boolean;
  /** Named with --profile or WSCTL_PROFILE. */
  profileNamed: boolean;
  baseUrl?: string;
  baseUrlSource?: 'flag' | 'env' | 'profile';
  key: KeyPlace;
  /** The profile's entry in the credential store, whether or not it holds the key. */
  entry: StoreEntry;
}

export interface ResolveInput {
  flags: { profile?: string; baseUrl?: string; sandbox?: boolean };
  env: Env;
  /** The config folder, absolute and normalised (configDir()). */
  configDir: string;
  /** config.json, read only when needed. */
  config: () => ConfigData;
  /** The nearest `.wsctl-profile` from the working folder up, read only when no flag or variable names the profile. */
  pin?: () => PinFile | undefined;
}

/** `1/true/yes/on` and `0/false/no/off/empty`, in any case; anything else is exit 2 naming the variable. */
export function envFlag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined) return false;
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(value)) return false;
  throw new UsageError(`Invalid ${name} '${raw}': use 1, true, yes or on to turn it on, or 0, false, no, off or empty to turn it off.`);
}

/** A boolean variable that must not fail (error reporting before anything runs): on only when clearly on. */
export function envFlagLenient(env: Env, name: string): boolean {
  try {
    return envFlag(env, name);
  } catch {
    return false;
  }
}

/** A whole number from a test-only variable, within bounds, else exit 2 naming it; undefined when unset. */
export function envNumber(env: Env, name: string, min: number, max: number, unit: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`Invalid ${name} '${raw}': give a whole number of ${unit} from ${min} to ${max}.`);
  return value;
}

/** The config folder as typed (WSCTL_CONFIG_DIR) or the platform default; not yet made absolute. */
export function typedConfigDir(env: Env, platform: NodeJS.Platform, home: string): string {
  if (env.WSCTL_CONFIG_DIR) return env.WSCTL_CONFIG_DIR;
  const join = (...parts: string[]) => parts.join(platform === 'win32' ? '\\' : '/');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'wsctl');
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'wsctl');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'wsctl');
}

/** The folder as one absolute, normalised path: `cfg`, `cfg/` and `./cfg` are the same folder. */
export function normaliseDir(typed: string, cwd: string): string {
  return resolvePath(cwd, typed);
}

/**
 * The entry of a profile of a config folder. Earlier versions named it from the folder as typed,
 * so the spellings of that folder someone may have typed are kept as legacy names to find and move.
 */
export function storeEntry(dir: string, profile: string, typed?: string): StoreEntry {
  const service = `wsctl:${dir}`;
  const spellings = new Set<string>();
  if (typed !== undefined) {
    spellings.add(typed);
    const bare = typed.replace(/[/\\]+$/, '');
    if (bare) {
      spellings.add(bare);
      spellings.add(`${bare}/`);
      if (!isAbsolute(bare)) {
        const plain = bare.replace(/^(?:\.[/\\])+/, '');
        for (const s of [plain, `${plain}/`, `./${plain}`, `./${plain}/`]) spellings.add(s);
      }
    }
  }
  spellings.add(`${dir}/`);
  const legacy = [...spellings].map((s) => `wsctl:${s}`).filter((s) => s !== service);
  return { service, account: profile, legacy };
}

function ownProfile(data: ConfigData, name: string): Profile | undefined {
  return Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
}

/**
 * The profile in effect and where it came from: --profile, WSCTL_PROFILE, the nearest pin file,
 * the current profile, or "default" (cli.md §1). A pin names an existing profile and nothing else,
 * so a pin in effect is checked against config.json even when flags and environment give the key
 * and base URL (withConfig false: the current profile is then not read).
 */
export function chooseProfile(input: Pick<ResolveInput, 'flags' | 'env' | 'config' | 'pin'>, withConfig = true): ChosenProfile {
  if (input.flags.profile) return { name: input.flags.profile, source: 'flag' };
  if (input.env.WSCTL_PROFILE) return { name: input.env.WSCTL_PROFILE, source: 'env' };
  const pin = input.pin?.();
  if (pin) {
    const name = pinnedName(pin);
    if (!ownProfile(input.config(), name)) {
      throw new UsageError(`The pin file ${pin.path} names profile '${name}', which does not exist: run \`wsctl profile pin <name>\` there with one of \`wsctl profile list\`, or remove the file. Nothing was sent.`);
    }
    return { name, source: 'pin', pinFile: pin.path };
  }
  if (!withConfig) return { name: DEFAULT_PROFILE, source: 'default' };
  const current = input.config().current_profile;
  return current ? { name: current, source: 'current' } : { name: DEFAULT_PROFILE, source: 'default' };
}

/** The profile in effect, by name. */
export function resolveProfile(input: Pick<ResolveInput, 'flags' | 'env' | 'config' | 'pin'>): string {
  return chooseProfile(input).name;
}

const PIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A pin holds a profile's name and a newline, nothing else: a cloned repository must not be able to redirect a key. */
export function pinnedName(pin: PinFile): string {
  const refuse = (what: string) =>
    new UsageError(`The pin file ${pin.path} ${what}: a pin holds only the name of an existing profile (run \`wsctl profile pin <name>\` there, or remove the file). Nothing was sent.`);
  const body = pin.text.replace(/\r?\n$/, '');
  if (/[\r\n]/.test(body)) throw refuse('has more than one line');
  if (/^[a-z][a-z0-9+.-]*:/i.test(body.trim())) throw refuse('holds a URL, not a profile name');
  if (body === '') throw refuse('is empty');
  if (!PIN_NAME.test(body)) throw refuse('does not hold a profile name (letters, digits, \'.\', \'_\' or \'-\', at most 64)');
  return body;
}

/** Flag, then environment, then profile, then built-in default (cli.md §1). */
export function resolveTarget(input: ResolveInput, typedDir?: string): Resolution {
  const { flags, env } = input;
  const sandbox = !!flags.sandbox || envFlag(env, 'WSCTL_SANDBOX');
  const named = flags.profile || env.WSCTL_PROFILE || undefined;
  const entryOf = (profile: string) => storeEntry(input.configDir, profile, typedDir);
  // The sandbox has its own URL and key: nothing configured is read (cli.md §6).
  if (sandbox) return { sandbox, profile: 'sandbox', profileNamed: false, key: { source: 'sandbox' }, entry: entryOf('sandbox') };
  const chosen = (withConfig: boolean) => {
    const c = chooseProfile(input, withConfig);
    return { profile: c.name, profileSource: c.source, ...(c.pinFile ? { pinFile: c.pinFile } : {}) };
  };
  const envKey = env.WSCTL_API_KEY || undefined;
  if (envKey !== undefined) checkEnvKey(envKey);
  const flagUrl = flags.baseUrl || undefined;
  const envUrl = env.WSCTL_BASE_URL || undefined;
  const given = flagUrl ?? envUrl;
  const givenSource = flagUrl ? 'flag' : envUrl ? 'env' : undefined;
  // Both from flags or the environment: config.json is not read at all.
  if (given && envKey) {
    // config.json is read only to check a pin, if one is in effect.
    const c = chosen(false);
    return { sandbox, ...c, profileNamed: !!named, baseUrl: given, baseUrlSource: givenSource, key: { source: 'env', key: envKey }, entry: entryOf(c.profile) };
  }
  const data = input.config();
  const c = chosen(true);
  const { profile } = c;
  const stored = ownProfile(data, profile);
  const baseUrl = given ?? (stored?.base_url || undefined);
  const baseUrlSource = given ? givenSource : baseUrl ? 'profile' : undefined;
  let key: KeyPlace;
  const place = storedKey(stored);
  if (envKey) key = { source: 'env', key: envKey };
  else if (place === 'file') key = { source: 'file', key: stored!.api_key! };
  else if (place === 'keyring') key = { source: 'keyring' };
  else key = { source: 'none' };
  return { sandbox, ...c, profileExists: !!stored, profileNamed: !!named, baseUrl, baseUrlSource, key, entry: entryOf(profile) };
}

/** A key is printable ASCII without spaces: anything else fails later as a bad header, far from the cause. */
export function badKeyCharacters(key: string): string | undefined {
  if (/^[\x21-\x7e]+$/.test(key)) return undefined;
  if (/[\s\x00-\x1f\x7f]/.test(key)) return 'whitespace or control characters (a trailing \\r or newline?)';
  return 'characters other than printable ASCII (an invisible or typographic character pasted with it?)';
}

function checkEnvKey(key: string): void {
  const bad = badKeyCharacters(key);
  if (bad) throw new UsageError(`WSCTL_API_KEY contains ${bad}; set it to the key alone.`);
}

/** What to do when a profile has no key. */
export function noKey(profile: string): string {
  return `No API key for profile '${profile}'. Run \`wsctl auth login --profile ${profile}\` or set WSCTL_API_KEY.`;
}

/** The longest timeout of an attempt: one day (timers cannot wait much longer than 24 days). */
export const MAX_TIMEOUT_S = 86_400;

/** --timeout or WSCTL_TIMEOUT in whole milliseconds: any positive number of seconds up to a day. */
export function timeoutMs(globals: { timeout?: string }, env: Env): number {
  const raw = globals.timeout ?? env.WSCTL_TIMEOUT ?? '30';
  const seconds = /^\s*\d*\.?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds > 0) || seconds > MAX_TIMEOUT_S) {
    throw new UsageError(`Invalid timeout '${raw}': give a number of seconds above 0 and at most ${MAX_TIMEOUT_S}.`);
  }
  return Math.max(1, Math.round(seconds * 1000));
}
