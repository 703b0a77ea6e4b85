// The context every command runs with: IO, environment, output, config and, for a verb that sends
// with the profile's key, the target resolved and its client (what a door hands the pipeline).
// The doors build the real one (door.ts, the MCP server's calls); tests build the same thing around
// their own streams. Its types live below the commands, in src/verbs/context.ts.
import { detectAgent, type AgentSign } from '../common/agent.js';
import { Api, Connections, givenKey, NO_CREDENTIAL, readOnce, type Credential } from '../http/index.js';
import { ConfigStore, configFolder, type ConfigFolder } from '../config/index.js';
import { findPin } from '../config/pin.js';
import { keyringReader } from '../config/keys.js';
import {
  envFlag,
  envNumber,
  noKey,
  timeoutMs,
  namedTarget,
  resolveProfile,
  resolveTarget,
  storeEntry as entryOf,
  type Resolution,
} from '../config/resolve.js';
import { AuthError, notLoggedIn } from '../errors.js';
import { cacheDir } from '../ids/store.js';
import type { Globals } from '../common/globals.js';
import { createTerminal, type Env } from '../terminal/index.js';
import { sharedAccessibleOn } from '../terminal/accessible.js';
import type { BaseCtx, Ctx, Needs, Reached, Target } from '../verbs/context.js';

/** What to do when the service rejects the key, for where the key came from. */
export function authHint(t: Target): string {
  if (t.keySource === 'env') return 'Check WSCTL_API_KEY: it is used before any stored key.';
  if (t.keySource === 'sandbox') return 'Run `wsctl sandbox reset` to restore the sandbox.';
  return `Run \`wsctl auth login --profile ${t.profile}\`.`;
}

/** What the calls of a door (forCall) share, from its first call on. */
interface DoorShared {
  /**
   * The connections, closed with the door's context: a call's requests safe to repeat reuse them,
   * and the call's close() leaves them open. A command's context has none: its client keeps its
   * own connection for the command's few requests.
   */
  connections: Connections;
  /**
   * The door's config folder: a call has the door's environment and working folder, so the same
   * folder, and its real path is not resolved again at each call (a few lstat calls). A folder
   * that becomes a symbolic link while the server runs is seen at the server's next start.
   */
  folder: ConfigFolder;
  /** The door's environment for its calls (callEnv). */
  env: Env;
  /** The calls' global options, and what they and the door's environment say: read once, at the first call. */
  globals: Globals;
  settings: Settings;
  attemptMs: number;
}

/** What a context reads from its global options and environment before anything else. */
interface Settings {
  json: boolean;
  debug: boolean;
  told: AgentSign;
  noInput: boolean;
  sandbox: boolean;
  idsCache: { dir: string; off: boolean };
  /** Accessible mode from the environment: WSCTL_ACCESSIBLE (a boolean, checked) or ACCESSIBLE (never an error). */
  accessible: boolean;
  backoffMs?: number;
  maxResponseMb?: number;
}

/**
 * A door's environment for its calls: process.env copied, since each read of it asks the C library
 * (a call reads some twenty variables) and wsctl never writes it. The key is not copied: it is read
 * from process.env when a request is sent (credentials at the last moment). Windows keeps
 * process.env, whose names are not case-sensitive.
 */
export function callEnv(env: Env): Env {
  if (env !== process.env || process.platform === 'win32') return env;
  const { WSCTL_API_KEY: _key, ...copy } = env;
  return Object.defineProperty(copy, 'WSCTL_API_KEY', { get: () => process.env.WSCTL_API_KEY, enumerable: true });
}

/** The answer, or false when it cannot be had. */
function tryRead(read: () => boolean): boolean {
  try {
    return read();
  } catch {
    return false;
  }
}

function readSettings(env: Env, globals: Globals): Settings {
  // Every boolean variable is parsed one way, and a bad one is exit 2 before anything is sent.
  const debug = !!globals.debug || envFlag(env, 'WSCTL_DEBUG');
  const told = detectAgent(env);
  // An agent types commands but cannot answer a prompt: as with --no-input, it is told the flag instead.
  const noInput = globals.input === false || envFlag(env, 'WSCTL_NO_INPUT') || told.agent !== undefined;
  const sandbox = !!globals.sandbox || envFlag(env, 'WSCTL_SANDBOX');
  const idsCache = { dir: cacheDir(env), off: envFlag(env, 'WSCTL_NO_HISTORY') };
  const accessible = envFlag(env, 'WSCTL_ACCESSIBLE') || sharedAccessibleOn(env.ACCESSIBLE);
  return {
    json: !!globals.json || globals.jq !== undefined,
    debug,
    told,
    noInput,
    sandbox,
    idsCache,
    accessible,
    // Variables for tests, bounded so that none can lift a limit or upset a timer.
    backoffMs: envNumber(env, 'WSCTL_RETRY_BASE_MS', 0, 10_000, 'milliseconds'),
    maxResponseMb: envNumber(env, 'WSCTL_MAX_RESPONSE_MB', 1, 256, 'MiB'),
  };
}

