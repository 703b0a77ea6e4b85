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

export interface ErrorInfo {
  status?: number;
  requestId?: string;
  details?: unknown;
}

export class WsctlError extends Error {
  readonly exitCode: number = ExitCode.failure;
  readonly status?: number;
  readonly requestId?: string;
  readonly details?: unknown;

  constructor(message: string, info: ErrorInfo = {}) {
    // Masked before Error captures the stack: a key the service echoed never reaches a message,
    // a --json error's details, an MCP result or a --debug stack.
    super(maskSecrets(message));
    this.status = info.status;
    this.requestId = info.requestId === undefined ? undefined : maskSecrets(info.requestId);
    this.details = maskSecretsIn(info.details);
  }
}

/** The service refused or failed, or said `success: false`. */
export class ApiError extends WsctlError {}

/** Bad arguments, input that fails validation, a 422, a refused insecure URL. */
export class UsageError extends WsctlError {
  override readonly exitCode = ExitCode.usage;
}

/** Unreachable, timed out, or a body that is not the JSON expected. */
export class NetworkError extends WsctlError {
  override readonly exitCode = ExitCode.network;
}

/** No base URL or key, or the service said 401/403. */
export class AuthError extends WsctlError {
  override readonly exitCode = ExitCode.auth;
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
  readonly reason = 'declined';
  constructor() {
    super('Cancelled: nothing was sent.');
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
  AuthError,
  NotFoundError,
  InterruptedError,
  CancelledError,
  ConfigError,
})) {
  Object.defineProperty(kind.prototype, 'name', { value: name, writable: true, configurable: true });
}
