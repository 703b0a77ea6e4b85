// Which service a command talks to, with which key, and where that key lives: one pure function
// over flags, environment and config (cli.md §1, §2), so every command, `auth *` and --dry-run
// agree. No I/O here: config.json is read through the thunk only when flags and environment
// leave something open, and the credential store is only named, never asked.
import { isAbsolute, resolve as resolvePath } from 'node:path';
import type { AgentPolicy } from '../common/agent.js';
import { notABoolean, parseBoolean } from '../../bin/booleans.cjs';
import { GLOBAL_OPTIONS } from '../common/globals.js';
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
  /** Accessible mode (cli.md §3), for screen readers and braille displays. */
  accessible?: boolean;
}

/** The config folder three ways: as typed, absolute and normalised, and its real path. */
export interface ConfigFolder {
  /** WSCTL_CONFIG_DIR as given, or the platform's folder. */
  typed: string;
  /** Absolute and normalised: `cfg`, `cfg/` and `./cfg` are one path. */
  path: string;
  /** The absolute, normalised real path (symbolic links resolved): what names its store entries. */
  real: string;
}

/** The credential-store entry of one profile of one config folder. */
export interface StoreEntry {
  /** `wsctl:<absolute, normalised real path of the config folder>`. */
  service: string;
  /** The profile name. */
  account: string;
  /** Absolute names an earlier version may have written for the same folder, found and moved to service. */
  legacy: string[];
}

export type KeyPlace =
  /** WSCTL_API_KEY: the store is never touched. */
  | { source: 'env'; key: string }
  /** In config.json (--insecure-storage, no store, or an earlier version). */
  | { source: 'file'; key: string }
  /** In the credential store, under entry. */
  | { source: 'keyring' }
  /** Stored (in the file or the store) with another origin than the base URL in effect: never read nor sent. */
  | { source: 'elsewhere'; storage: 'file' | 'keyring'; baseUrl: string }
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
  /** The config folder (configFolder()): its real path names the store entries. */
  folder: ConfigFolder;
  /** config.json, read only when needed. */
  config: () => ConfigData;
  /** The nearest `.wsctl-profile` from the working folder up, read only when no flag or variable names the profile. */
  pin?: () => PinFile | undefined;
}

/** A boolean variable, read as every reader reads it (bin/booleans.cjs); a value that is not a boolean is exit 2 naming the variable. */
export function envFlag(env: Env, name: string): boolean {
  const on = parseBoolean(env[name]);
  if (on === undefined) throw new UsageError(notABoolean(name, env[name] ?? ''));
  return on;
}

/** A whole number from a test-only variable, within bounds, else exit 2 naming it; undefined when unset. */
export function envNumber(env: Env, name: string, min: number, max: number, unit: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new UsageError(`Invalid ${name} '${raw}': give a whole number of ${unit} from ${min} to ${max}.`);
  return value;
}

