// The context every command runs with: IO, environment, output, config and the HTTP client.
// main.ts builds the real one; tests build the same thing around their own streams.
import { Api, type DryRunRequest } from './api.js';
import { ConfigStore, DEFAULT_PROFILE, configDir, type Profile } from './config.js';
import { AuthError, UsageError } from './errors.js';
import { createOutput, type Env, type IO, type Output } from './output.js';
import type { Prompt } from './prompt.js';
import { startEmbeddedSandbox } from './sandbox/embedded.js';

export interface Globals {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  color?: boolean;
  debug?: boolean;
  timeout?: string;
  dryRun?: boolean;
  sandbox?: boolean;
}

/** What the process (or a test) provides. */
export interface BaseCtx {
  io: IO;
  env: Env;
  signal: AbortSignal;
  version: string;
  prompt: Prompt;
}

export type KeySource = 'env' | 'profile' | 'sandbox';

export interface Target {
  profile: string;
  baseUrl?: string;
  apiKey?: string;
  keySource?: KeySource;
}

export interface Ctx extends BaseCtx {
  globals: Globals;
  out: Output;
  config: ConfigStore;
  json: boolean;
  debug: boolean;
  dryRun: boolean;
  sandbox: boolean;
  /** The profile in effect: --profile, WSCTL_PROFILE, the current profile, or "default". */
  profileName(): string;
  /** Base URL and key in effect, by the precedence of cli.md §1; reads config.json only if needed. */
  target(): Promise<Target>;
  /** The HTTP client for the target; throws exit 4 when no base URL or key is configured. */
  api(options?: { apiKey?: string; baseUrl?: string; needsKey?: boolean }): Promise<Api>;
  close(): Promise<void>;
}

export function timeoutSeconds(globals: Globals, env: Env): number {
  const raw = globals.timeout ?? env.WSCTL_TIMEOUT ?? '30';
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`Invalid timeout '${raw}': give a positive number of seconds.`);
  }
  return seconds;
}

export async function createCtx(base: BaseCtx, globals: Globals): Promise<Ctx> {
  const { env } = base;
  const json = !!globals.json;
  const out = await createOutput(base.io, env, { json, noColor: globals.color === false });
  const config = new ConfigStore(configDir(env), (m) => out.warn(m));
  const debug = !!globals.debug || env.WSCTL_DEBUG === '1';
  const dryRun = !!globals.dryRun;
  const sandbox = !!globals.sandbox || env.WSCTL_SANDBOX === '1';
  const clients: Api[] = [];
  let embedded: { url: string; apiKey: string; close(): Promise<void> } | undefined;

  const profileName = () => globals.profile || env.WSCTL_PROFILE || config.read().current_profile || DEFAULT_PROFILE;

  async function target(): Promise<Target> {
    if (sandbox) {
      if (!embedded) {
        embedded = await startEmbeddedSandbox(config.dir);
      }
      return { profile: 'sandbox', baseUrl: embedded.url, apiKey: embedded.apiKey, keySource: 'sandbox' };
    }
    let baseUrl = globals.baseUrl || env.WSCTL_BASE_URL || undefined;
    const envKey = env.WSCTL_API_KEY || undefined;
    if (baseUrl && envKey) {
      return { profile: globals.profile || env.WSCTL_PROFILE || DEFAULT_PROFILE, baseUrl, apiKey: envKey, keySource: 'env' };
    }
    const profile = profileName();
    const stored: Profile = config.read().profiles[profile] ?? {};
    baseUrl ??= stored.base_url;
    if (envKey) return { profile, baseUrl, apiKey: envKey, keySource: 'env' };
    return { profile, baseUrl, apiKey: stored.api_key, keySource: stored.api_key ? 'profile' : undefined };
  }

  async function api(options: { apiKey?: string; baseUrl?: string; needsKey?: boolean } = {}): Promise<Api> {
    const t = await target();
    const baseUrl = options.baseUrl ?? t.baseUrl;
    const apiKey = options.apiKey ?? t.apiKey;
    if (!baseUrl) {
      throw new AuthError(
        `No base URL for profile '${t.profile}'. Pass --base-url, set WSCTL_BASE_URL, or run \`wsctl auth login --base-url <url>\`.`,
      );
    }
    if (!apiKey && !dryRun && options.needsKey !== false) {
      throw new AuthError(`No API key for profile '${t.profile}'. Run \`wsctl auth login --profile ${t.profile}\` or set WSCTL_API_KEY.`);
    }
    const client = new Api({
      baseUrl,
      apiKey,
      timeoutMs: timeoutSeconds(globals, env) * 1000,
      debug,
      dryRun,
      userAgent: `wsctl/${base.version}`,
      signal: base.signal,
      trace: (line) => base.io.stderr.write(`${out.paintErr.dim(line)}\n`),
      printDryRun: (request: DryRunRequest) => {
        if (json) return out.printJson(request);
        out.line(`${request.method} ${request.url}`);
        for (const [k, v] of Object.entries(request.headers)) out.line(`${k}: ${v}`);
        if (request.body !== undefined) out.line(`\n${JSON.stringify(request.body, null, 2)}`);
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
    out,
    config,
    json,
    debug,
    dryRun,
    sandbox,
    profileName,
    target,
    api,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await embedded?.close();
    },
  };
}
