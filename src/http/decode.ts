// Decoding: the body parsed and validated with the response schema, depth bounded, and each
// status turned into the typed error of cli.md §4.
import { ApiError, AuthError, BadResponseError, NetworkError, NotFoundError, UsageError, type ErrorInfo } from '../errors.js';
import type * as z from 'zod/mini';
import { responseSchemas, type SchemaName } from '../schemas.js';
import { cleanLine } from '../common/sanitize.js';
import { maskUrlPassword } from './redact.js';
import { quickCheck } from '../tricks/registry.js';
import type { Attempt } from './transport.js';

const MAX_DEPTH = 512;

export interface Decoded {
  body: unknown;
  isJson: boolean;
  /** The JSON body as the service wrote it: what --json prints (cli.md §3), re-indented. */
  text?: string;
}

export interface DecodeOptions {
  schema?: SchemaName;
  anyBody?: boolean;
  method: string;
  path: string;
  /** Names what a 404 refers to: "device 'dev_phone'". */
  what?: string;
  /** The next step when the service rejects the key. */
  authHint: string;
  proxy?: string;
}

export function errorInfo(attempt: Attempt, details?: unknown): ErrorInfo {
  const requestId = attempt.headers['x-request-id'] ?? attempt.headers['request-id'];
  return { status: attempt.status, requestId, details };
}

/**
 * Whether a parsed JSON value nests deeper than limit: iterative, so it cannot overflow itself,
 * and without an allocation per node (a 45 MB transcript takes a tenth of its JSON.parse).
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const nodes: object[] = [value];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth >= limit) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (child !== null && typeof child === 'object') {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node) {
        const child = node[key];
        if (child !== null && typeof child === 'object') {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

function describeStatus(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.detail === 'string') return b.detail;
    if (b.error && typeof b.error === 'object' && typeof (b.error as { message?: unknown }).message === 'string')
      return (b.error as { message: string }).message;
    if (typeof b.message === 'string') return b.message;
  }
  return '';
}

/** "a.b: msg" lines of a 422 detail array, each on one line, or undefined when the body has none. */
export function validationLines(body: unknown): string[] | undefined {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) return undefined;
  return detail.map((entry) => {
    const e = entry as { loc?: unknown; msg?: unknown };
    const loc = Array.isArray(e.loc) ? cleanLine(e.loc.join('.')) : '';
    const msg = cleanLine(typeof e.msg === 'string' ? e.msg : JSON.stringify(entry)).slice(0, 500);
    return loc ? `${loc}: ${msg}` : msg;
  });
}

function statusError(options: DecodeOptions, attempt: Attempt, body: unknown): Error {
  const { status } = attempt;
  // Service text goes into a one-line message: it must not forge extra lines.
  const said = cleanLine(describeStatus(body)).slice(0, 500);
  const suffix = said ? `: ${said}` : '';
  if (status === 407) {
    if (!options.proxy)
      return new NetworkError(
        `The service answered HTTP 407 (proxy authentication required) although no proxy is in use: check the base URL, or set HTTPS_PROXY if a proxy is needed.`,
        errorInfo(attempt),
      );
    return new NetworkError(
      `The proxy ${options.proxy} asks for credentials (HTTP 407): put them in the proxy URL (http://user:password@host:port).`,
      errorInfo(attempt),
    );
  }
  if (status === 401 || status === 403)
    return new AuthError(`The service rejected the API key (HTTP ${status}${suffix}). ${options.authHint}`, errorInfo(attempt));
  if (status === 404) {
    const what = options.what
      ? `${options.what.charAt(0).toUpperCase()}${options.what.slice(1)} not found`
      : `Not found: ${options.method} ${cleanLine(maskUrlPassword(options.path))}`;
    return new NotFoundError(`${what} (HTTP 404${suffix}).`, errorInfo(attempt));
  }
  if (status === 422) {
    const lines = validationLines(body);
    const message = lines
      ? `The service rejected the input (HTTP 422):\n${lines.map((l) => `  ${l}`).join('\n')}`
      : `The service rejected the input (HTTP 422${suffix}).`;
    return new UsageError(message, errorInfo(attempt, (body as { detail?: unknown } | undefined)?.detail));
  }
  if ([301, 302, 303, 307, 308].includes(status)) {
    // Followed redirects end here only when there are too many, or when there is nowhere to go.
    if ((attempt.headers.location ?? '').trim() === '')
      return new NetworkError(
        `The service redirected (HTTP ${status}) without a location to go to; wsctl cannot follow it.`,
        errorInfo(attempt),
      );
    return new ApiError(`Too many redirects (HTTP ${status}).`, errorInfo(attempt));
  }
  return new ApiError(`The service answered HTTP ${status}${suffix}.`, errorInfo(attempt, typeof body === 'object' ? body : undefined));
}