/** The config folder as typed (WSCTL_CONFIG_DIR) or the platform default; not yet made absolute. */
export function typedConfigDir(env: Env, platform: NodeJS.Platform, home: string): string {
  const given = env.WSCTL_CONFIG_DIR;
  if (given?.startsWith('~')) {
    // No shell expanded it: a folder named `~` would be made in the current folder.
    const example = /^~(?:[/\\]|$)/.test(given) ? ` such as "$HOME${given.slice(1)}"` : '';
    throw new UsageError(
      `Invalid WSCTL_CONFIG_DIR '${given}': a leading ~ is not expanded (no shell did it); give the folder's full path${example}.`,
    );
  }
  if (given) return given;
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
 * The entry of a profile of a config folder, named from the folder's real path: a symbolic link to
 * the folder names the same entry. Earlier versions named it from the folder as typed or from its
 * absolute path: those absolute spellings are legacy names to find and move. A relative name
 * (`wsctl:.wsctl`) may belong to any project's folder of that name, so it is never one of them:
 * never read, moved, sent or deleted.
 */
export function storeEntry(folder: ConfigFolder, profile: string): StoreEntry {
  const service = `wsctl:${folder.real}`;
  const spellings = new Set<string>();
  for (const dir of [folder.typed, folder.path, folder.real]) {
    if (!isAbsolute(dir)) continue;
    spellings.add(dir);
    const bare = dir.replace(/[/\\]+$/, '');
    if (bare) for (const s of [bare, `${bare}/`]) spellings.add(s);
  }
  const legacy = [...spellings].map((s) => `wsctl:${s}`).filter((s) => s !== service);
  return { service, account: profile, legacy };
}

/** `scheme://host[:port]` of a URL, the port only when not the scheme's default; undefined when it does not parse. */
function originOf(url: string): string | undefined {
  try {
    const { protocol, host } = new URL(url);
    return `${protocol}//${host}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether a stored key may go to the base URL given by flag or environment: only to the origin it
 * was stored with (cli.md §2). A given URL that does not parse is refused later, as a bad URL.
 */
export function keyBelongsTo(storedBaseUrl: string, given: string): boolean {
  const target = originOf(given);
  return target === undefined || originOf(storedBaseUrl) === target;
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
    // Never quoted: a name-shaped line may be a token (a pin can be the first line of any file).
    if (!ownProfile(input.config(), name)) {
      throw new UsageError(
        `The pin file ${pin.path} does not name an existing profile: run \`wsctl profile pin <name>\` there with one of \`wsctl profile list\`, or remove the file. Nothing was sent.`,
      );
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
    new UsageError(
      `The pin file ${pin.path} ${what}: a pin holds only the name of an existing profile (run \`wsctl profile pin <name>\` there, or remove the file). Nothing was sent.`,
    );
  const body = pin.text.replace(/\r?\n$/, '');
  if (/[\r\n]/.test(body)) throw refuse('has more than one line');
  if (/^[a-z][a-z0-9+.-]*:/i.test(body.trim())) throw refuse('holds a URL, not a profile name');
  if (body === '') throw refuse('is empty');
  if (!PIN_NAME.test(body)) throw refuse("does not hold a profile name (letters, digits, '.', '_' or '-', at most 64)");
  return body;
}

/** What flags or their variables name, before config.json is read: what another program must be told to reach the same target. */
export interface Named {
  profile?: string;
  baseUrl?: string;
  baseUrlFrom?: 'flag' | 'env';
  /** --timeout or WSCTL_TIMEOUT as given. */
  timeout?: string;
  sandbox: boolean;
}

/** Flag, then environment (cli.md §1), for the profile, the base URL, the timeout and the sandbox. */
export function namedTarget(flags: ResolveInput['flags'] & { timeout?: string }, env: Env): Named {
  const baseUrlFrom = flags.baseUrl ? 'flag' : env.WSCTL_BASE_URL ? 'env' : undefined;
  return {
    profile: flags.profile || env.WSCTL_PROFILE || undefined,
    baseUrl: baseUrlFrom === 'flag' ? flags.baseUrl : baseUrlFrom === 'env' ? env.WSCTL_BASE_URL : undefined,
    baseUrlFrom,
    timeout: flags.timeout ?? (env.WSCTL_TIMEOUT || undefined),
    sandbox: !!flags.sandbox || envFlag(env, 'WSCTL_SANDBOX'),
  };
}

/** Flag, then environment, then profile, then built-in default (cli.md §1). */
export function resolveTarget(input: ResolveInput): Resolution {
  const { env } = input;
  const { sandbox, profile: named, baseUrl: given, baseUrlFrom: givenSource } = namedTarget(input.flags, env);
  const entryOf = (profile: string) => storeEntry(input.folder, profile);
  // The sandbox has its own URL and key: nothing configured is read (cli.md §6).
  if (sandbox) return { sandbox, profile: 'sandbox', profileNamed: false, key: { source: 'sandbox' }, entry: entryOf('sandbox') };
  const chosen = (withConfig: boolean) => {
    const c = chooseProfile(input, withConfig);
    return { profile: c.name, profileSource: c.source, ...(c.pinFile ? { pinFile: c.pinFile } : {}) };
  };
  const envKey = env.WSCTL_API_KEY || undefined;
  if (envKey !== undefined) checkEnvKey(envKey);
  // Both from flags or the environment: config.json is not read at all.
  if (given && envKey) {
    // config.json is read only to check a pin, if one is in effect.
    const c = chosen(false);
    return {
      sandbox,
      ...c,
      profileNamed: !!named,
      baseUrl: given,
      baseUrlSource: givenSource,
      key: { source: 'env', key: envKey },
      entry: entryOf(c.profile),
    };
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
  // A key stored for one service is never sent to another named by flag or environment.
  else if (place && given && stored?.base_url && !keyBelongsTo(stored.base_url, given))
    key = { source: 'elsewhere', storage: place, baseUrl: stored.base_url };
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

/** What to do when a profile has no key (for the base URL in effect: keyBaseUrl is where its stored key belongs). */
export function noKey(profile: string, elsewhere?: { baseUrl?: string; keyBaseUrl?: string }): string {
  if (elsewhere?.keyBaseUrl && elsewhere.baseUrl) {
    const { baseUrl, keyBaseUrl } = elsewhere;
    return (
      `The key stored in profile '${profile}' belongs to ${keyBaseUrl}, not to ${baseUrl}: it is not sent there. ` +
      `Log in for that URL (\`wsctl auth login --profile <name> --base-url ${baseUrl}\`), or set WSCTL_API_KEY to a key for it.`
    );
  }
  return `No API key for profile '${profile}'. Run \`wsctl auth login --profile ${profile}\` or set WSCTL_API_KEY.`;
}

/** The longest timeout of an attempt: one day (timers cannot wait much longer than 24 days). */
export const MAX_TIMEOUT_S = 86_400;

/** --timeout or WSCTL_TIMEOUT in whole milliseconds: any positive number of seconds up to a day. */
export function timeoutMs(globals: { timeout?: string }, env: Env): number {
  const raw = globals.timeout ?? env.WSCTL_TIMEOUT ?? GLOBAL_OPTIONS.timeout.fallback;
  const seconds = /^\s*\d*\.?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds > 0) || seconds > MAX_TIMEOUT_S) {
    throw new UsageError(`Invalid timeout '${raw}': give a number of seconds above 0 and at most ${MAX_TIMEOUT_S}.`);
  }
  return Math.max(1, Math.round(seconds * 1000));
}
