// What a verb runs with (Ctx), what the process or a test provides to build it (BaseCtx), and what
// a door resolves for one call before the pipeline runs (Reached). Types only: src/cli/context.ts
// builds the real context, each door (src/cli/door.ts, src/mcp/mcp-server.ts) asks it for one.
import type { Clock } from '../common/clock.js';
import type { ConfigStore } from '../config/index.js';
import type { KeyStorage } from '../config/keys.js';
import type { Named, Resolution, StoreEntry } from '../config/resolve.js';
import type { Api, Credential } from '../http/index.js';
import type { Env, IO, Terminal } from '../terminal/index.js';
import type { Prompt } from '../terminal/prompt.js';

export type { Globals } from '../common/globals.js';

/** What the process (or a test) provides. */
export interface BaseCtx {
  io: IO;
  env: Env;
  signal: AbortSignal;
  version: string;
  prompt: Prompt;
  /** The width help wraps at (the real process: $COLUMNS or the terminal's); asked only when help is written. */
  helpWidth?(): number | undefined;
  /** What `convo show --follow` reads the time from and waits on; the real clock when absent. */
  clock?: Clock;
  /** Hears how far a long call has come (bytes uploaded, messages read): an MCP call's progress notifications. */
  progress?(done: number, total?: number): void;
  /** The working folder, where a pin file (.wsctl-profile) is looked for; the process's when absent. */
  cwd?: string;
  /** The `initialize` request the launcher already answered (`wsctl mcp`: src/mcp/early.ts's Answered). */
  initializeAnswered?: { id: string | number; handover(): void };
  /**
   * The process exits once the command's output is written (bin/wsctl): the command's own
   * connections are left to the exit, which closes them, rather than closed in order first (2.2-4.8
   * ms of a command on Node 24 in a timeline of the run; within the noise end to end, 0.98-0.99x).
   * Not for an MCP call's context, whose server goes on.
   */
  exitsAfter?: boolean;
}

export type KeySource = 'env' | 'profile' | 'sandbox';

export interface Target {
  profile: string;
  baseUrl?: string;
  /** The key, read from its place only when a request is sent or a command shows it (auth status, auth token). */
  credential: Credential;
  keySource?: KeySource;
  /** Where the profile's key lives; null when the key comes from elsewhere or there is none. */
  keyStorage?: KeyStorage | null;
  /** The profile's entry in the credential store. */
  entry?: StoreEntry;
  /** The base URL the profile's stored key belongs to, when another origin is in effect: the key is then neither read nor sent. */
  keyBaseUrl?: string;
}

/**
 * What a verb runs with: capabilities (the terminal, the config, the HTTP client, the clock), the
 * target as config/resolve.ts resolves it, and the modes the global options set; never the raw
 * global options or streams.
 */
export interface Ctx extends Omit<BaseCtx, 'io' | 'env'> {
  /** The process's environment, only for verbs that hand it to another program or find another program's files (mcp install, sandbox serve --detach, TAB completion). */
  env: Env;
  term: Terminal;
  config: ConfigStore;
  json: boolean;
  /** --jq was given: every JSON document printed goes through the filter. */
  filtered: boolean;
  /** The longest wait without progress, per attempt (--timeout, WSCTL_TIMEOUT). */
  timeoutMs: number;
  /** Where the ids wsctl remembers are kept (cli.md §10), and whether WSCTL_NO_HISTORY turned that off. */
  idsCache: { dir: string; off: boolean };
  debug: boolean;
  dryRun: boolean;
  sandbox: boolean;
  /** The AI agent running wsctl, by name (cli.md §11): no prompt, pager or spinner, and the profile's agent policy applies. */
  agent?: string;
  /** The profile in effect: --profile, WSCTL_PROFILE, a pin file, the current profile, or "default". */
  profileName(): string;
  /** Profile, base URL and where the key lives, by the precedence of cli.md §1 (resolve.ts); no key is read. */
  resolution(): Resolution;
  /** What flags and their variables name, before config.json is read (resolve.ts): what another program must be told. */
  named(): Named;
  /** The profile's entry in the credential store. */
  storeEntry(profile: string): StoreEntry;
  /**
   * Base URL and where the key lives, no key read until the credential is: the target in effect
   * resolved once per context (the one in `reached`), or the profile named, each time asked.
   */
  target(options?: { profile?: string }): Promise<Target>;
  /** What stops a request to this target (no base URL, or no key when one is needed), or undefined. */
  missing(t: Pick<Target, 'profile' | 'baseUrl' | 'keyBaseUrl'> & { credential?: Credential }, needsKey?: boolean): string | undefined;
  /**
   * The target this call's door resolved before the pipeline ran, with its client: what settle()
   * sends with (src/verbs/declare.ts). Absent for a verb that sends nothing with the profile's key.
   */
  reached?: Reached;
  /** A client for another key or base URL than the call's (auth login's new key, auth status --all's profiles); throws exit 4 when one is missing. */
  api(options?: { credential?: Credential; baseUrl?: string; signal?: AbortSignal }): Promise<Api>;
  /**
   * A context for one call of a door that runs many verbs in this process (an MCP tool call): the
   * same global options, with JSON output, no prompt and no colour, never --jq or --dry-run; the
   * call's own streams, prompt and signal.
   */
  forCall(call: Pick<BaseCtx, 'io' | 'prompt' | 'signal'>, needs?: Needs): Promise<Ctx>;
  close(): Promise<void>;
}

/** What a door resolves for a verb before it runs, as the verb's declaration says (src/verbs/declare.ts needsOf). */
export interface Needs {
  /** The profile's target and a client for it: the verb sends with the profile's key. */
  target?: boolean;
}

/**
 * The target a door resolved for one call, once, before the pipeline runs, and the client for it,
 * whose auth layer reads the key as a request goes out (src/http/auth.ts). What stopped either (a
 * pin that names no profile, no base URL, no key) is kept, and thrown where a request would be
 * sent or planned: when it was said before the door resolved up front.
 */
export type Reached =
  | { target: Target; client: Api; warning?: string }
  | { target?: Target; client?: undefined; warning?: string; failure: unknown };
