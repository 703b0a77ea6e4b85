// Policy: which attempts may be repeated, how long to wait (backoff with jitter, Retry-After),
// and which redirects wsctl follows, and with what (cli.md §7). Pure decisions: the client in
// ./index.ts acts on them.
import { ApiError, NetworkError, type ErrorInfo } from '../errors.js';
import { cleanLine } from '../common/sanitize.js';
import { BAD_HEADER, NOT_HTTP } from './transport.js';
import { isLoopback, type Target } from './url.js';

export const MAX_TRIES = 3;
export const MAX_REDIRECTS = 5;
const MAX_RETRY_AFTER_S = 10;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** A repeat is safe for GET, HEAD and DELETE, and where the request says so (a permission PATCH). */
export function safeToRepeat(method: string, idempotent: boolean): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'DELETE' || idempotent;
}

/** A service that sent a header HTTP forbids, or no HTTP at all, answers the same way again. */
export function worthRepeating(code: string | undefined): boolean {
  return code !== BAD_HEADER && code !== NOT_HTTP;
}

/** A connection that was refused carried no byte: even a POST may go again. */
export function nothingSent(code: string | undefined): boolean {
  return code === 'ECONNREFUSED';
}

/** Seconds to wait from a Retry-After header (seconds or HTTP date), or undefined. */
export function retryAfterSeconds(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/** Milliseconds before try tryNo + 1: Retry-After when given, else exponential with jitter. */
export function backoffMs(tryNo: number, baseMs: number, retryAfter: number | undefined): number {
  if (retryAfter !== undefined) return retryAfter * 1000;
  const exponential = baseMs * 2 ** (tryNo - 1);
  return exponential / 2 + Math.random() * (exponential / 2);
}

export type StatusDecision = { retry: false } | { retry: true; retryAfter?: number };

/** What a status means for the next try: retry (after how long), or stop here. */
export function onStatus(
  status: number,
  retryAfterHeader: string | undefined,
  repeatable: boolean,
  tryNo: number,
  info: ErrorInfo,
): StatusDecision {
  if (!RETRY_STATUSES.has(status)) return { retry: false };
  const wait = retryAfterSeconds(retryAfterHeader);
  if (wait !== undefined && wait > MAX_RETRY_AFTER_S) {
    const at = new Date(Date.now() + wait * 1000);
    const when = Number.isNaN(at.getTime()) || wait > 10 * 365 * 86_400 ? 'much later' : `at ${at.toISOString()}`;
    const after = wait > 1e9 ? 'a very long time' : `${Math.ceil(wait)} s`;
    throw new ApiError(`The service is busy (HTTP ${status}) and asks to retry after ${after} (${when}). Try again then.`, info);
  }
  return repeatable && tryNo < MAX_TRIES ? { retry: true, retryAfter: wait } : { retry: false };
}

export interface Hop {
  method: string;
  target: Target;
  /** The request body; undefined when there is none (or a 303 dropped it). */
  body: unknown;
  headers: Record<string, string>;
}

/** Where a redirect points, if wsctl may follow it there: http(s) only, plain http only to loopback. */
function redirectTarget(location: string, from: string, status: number): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new NetworkError(
      `The service redirected (HTTP ${status}) to a location that is not a URL ('${cleanLine(location).slice(0, 200)}').`,
    );
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new NetworkError(
      `The service redirected (HTTP ${status}) to a ${cleanLine(next.protocol)} location; wsctl follows http(s) only.`,
    );
  }
  if (next.protocol === 'http:' && !isLoopback(next.hostname)) {
    throw new NetworkError(`Refusing a redirect to plain http:// at ${cleanLine(next.host)}.`);
  }
  return next;
}

/**
 * The next hop of a redirect. A 303 is followed with GET and no body. Another origin never gets
 * the Authorization header, nor a request body (it may hold secrets: byok add's provider key).
 */
export function followRedirect(hop: Hop, status: number, location: string, info: ErrorInfo): Hop {
  const next = redirectTarget(location, hop.target.href, status);
  const headers = { ...hop.headers };
  let { method, body } = hop;
  if (status === 303) {
    method = 'GET';
    body = undefined;
    delete headers['content-type'];
  }
  if (next.origin !== hop.target.origin) {
    if (body !== undefined) {
      throw new NetworkError(
        `The service redirected ${method} ${hop.target.path} to another origin (${cleanLine(next.origin)}); wsctl does not re-send a request body there.`,
        info,
      );
    }
    delete headers.authorization;
  }
  return { method, body, headers, target: { origin: next.origin, path: next.pathname + next.search, href: next.href } };
}
