// Typed errors: each carries the exit code of cli.md §4, so report.ts maps them in one place.
import { maskSecrets, maskSecretsIn } from './common/secrets.js';

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  network: 3,
  auth: 4,
  notFound: 5,
  interrupted: 130,
} as const;

/**
 * The stable words of an error document's `reason` (cli.md §4), each with the one exit code it
 * goes with. A word never changes meaning (test/reasons.test.ts holds the list); new ones may come.
 */
export const REASONS = {
  service_error: ExitCode.failure,
  service_failure: ExitCode.failure,
  output_lost: ExitCode.failure,
  local_error: ExitCode.failure,
  usage: ExitCode.usage,
  missing_argument: ExitCode.usage,
  invalid_input: ExitCode.usage,
  rejected_input: ExitCode.usage,
  confirmation_required: ExitCode.usage,
  jq_error: ExitCode.usage,
  insecure_url: ExitCode.usage,
  declined: ExitCode.usage,
  network: ExitCode.network,
  timeout: ExitCode.network,
  bad_response: ExitCode.network,
  not_logged_in: ExitCode.auth,
  auth_rejected: ExitCode.auth,
  wrong_origin: ExitCode.auth,
  policy_refused: ExitCode.auth,
  credential_store: ExitCode.auth,
  not_found: ExitCode.notFound,
  interrupted: ExitCode.interrupted,
} as const;
export type Reason = keyof typeof REASONS;

/**
 * The reason of an exit code when nothing more precise is known: the first word of its group.
 * Exit 1 is the service's (`service_error`) unless wsctl failed on its own (`local_error`).
 */
export function reasonOfCode(code: number, local = false): Reason {
  if (code === ExitCode.failure && local) return 'local_error';
  return (Object.keys(REASONS) as Reason[]).find((r) => REASONS[r] === code) ?? 'local_error';
}

/**
 * A command that goes on from an error, before the door that reports it writes it out (src/cli/next.ts):
 * `words` (after `wsctl`, `<placeholders>` as written) get the global flags of the user's line;
 * `typed` is a whole line of the user's own words (a typo corrected), `missing` the placeholders of
 * what it still lacks (`<name>`, `--model <model>`); `retype` is the user's line
 * again with `add` after it (`--yes`), which only the command line's door knows.
 */
export type NextStep = { why: string } & ({ words: string[] } | { typed: string[]; missing?: string[] } | { retype: true; add: string[] });

export interface ErrorInfo {
  status?: number;
  requestId?: string;
  details?: unknown;
  /** A more precise word than the class gives (cli.md §4). */
  reason?: Reason;
  next?: NextStep[];
}

/**
 * The reason and the way on when a request cannot go for want of a login: no base URL, no key,
 * or a stored key that belongs to another base URL (`wrong_origin`).
 */
export function notLoggedIn(profile: string, t: { baseUrl?: string; keyBaseUrl?: string }): ErrorInfo {
  if (!t.baseUrl) {
    const why = `Profile '${profile}' has no base URL: log in with the service's URL.`;
    return { reason: 'not_logged_in', next: [{ words: ['auth', 'login', '--profile', profile, '--base-url', '<url>'], why }] };
  }
  if (t.keyBaseUrl) {
    const why = `The key stored in profile '${profile}' belongs to ${t.keyBaseUrl}: log in for ${t.baseUrl} (or set WSCTL_API_KEY).`;
    return { reason: 'wrong_origin', next: [{ words: ['auth', 'login', '--profile', '<name>', '--base-url', t.baseUrl], why }] };
  }
  const why = `Profile '${profile}' has no API key: log in to store one (or set WSCTL_API_KEY).`;
  return { reason: 'not_logged_in', next: [{ words: ['auth', 'login', '--profile', profile], why }] };
}

export class WsctlError extends Error {
  readonly exitCode: number = ExitCode.failure;
  readonly status?: number;
  readonly requestId?: string;
  readonly details?: unknown;
  readonly next?: NextStep[];
  private readonly givenReason?: Reason;

  constructor(message: string, info: ErrorInfo = {}) {
    // Masked before Error captures the stack: a key the service echoed never reaches a message,
    // a --json error's details, an MCP result or a --debug stack.
    super(maskSecrets(message));
    this.status = info.status;
    this.requestId = info.requestId === undefined ? undefined : maskSecrets(info.requestId);
    this.details = maskSecretsIn(info.details);
    this.givenReason = info.reason;
    this.next = info.next;
  }

  /** The word a program branches on; a word given for another exit code than the error's is not said. */
  get reason(): Reason {
    const given = this.givenReason;
    return given !== undefined && REASONS[given] === this.exitCode ? given : this.classReason();
  }

  /** Exit 1 of this class is wsctl's own failure (a file it cannot use); the service's is an ApiError. */
  protected classReason(): Reason {
    return reasonOfCode(this.exitCode, true);
  }
}

/** The service refused or failed, or said `success: false`. */
export class ApiError extends WsctlError {
  protected override classReason(): Reason {
    return 'service_error';
  }
}

/** Bad arguments, input that fails validation, a 422, a refused insecure URL. */
export class UsageError extends WsctlError {
  override readonly exitCode = ExitCode.usage;
  protected override classReason(): Reason {
    return this.status === 422 ? 'rejected_input' : 'usage';
  }
}

/** Unreachable, timed out, or a body that is not the JSON expected. */
export class NetworkError extends WsctlError {
  override readonly exitCode = ExitCode.network;
}

/** A body that is not the JSON expected, or not HTTP at all (`bad_response`). */
export class BadResponseError extends NetworkError {
  protected override classReason(): Reason {
    return 'bad_response';
  }
}

/** No base URL or key, or the service said 401/403. */
export class AuthError extends WsctlError {
  override readonly exitCode = ExitCode.auth;
  protected override classReason(): Reason {
    return this.status === 401 || this.status === 403 ? 'auth_rejected' : 'not_logged_in';
  }
}

export class NotFoundError extends WsctlError {
  override readonly exitCode = ExitCode.notFound;
}

export class InterruptedError extends WsctlError {
  override readonly exitCode = ExitCode.interrupted;
  constructor() {
    super('Interrupted.');
  }
}

/**
 * The person answered no: exit 2 as gh exits on a cancelled prompt (reason `declined`, cli.md §4).
 * Not an error of the tool, so it is said without "Error:".
 */
export class CancelledError extends WsctlError {
  override readonly exitCode = ExitCode.usage;
  constructor() {
    super('Cancelled: nothing was sent.', { reason: 'declined' });
  }
}

/** A config file that cannot be parsed: reported, never rewritten. */
export class ConfigError extends WsctlError {}

// Each class's name as written, for the stack --debug prints: the build minifies class names.
for (const [name, kind] of Object.entries({
  WsctlError,
  ApiError,
  UsageError,
  NetworkError,
  BadResponseError,
  AuthError,
  NotFoundError,
  InterruptedError,
  CancelledError,
  ConfigError,
})) {
  Object.defineProperty(kind.prototype, 'name', { value: name, writable: true, configurable: true });
}
