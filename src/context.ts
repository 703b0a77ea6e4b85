// The context every command runs with: IO, environment, output, config and the HTTP client.
// main.ts builds the real one; tests build the same thing around their own streams.
import { Api, type DryRunRequest } from './http/index.js';
import { ConfigStore, DEFAULT_PROFILE, configDir, profileOf, type Profile } from './config/index.js';
import { readStoredKey, type KeyStorage, type StoredKey } from './config/keys.js';
import { AuthError, UsageError } from './errors.js';
import { prefetchHttpClient } from './tricks.js';
import { createTerminal, type Env, type IO, type Terminal } from './terminal/index.js';
import type { Prompt } from './terminal/prompt.js';

export interface Globals {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  color?: boolean;
  debug?: boolean;
  timeout?: string;
  dryRun?: boolean;
  sandbox?: boolean;
  /** false with --no-input */
  input?: boolean;
  jq?: string;
}

/** What the process (or a test) provides. */
export interface BaseCtx {
  io: IO;
  env: Env;
  signal: AbortSignal;
  version: string;
  prompt: Prompt;
  /** The width help wraps at (the real process: $COLUMNS or the terminal's). */
  helpWidth?: number;
}

export type KeySource = 'env' | 'profile' | 'sandbox';

export interface Target {
  profile: string;
  baseUrl?: string;
  apiKey?: string;
  keySource?: KeySource;
  /** Where the profile's key lives; null when the key comes from elsewhere or there is none. */
  keyStorage?: KeyStorage | null;
}

export interface Ctx extends BaseCtx {
  globals: Globals;
  term: Terminal;
  config: ConfigStore;
  json: boolean;
  debug: boolean;
  dryRun: boolean;
  sandbox: boolean;
  /** The profile in effect: --profile, WSCTL_PROFILE, the current profile, or "default". */
  profileName(): string;
  /** Base URL and key in effect, by the precedence of cli.md §1; reads config.json only if needed. */
  target(): Promise<Target>;
  /** What stops a request to this target (no base URL, or no key when one is needed), or undefined. */
  missing(t: Target, needsKey?: boolean): string | undefined;
  /** The HTTP client for the target; throws exit 4 when no base URL or key is configured. */
  api(options?: { apiKey?: string; baseUrl?: string; needsKey?: boolean }): Promise<Api>;
  close(): Promise<void>;
}

/** The longest timeout of an attempt: one day (timers cannot wait much longer than 24 days). */
export const MAX_TIMEOUT_S = 86_400;

/** --timeout or WSCTL_TIMEOUT in whole milliseconds: any positive number of seconds up to a day. */
export function timeoutMs(globals: Globals, env: Env): number {
  const raw = globals.timeout ?? env.WSCTL_TIMEOUT ?? '30';
  const seconds = /^\s*\d*\.?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds > 0) || seconds > MAX_TIMEOUT_S) {
    throw new UsageError(`Invalid timeout '${raw}': give a number of seconds above 0 and at most ${MAX_TIMEOUT_S}.`);
  }
  return Math.max(1, Math.round(seconds * 1000));
}

/** What to do when a profile has no key. */
export function noKey(profile: string): string {
  return `No API key for profile '${profile}'. Run \`wsctl auth login --profile ${profile}\` or set WSCTL_API_KEY.`;
}

/** What to do when the service rejects the key, for where the key came from. */
export function authHint(t: Target): string {
  if (t.keySource === 'env') return 'Check WSCTL_API_KEY: it is used before any stored key.';
  if (t.keySource === 'sandbox') return 'Run `wsctl sandbox reset` to restore the sandbox.';
  return `Run \`wsctl auth login --profile ${t.profile}\`.`;
}