/** The body of a final attempt, or the typed error its status or shape means. */
export function decode(attempt: Attempt, options: DecodeOptions): Decoded {
  let parsed: unknown;
  let isJson = false;
  let text: string | undefined;
  const empty = attempt.text.trim() === '';
  if (!empty) {
    try {
      parsed = JSON.parse(attempt.text);
      isJson = true;
      text = attempt.text;
      attempt.text = '';
    } catch {
      parsed = attempt.text;
    }
  }
  const { status } = attempt;
  // JSON.parse takes any depth; printing, validating or reporting it recurses and would overflow.
  // Checked at every size: a deep body of 4 MiB is as deep as one of 200 KB.
  if (isJson && nestedDeeperThan(parsed, MAX_DEPTH)) {
    throw new BadResponseError(
      `The service sent JSON nested more than ${MAX_DEPTH} levels deep (HTTP ${status}); wsctl cannot handle it.`,
      errorInfo(attempt),
    );
  }
  if (status >= 300) throw statusError(options, attempt, parsed);
  if (options.anyBody) return { body: parsed, isJson, text };
  if (!isJson) {
    const type = attempt.headers['content-type'] ?? 'no content type';
    const what = empty ? 'an empty body' : `a body that is not JSON (${cleanLine(type)})`;
    throw new BadResponseError(`The service sent ${what} where JSON was expected (HTTP ${status}).`, errorInfo(attempt));
  }
  if (options.schema) checkShape(responseSchemas[options.schema](), parsed, [], errorInfo(attempt));
  return { body: parsed, isJson, text };
}

/** Throws the exit-3 error when value does not fit schema; `at` is where value sits in the body. */
export function checkShape(schema: z.ZodMiniType, value: unknown, at: (string | number)[], info: ErrorInfo): void {
  if (quickCheck(schema)?.(value)) return;
  let result: ReturnType<z.ZodMiniType['safeParse']>;
  try {
    result = schema.safeParse(value);
  } catch (error) {
    if (error instanceof RangeError)
      throw new BadResponseError(`The service sent JSON nested too deeply to handle (HTTP ${info.status}).`, info);
    throw error;
  }
  if (result.success) return;
  const issue = result.error.issues[0];
  const path = [...at, ...(issue?.path ?? [])];
  const where = path.length ? path.join('.') : 'body';
  const what = issue && 'expected' in issue ? `expected ${String(issue.expected)}` : (issue?.message ?? 'invalid');
  throw new BadResponseError(`The service sent JSON of an unexpected shape (${cleanLine(where)}: ${what}).`, info);
}

/** A body that is not the JSON expected, taken apart as it arrived (Api.stream). */
export function notJson(status: number, headers: Record<string, string>, reason: string, info: ErrorInfo): NetworkError {
  if (reason === 'the body is empty')
    return new BadResponseError(`The service sent an empty body where JSON was expected (HTTP ${status}).`, info);
  const type = headers['content-type'] ?? 'no content type';
  return new BadResponseError(
    `The service sent a body that is not JSON (${cleanLine(type)}) where JSON was expected (HTTP ${status}): ${cleanLine(reason)}.`,
    info,
  );
}