/**
 * The context of one command or call, with the target its verb needs (needs) resolved once, at
 * the end, after every check of the global options and the environment: what the door hands the
 * pipeline as ctx.reached.
 */
export async function createCtx(base: BaseCtx, globals: Globals, needs: Needs = {}, shared?: DoorShared): Promise<Ctx> {
  const { env } = base;
  const settings = shared?.settings ?? readSettings(env, globals);
  const { json, debug, told, noInput, sandbox, idsCache, backoffMs, maxResponseMb } = settings;
  const { agent } = told;
  // Compiled before anything is sent: a typo in --jq sends no request.
  const jq = globals.jq === undefined ? undefined : await (await import('../terminal/jq.js')).compileJq(globals.jq, base.signal);
  const agentSaid = agent === undefined ? undefined : `${agent}, from ${told.variable}`;
  // config.json is read for accessible mode only when output asks (a prompt, a spinner, a ✓ line).
  let accessibleInConfig: (() => boolean) | undefined;
  const term = await createTerminal(base.io, env, {
    accessible: () => settings.accessible || (accessibleInConfig?.() ?? false),
    clock: base.clock,
    json,
    noColor: globals.color === false,
    noInput,
    agent: agentSaid,
    prompt: base.prompt,
    jq,
  });
  if (debug && told.variable) term.trace(agent === undefined ? `agent: none (${told.variable} says so)` : `agent: ${agentSaid}`);
  const folder = shared?.folder ?? configFolder(env);
  const config = new ConfigStore(folder.path, (m) => term.warn(m));
  let inConfig: boolean | undefined;
  // A config that cannot be read is reported by the command that needs it, not here.
  accessibleInConfig = () => (inConfig ??= tryRead(() => config.read().accessible === true));
  // Usage before configuration: a bad --timeout is exit 2 whatever else is missing.
  const attemptMs = shared?.attemptMs ?? timeoutMs(globals, env);
  const dryRun = !!globals.dryRun;
  const clients: Api[] = [];
  let door: DoorShared | undefined;
  let embedded: { url: string; apiKey: string; close(): Promise<void> } | undefined;

  const flags = { profile: globals.profile, baseUrl: globals.baseUrl, sandbox, timeout: globals.timeout };
  const cwd = base.cwd ?? process.cwd();
  let pin: { found?: ReturnType<typeof findPin> } | undefined;
  const input = { flags, env, folder, config: () => config.read(), pin: () => (pin ??= { found: findPin(cwd) }).found };
  let resolved: Resolution | undefined;
  const resolution = () => (resolved ??= resolveTarget(input));
  const profileName = () => resolveProfile(input);
  // One reading of the store per profile and context (a command, or one MCP call), however many requests ask.
  const storeReads = new Map<string, Credential>();

  let inEffect: Promise<Target> | undefined;
  /** The target in effect, resolved once however many ask (the door, a confirmation, auth status); another profile's each time. */
  function target(options: { profile?: string } = {}): Promise<Target> {
    if (options.profile !== undefined) return targetOf(() => resolveTarget({ ...input, flags: { ...flags, profile: options.profile } }));
    inEffect ??= targetOf(resolution);
    return inEffect;
  }

  async function targetOf(resolve: () => Resolution): Promise<Target> {
    const r = resolve();
    if (r.sandbox) {
      // Only --sandbox loads the sandbox (its server, routes and seed).
      embedded ??= await (await import('../sandbox/embedded.js')).startEmbeddedSandbox(config.dir, dryRun);
      return { profile: r.profile, baseUrl: embedded.url, credential: givenKey(embedded.apiKey), keySource: 'sandbox' };
    }
    const t = { profile: r.profile, baseUrl: r.baseUrl, entry: r.entry, credential: NO_CREDENTIAL };
    switch (r.key.source) {
      case 'env': {
        // A key from the environment never touches the credential store.
        const key = r.key.key;
        return { ...t, credential: givenKey(key), keySource: 'env', keyStorage: r.profileExists === undefined ? undefined : null };
      }
      case 'file': {
        const key = r.key.key;
        return { ...t, credential: givenKey(key), keySource: 'profile', keyStorage: 'file' };
      }
      case 'elsewhere':
        return { ...t, keySource: 'profile', keyStorage: r.key.storage, keyBaseUrl: r.key.baseUrl };
      case 'keyring': {
        const entry = r.entry;
        const credential =
          storeReads.get(entry.account) ??
          readOnce(keyringReader(entry, (line) => debug && term.trace(`credential store: ${line}`), base.signal));
        storeReads.set(entry.account, credential);
        return { ...t, credential, keySource: 'profile', keyStorage: 'keyring' };
      }
      default:
        return { ...t, keyStorage: null };
    }
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

  function missing(
    t: Pick<Target, 'profile' | 'baseUrl' | 'keyBaseUrl'> & { credential?: Credential },
    needsKey = true,
  ): string | undefined {
    if (!t.baseUrl) return missingBaseUrl(t.profile);
    if (!t.credential?.present && needsKey) return noKey(t.profile, t);
    return undefined;
  }

  /** Why no request can go to this base URL with this key (exit 4), or undefined; --dry-run reads no key, so needs none. */
  function refusal(t: Target, baseUrl: string | undefined, credential: Credential): AuthError | undefined {
    const problem = missing({ ...t, baseUrl, credential }, !dryRun);
    if (!problem && baseUrl) return undefined;
    return new AuthError(
      problem ?? missingBaseUrl(t.profile),
      notLoggedIn(t.profile, { ...t, baseUrl, keyBaseUrl: credential.present ? undefined : t.keyBaseUrl }),
    );
  }

  /** --dry-run sends nothing and reads no key: a key stored for another origin, which would not be sent, is said instead. */
  function dryRunWarning(t: Target): string | undefined {
    return dryRun && t.keyBaseUrl ? `Without --dry-run this is exit 4. ${noKey(t.profile, t)}` : undefined;
  }

  function client(t: Target, baseUrl: string, credential: Credential, signal = base.signal): Api {
    const made = new Api({
      baseUrl,
      credential,
      timeoutMs: attemptMs,
      debug,
      dryRun,
      userAgent: `wsctl/${base.version}${agent === undefined ? '' : ` agent/${agent}`}`,
      signal,
      trace: (line) => term.trace(line),
      authHint: authHint(t),
      proxy: {
        http: env.http_proxy ?? env.HTTP_PROXY,
        https: env.https_proxy ?? env.HTTPS_PROXY,
        noProxy: env.no_proxy ?? env.NO_PROXY,
      },
      backoffMs,
      maxBodyBytes: maxResponseMb === undefined ? undefined : maxResponseMb * 1024 * 1024,
      connections: shared?.connections,
    });
    clients.push(made);
    return made;
  }

  async function api(options: { credential?: Credential; baseUrl?: string; signal?: AbortSignal } = {}): Promise<Api> {
    const t = await target();
    const baseUrl = options.baseUrl ?? t.baseUrl;
    const credential = options.credential ?? t.credential;
    const warning = options.credential === undefined ? dryRunWarning(t) : undefined;
    if (warning) term.warn(warning);
    const refused = refusal(t, baseUrl, credential);
    if (refused) throw refused;
    return client(t, baseUrl as string, credential, options.signal);
  }

  /**
   * The door's one resolving of the target, before the verb runs: nothing is thrown here (a
   * missing profile, base URL or key is said where a request would go out, as before: settle()).
   */
  async function reach(): Promise<Reached> {
    let t: Target | undefined;
    let warning: string | undefined;
    try {
      t = await target();
      warning = dryRunWarning(t);
      const refused = refusal(t, t.baseUrl, t.credential);
      if (refused) return { target: t, warning, failure: refused };
      return { target: t, client: client(t, t.baseUrl as string, t.credential), warning };
    } catch (failure) {
      return { target: t, warning, failure };
    }
  }

  const { io: _io, env: _env, ...rest } = base;
  const ctx: Ctx = {
    ...rest,
    env,
    term,
    config,
    json,
    filtered: jq !== undefined,
    timeoutMs: attemptMs,
    idsCache,
    named: () => namedTarget(flags, env),
    forCall: (call, callNeeds) => {
      if (!door) {
        const callGlobals = { ...globals, json: true, input: false, jq: undefined, dryRun: undefined, color: false };
        door = {
          connections: new Connections(),
          folder,
          env: callEnv(env),
          globals: callGlobals,
          settings: readSettings(env, callGlobals),
          attemptMs,
        };
      }
      return createCtx({ ...base, ...call, env: door.env, progress: undefined, exitsAfter: false }, door.globals, callNeeds, door);
    },
    debug,
    dryRun,
    sandbox,
    agent,
    profileName,
    cwd,
    resolution,
    storeEntry: (profile) => entryOf(folder, profile),
    target,
    missing,
    api,
    async close() {
      jq?.close();
      if (!base.exitsAfter) await Promise.all(clients.map((c) => c.close()));
      await door?.connections.close();
      await embedded?.close();
    },
  };
  // Last: the checks above (exit 2) come first, and a verb that sends nothing resolves nothing.
  if (needs.target) ctx.reached = await reach();
  return ctx;
}