export async function createCtx(base: BaseCtx, globals: Globals): Promise<Ctx> {
  const { env } = base;
  const json = !!globals.json || globals.jq !== undefined;
  const noInput = globals.input === false || env.WSCTL_NO_INPUT === '1';
  // Compiled before anything is sent: a typo in --jq sends no request. The HTTP client loads
  // meanwhile, while the engine's WebAssembly compiles on V8's background threads.
  const jq = globals.jq === undefined ? undefined : (await Promise.all([import('./terminal/jq.js').then((m) => m.compileJq(globals.jq as string)), prefetchHttpClient()]))[0];
  const term = await createTerminal(base.io, env, { json, noColor: globals.color === false, noInput, prompt: base.prompt, jq });
  const config = new ConfigStore(configDir(env), (m) => term.warn(m));
  const debug = !!globals.debug || env.WSCTL_DEBUG === '1';
  // Usage before configuration: a bad --timeout is exit 2 whatever else is missing.
  const attemptMs = timeoutMs(globals, env);
  const dryRun = !!globals.dryRun;
  const sandbox = !!globals.sandbox || env.WSCTL_SANDBOX === '1';
  const clients: Api[] = [];
  let embedded: { url: string; apiKey: string; close(): Promise<void> } | undefined;

  let cachedKey: Promise<StoredKey> | undefined;
  const profileName = () => globals.profile || env.WSCTL_PROFILE || config.read().current_profile || DEFAULT_PROFILE;

  async function target(): Promise<Target> {
    if (sandbox) {
      if (!embedded) {
        // Only --sandbox loads the sandbox (its server, routes and seed).
        const { startEmbeddedSandbox } = await import('./sandbox/embedded.js');
        embedded = await startEmbeddedSandbox(config.dir);
      }
      return { profile: 'sandbox', baseUrl: embedded.url, apiKey: embedded.apiKey, keySource: 'sandbox' };
    }
    let baseUrl = globals.baseUrl || env.WSCTL_BASE_URL || undefined;
    const envKey = env.WSCTL_API_KEY || undefined;
    // A key pasted with its line ending would fail as a bad header, far from the cause.
    if (envKey && /[\s\x00-\x1f\x7f]/.test(envKey)) throw new UsageError('WSCTL_API_KEY contains whitespace or control characters (a trailing \\r or newline?); set it to the key alone.');
    if (baseUrl && envKey) {
      return { profile: globals.profile || env.WSCTL_PROFILE || DEFAULT_PROFILE, baseUrl, apiKey: envKey, keySource: 'env' };
    }
    const profile = profileName();
    const stored: Profile = profileOf(config.read(), profile) ?? {};
    baseUrl ??= stored.base_url;
    // A key from the environment never touches the credential store.
    if (envKey) return { profile, baseUrl, apiKey: envKey, keySource: 'env', keyStorage: null };
    cachedKey ??= readStoredKey(config, profile);
    const { key, storage } = await cachedKey;
    return { profile, baseUrl, apiKey: key, keySource: key ? 'profile' : undefined, keyStorage: storage };
  }

  /** What to do about a missing base URL, for the profile actually in use. */
  function missingBaseUrl(profile: string): string {
    const data = config.read();
    const named = globals.profile || env.WSCTL_PROFILE;
    const known = Object.keys(data.profiles);
    if (named && !Object.hasOwn(data.profiles, named)) {
      const list = known.length ? `Profiles: ${known.join(', ')}.` : 'There are no profiles yet.';
      return `No profile '${named}'. ${list} Create it with \`wsctl auth login --profile ${named} --base-url <url>\`.`;
    }
    const offline = known.length === 0 ? ' To try wsctl offline, add --sandbox.' : '';
    return `No base URL for profile '${profile}'. Pass --base-url, set WSCTL_BASE_URL, or run \`wsctl auth login --profile ${profile} --base-url <url>\`.${offline}`;
  }

  function missing(t: Target, needsKey = true): string | undefined {
    if (!t.baseUrl) return missingBaseUrl(t.profile);
    if (!t.apiKey && needsKey) return noKey(t.profile);
    return undefined;
  }

  async function api(options: { apiKey?: string; baseUrl?: string; needsKey?: boolean } = {}): Promise<Api> {
    const t = await target();
    const baseUrl = options.baseUrl ?? t.baseUrl;
    const apiKey = options.apiKey ?? t.apiKey;
    const problem = missing({ ...t, baseUrl, apiKey }, !dryRun && options.needsKey !== false);
    if (problem || !baseUrl) throw new AuthError(problem ?? missingBaseUrl(t.profile));
    const client = new Api({
      baseUrl,
      apiKey,
      timeoutMs: attemptMs,
      debug,
      dryRun,
      userAgent: `wsctl/${base.version}`,
      signal: base.signal,
      trace: (line) => term.trace(line),
      authHint: authHint(t),
      printDryRun: (request: DryRunRequest) => {
        if (json) return term.printJson(request);
        term.line(`${request.method} ${request.url}`);
        for (const [k, v] of Object.entries(request.headers)) term.line(`${k}: ${v}`);
        if (request.body !== undefined) term.line(`\n${JSON.stringify(request.body, null, 2)}`);
      },
      proxy: {
        http: env.http_proxy ?? env.HTTP_PROXY,
        https: env.https_proxy ?? env.HTTPS_PROXY,
        noProxy: env.no_proxy ?? env.NO_PROXY,
      },
      backoffMs: env.WSCTL_RETRY_BASE_MS ? Number(env.WSCTL_RETRY_BASE_MS) : undefined,
      maxBodyBytes: env.WSCTL_MAX_RESPONSE_MB ? Number(env.WSCTL_MAX_RESPONSE_MB) * 1024 * 1024 : undefined,
    });
    clients.push(client);
    return client;
  }

  return {
    ...base,
    globals,
    term,
    config,
    json,
    debug,
    dryRun,
    sandbox,
    profileName,
    target,
    missing,
    api,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await embedded?.close();
    },
  };
}
