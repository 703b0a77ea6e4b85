// The one HTTP client (cli.md §7): base URL joining, Bearer auth, user agent, JSON, timeouts,
// retries, redirects, multipart uploads, --debug traces, --dry-run, and status → typed error.
// undici loads on the first request.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import {
  ApiError,
  AuthError,
  DryRunComplete,
  InterruptedError,
  NetworkError,
  NotFoundError,
  UsageError,
  type ErrorInfo,
} from './errors.js';
import { responseSchemas, type Response, type SchemaName } from './schemas.js';
import { cleanLine } from './terminal/sanitize.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface Upload {
  /** A fresh multipart body for each attempt. */
  open(): { stream: Readable; headers: Record<string, string> };
  describe: Record<string, string>;
}

export interface RequestSpec<N extends SchemaName | undefined = undefined> {
  method: Method;
  /** Path below the base URL; build it with `path` so that parameters are encoded. */
  path: string;
  body?: unknown;
  upload?: Upload;
  schema?: N;
  /** A repeat is safe even though the method is not GET or DELETE (PATCH of a permission). */
  idempotent?: boolean;
  /** Accept any 2xx body, JSON or not (device rm, api). */
  anyBody?: boolean;
  /** Names what a 404 refers to: "device 'dev_phone'". */
  what?: string;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body (validated when a schema was given), or the raw text with anyBody. */
  body: T;
  isJson: boolean;
  requestId?: string;
}

export interface DryRunRequest {
  method: Method;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface ApiSettings {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  debug: boolean;
  dryRun: boolean;
  userAgent: string;
  signal: AbortSignal;
  trace: (line: string) => void;
  printDryRun: (request: DryRunRequest) => void;
  /** The next step when the service rejects the key: names the profile or variable in use. */
  authHint?: string;
  /** Milliseconds of the first retry delay; doubled each time, with jitter. */
  backoffMs?: number;
  /** The largest response body read, in bytes. */
  maxBodyBytes?: number;
  /** HTTP_PROXY, HTTPS_PROXY and NO_PROXY as the environment gives them. */
  proxy?: { http?: string; https?: string; noProxy?: string };
}

const MAX_TRIES = 3;
const MAX_RETRY_AFTER_S = 10;
const MAX_REDIRECTS = 5;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
// Any field whose name ends in key, token, secret or password: api_key, secret_key, access_token,
// client_secret, private_key … (key_prefix and key_storage are not secrets).
const SECRET_NAME = /(key|token|secret|password)$/i;
const SECRET_IN_TEXT = /("[A-Za-z0-9_-]*(?:key|token|secret|password)"\s*:\s*")(?:[^"\\]|\\.)*("?)/gi;
const REDACTED = '[redacted]';

/** A path with every interpolated value percent-encoded, dots too, so an id never leaves its segment. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((out, part, i) => {
    if (i === 0) return part;
    const value = values[i - 1] ?? '';
    const encoded = /^\.+$/.test(value) ? value.replace(/\./g, '%2E') : encodeURIComponent(value);
    return out + encoded + part;
  }, '');
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Parses a base URL and enforces cli.md §7: http only to loopback hosts. */
export function checkBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Invalid base URL '${raw}': give a full URL such as https://api.example.com.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`Invalid base URL '${raw}': only http:// and https:// are supported.`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(`Refusing plain http:// to ${url.hostname}: use https://, or http:// only to a loopback host.`);
  }
  if (url.username || url.password) throw new UsageError('The base URL must not contain credentials.');
  return url;
}

interface Target {
  origin: string;
  path: string;
  href: string;
}

function join(base: URL, relative: string): Target {
  const prefix = base.pathname.replace(/\/+$/, '');
  const rest = relative.startsWith('/') ? relative : `/${relative}`;
  const path = prefix + rest;
  return { origin: base.origin, path, href: base.origin + path };
}

const MAX_DEPTH = 512;
const DEPTH_WALK_LIMIT = 4 * 1024 * 1024;

/** zod's verdict, or 'too deep' where validating overflowed the stack. */
function safeParseShallow(schema: SchemaName, value: unknown): ReturnType<(typeof responseSchemas)[SchemaName]['safeParse']> | 'too deep' {
  try {
    return responseSchemas[schema].safeParse(value);
  } catch (error) {
    if (error instanceof RangeError) return 'too deep';
    throw error;
  }
}

/** Whether a parsed JSON value nests deeper than limit; iterative, so it cannot overflow itself. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Where a redirect points, if wsctl may follow it there: http(s) only, plain http only to loopback. */
function redirectTarget(location: string, from: string, status: number): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new NetworkError(`The service redirected (HTTP ${status}) to a location that is not a URL ('${cleanLine(location).slice(0, 200)}').`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new NetworkError(`The service redirected (HTTP ${status}) to a ${cleanLine(next.protocol)} location; wsctl follows http(s) only.`);
  }
  if (next.protocol === 'http:' && !isLoopback(next.hostname)) {
    throw new NetworkError(`Refusing a redirect to plain http:// at ${cleanLine(next.host)}.`);
  }
  return next;
}

export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_NAME.test(k.replace(/[-_]/g, '')) && typeof v === 'string' ? REDACTED : redact(v)]),
    );
  }
  return value;
}

/** Text for a --debug trace: secrets redacted, JSON or not (a truncated body too), on one line. */
export function redactText(text: string): string {
  let redacted: string;
  try {
    redacted = JSON.stringify(redact(JSON.parse(text)));
  } catch {
    redacted = text.replace(SECRET_IN_TEXT, `$1${REDACTED}$2`).replace(/\b(wsk|sk)[-_][A-Za-z0-9_-]{6,}/g, REDACTED);
  }
  return cleanLine(redacted);
}

/** A header value for a --debug trace. */
function traceHeader(name: string, value: string): string {
  if (name === 'authorization' || name === 'proxy-authorization') return `${value.split(' ')[0]} ${REDACTED}`;
  if (SECRET_NAME.test(name.replace(/[-_]/g, '')) || name === 'cookie' || name === 'set-cookie') return REDACTED;
  return cleanLine(value);
}

/** Seconds to wait from a Retry-After header (seconds or HTTP date), or undefined. */
export function retryAfterSeconds(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

function errorCode(error: unknown): string | undefined {
  let current = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === 'string' && !current.code.startsWith('UND_ERR_ABORTED')) return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new InterruptedError());
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(new InterruptedError());
    }
    signal.addEventListener('abort', abort, { once: true });
  });
}

function describeStatus(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.detail === 'string') return b.detail;
    if (b.error && typeof b.error === 'object' && typeof (b.error as { message?: unknown }).message === 'string') {
      return (b.error as { message: string }).message;
    }
    if (typeof b.message === 'string') return b.message;
  }
  return '';
}

/** "a.b: msg" lines of a 422 detail array, or undefined when the body has none. */
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

interface Transport {
  dispatcher: Dispatcher;
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

async function createTransport(proxy: NonNullable<ApiSettings['proxy']>): Promise<Transport> {
  const viaProxy = !!(proxy.http || proxy.https);
  if (!viaProxy) {
    // undici parses HTTP with a WebAssembly module; V8's optimising tier-up of it would hold the
    // process for ~140 ms at exit, for a parser that only ever reads a few responses here.
    const v8 = await import('node:v8');
    v8.setFlagsFromString('--liftoff-only');
  }
  if (viaProxy) {
    // The proxy agent needs the whole of undici (its CONNECT support comes from the index).
    const undici = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
    const { EnvHttpProxyAgent } = undici.default ?? undici;
    const dispatcher = new EnvHttpProxyAgent({ httpProxy: proxy.http ?? '', httpsProxy: proxy.https ?? '', noProxy: proxy.noProxy ?? '' });
    return { dispatcher, request: (options) => dispatcher.request(options) };
  }
  const [{ default: request }, { default: Agent }] = await Promise.all([import('undici/lib/api/api-request.js'), import('undici/lib/dispatcher/agent.js')]);
  const dispatcher = new Agent();
  return { dispatcher, request: (options) => request.call(dispatcher, options) };
}

interface Attempt {
  status: number;
  headers: Record<string, string>;
  text: string;
  ms: number;
}

export class Api {
  private readonly base: URL;
  private transport?: Transport;

  constructor(private readonly settings: ApiSettings) {
    this.base = checkBaseUrl(settings.baseUrl);
  }

  get baseUrl(): string {
    return this.settings.baseUrl;
  }

  async request<N extends SchemaName | undefined = undefined>(
    spec: RequestSpec<N>,
  ): Promise<ApiResponse<N extends SchemaName ? Response<N> : unknown>> {
    const s = this.settings;
    let target = join(this.base, spec.path);
    const json = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': s.userAgent,
    };
    if (json !== undefined) headers['content-type'] = 'application/json';
    if (s.apiKey) headers.authorization = `Bearer ${s.apiKey}`;

    if (s.dryRun) {
      s.printDryRun({
        method: spec.method,
        url: target.href,
        headers: { ...headers, ...(s.apiKey ? { authorization: `Bearer ${REDACTED}` } : {}) },
        body: spec.upload ? spec.upload.describe : redact(spec.body),
      });
      throw new DryRunComplete();
    }

    const safeToRepeat = spec.method === 'GET' || spec.method === 'HEAD' || spec.method === 'DELETE' || !!spec.idempotent;
    let method = spec.method;
    let body: string | Upload | undefined = spec.upload ?? json;
    let redirects = 0;
    let lastError: Error | undefined;
    for (let tryNo = 1; tryNo <= MAX_TRIES; tryNo++) {
      let attempt: Attempt;
      try {
        attempt = await this.send(method, target, headers, body);
      } catch (error) {
        if (s.signal.aborted) throw new InterruptedError();
        if (error instanceof NetworkError) throw error;
        const failure = this.networkFailure(error, target);
        if (!failure) throw error;
        // A refused connection carried no byte, so even a POST may go again.
        const nothingSent = errorCode(error) === 'ECONNREFUSED';
        lastError = failure;
        if ((safeToRepeat || nothingSent) && tryNo < MAX_TRIES) {
          await this.backoff(tryNo, undefined);
          continue;
        }
        throw failure;
      }

      if (attempt.status >= 300 && attempt.status < 400 && attempt.headers.location && redirects < MAX_REDIRECTS) {
        redirects++;
        tryNo--;
        const next = redirectTarget(attempt.headers.location, target.href, attempt.status);
        // 303 means "see other": fetch it with GET, without the body.
        if (attempt.status === 303) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
        }
        if (next.origin !== target.origin) {
          // A body may hold secrets (byok add's provider key): it never goes to another origin.
          if (body !== undefined) {
            throw new NetworkError(`The service redirected ${method} ${target.path} to another origin (${cleanLine(next.origin)}); wsctl does not re-send a request body there.`, this.info(attempt));
          }
          delete headers.authorization;
        }
        target = { origin: next.origin, path: next.pathname + next.search, href: next.href };
        continue;
      }

      if (RETRY_STATUSES.has(attempt.status)) {
        const wait = retryAfterSeconds(attempt.headers['retry-after']);
        if (wait !== undefined && wait > MAX_RETRY_AFTER_S) {
          const at = new Date(Date.now() + wait * 1000);
          const when = Number.isNaN(at.getTime()) || wait > 10 * 365 * 86_400 ? 'much later' : `at ${at.toISOString()}`;
          throw new ApiError(`The service is busy (HTTP ${attempt.status}) and asks to retry after ${wait > 1e9 ? 'a very long time' : `${Math.ceil(wait)} s`} (${when}). Try again then.`, this.info(attempt));
        }
        if (safeToRepeat && tryNo < MAX_TRIES) {
          await this.backoff(tryNo, wait);
          continue;
        }
      }
      return this.finish(spec, attempt);
    }
    throw lastError ?? new NetworkError('The request failed.');
  }

  private info(attempt: Attempt, details?: unknown): ErrorInfo {
    const requestId = attempt.headers['x-request-id'] ?? attempt.headers['request-id'];
    return { status: attempt.status, requestId, details };
  }

  private async backoff(tryNo: number, retryAfter: number | undefined): Promise<void> {
    const base = this.settings.backoffMs ?? 300;
    const exponential = base * 2 ** (tryNo - 1);
    const jittered = exponential / 2 + Math.random() * (exponential / 2);
    const ms = retryAfter !== undefined ? retryAfter * 1000 : jittered;
    if (this.settings.debug) this.settings.trace(`* retrying in ${Math.round(ms)} ms`);
    await sleep(ms, this.settings.signal);
  }

  /** The network error behind a failed attempt, or undefined when it was not the network (a bug). */
  private networkFailure(error: unknown, target: Target): NetworkError | undefined {
    const code = errorCode(error);
    const where = target.origin;
    if ((error as Error).name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new NetworkError(`No answer from ${where} within ${this.settings.timeoutMs / 1000} s. Check the service, or raise --timeout.`);
    }
    // undici's tunnel through a proxy: the proxy's own answer to CONNECT.
    const tunnel = /Proxy response \((\d+)\)/.exec((error as Error).message ?? '');
    if (tunnel) {
      const proxy = this.proxyFor(target) ?? 'the proxy';
      if (tunnel[1] === '407') return new NetworkError(`The proxy ${proxy} asks for credentials (HTTP 407): put them in the proxy URL (http://user:password@host:port).`);
      return new NetworkError(`The proxy ${proxy} refused to connect to ${where} (HTTP ${tunnel[1]}).`);
    }
    if (!code) return undefined;
    const reasons: Record<string, string> = {
      ECONNREFUSED: 'connection refused',
      ECONNRESET: 'connection reset',
      ENOTFOUND: 'host not found',
      EAI_AGAIN: 'DNS lookup failed',
      UND_ERR_SOCKET: 'connection closed unexpectedly',
      ETIMEDOUT: 'connection timed out',
    };
    const reason = (code && reasons[code]) ?? (code?.startsWith('ERR_TLS') || code?.includes('CERT') ? `TLS failure (${code})` : cleanLine((error as Error).message));
    const proxy = this.proxyFor(target);
    if (proxy) return new NetworkError(`Cannot reach ${where} through the proxy ${proxy}: ${reason}. Check the proxy and HTTPS_PROXY, HTTP_PROXY or NO_PROXY.`);
    return new NetworkError(`Cannot reach ${where}: ${reason}. Check the base URL and your network.`);
  }

  /** The proxy a request to target goes through (credentials hidden), if any. */
  private proxyFor(target: Target): string | undefined {
    const proxy = this.settings.proxy;
    const raw = target.origin.startsWith('https:') ? proxy?.https || proxy?.http : proxy?.http;
    if (!raw) return undefined;
    const host = new URL(target.origin).hostname;
    const bypass = (proxy?.noProxy ?? '').split(',').map((p) => p.trim().replace(/^\*?\./, '')).filter(Boolean);
    if (bypass.some((p) => p === '*' || host === p || host.endsWith(`.${p}`))) return undefined;
    try {
      const url = new URL(raw);
      return `${url.protocol}//${url.host}`;
    } catch {
      return cleanLine(raw);
    }
  }

  private async send(method: Method, target: Target, headers: Record<string, string>, body: string | Upload | undefined): Promise<Attempt> {
    const s = this.settings;
    this.transport ??= await createTransport(s.proxy ?? {});
    const timeout = AbortSignal.timeout(s.timeoutMs);
    const signal = AbortSignal.any([s.signal, timeout]);
    let payload: string | Readable | undefined;
    const sent = { ...headers };
    if (typeof body === 'string') payload = body;
    else if (body) {
      const opened = body.open();
      payload = opened.stream;
      Object.assign(sent, opened.headers);
    }
    if (s.debug) {
      s.trace(`> ${method} ${cleanLine(target.href)}`);
      for (const [k, v] of Object.entries(sent)) s.trace(`> ${k}: ${traceHeader(k, v)}`);
      if (typeof body === 'string') s.trace(`> ${redactText(body).slice(0, 4096)}`);
    }
    const started = Date.now();
    try {
      const response = await this.transport.request({
        origin: target.origin,
        path: target.path,
        method,
        headers: sent,
        body: payload,
        signal,
      });
      const text = await this.readBody(response.body, target);
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(response.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      const attempt = { status: response.statusCode, headers: flat, text, ms: Date.now() - started };
      if (s.debug) {
        s.trace(`< ${attempt.status} (${attempt.ms} ms)`);
        for (const [k, v] of Object.entries(flat)) s.trace(`< ${cleanLine(k)}: ${traceHeader(k, v)}`);
        if (text) s.trace(`< ${redactText(text).slice(0, 4096)}`);
      }
      return attempt;
    } catch (error) {
      if (timeout.aborted && !s.signal.aborted) {
        const e = new Error('timeout');
        e.name = 'TimeoutError';
        throw e;
      }
      throw error;
    }
  }

  private async readBody(stream: AsyncIterable<Buffer> & { destroy(): void }, target: Target): Promise<string> {
    const limit = this.settings.maxBodyBytes ?? 256 * 1024 * 1024;
    // Decoded as it arrives: a large body is never held as bytes and as text at once.
    const decoder = new TextDecoder();
    const parts: string[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += chunk.length;
      if (size > limit) {
        stream.destroy();
        throw new NetworkError(`The response from ${target.origin} is larger than ${Math.round(limit / 1048576)} MiB; wsctl stopped reading it.`);
      }
      parts.push(decoder.decode(chunk, { stream: true }));
    }
    parts.push(decoder.decode());
    return parts.join('');
  }

  private async finish<N extends SchemaName | undefined>(spec: RequestSpec<N>, attempt: Attempt): Promise<ApiResponse<N extends SchemaName ? Response<N> : unknown>> {
    let parsed: unknown;
    let isJson = false;
    const empty = attempt.text.trim() === '';
    // A deep body is small (100,000 levels take 200 KB): only small bodies are walked for depth.
    const walkDepth = attempt.text.length < DEPTH_WALK_LIMIT;
    if (!empty) {
      try {
        parsed = JSON.parse(attempt.text);
        isJson = true;
        attempt.text = ''; // a large body is parsed now: let its text go before validation
      } catch {
        parsed = attempt.text;
      }
    }
    // JSON.parse takes any depth; printing, validating or reporting it recurses and would overflow.
    if (isJson && walkDepth && nestedDeeperThan(parsed, MAX_DEPTH)) {
      const what = `The service sent JSON nested more than ${MAX_DEPTH} levels deep (HTTP ${attempt.status}); wsctl cannot handle it.`;
      throw new NetworkError(what, { status: attempt.status, requestId: this.info(attempt).requestId });
    }
    const { status } = attempt;
    if (status >= 400 || (status >= 300 && status < 400)) throw this.statusError(spec, attempt, parsed);

    if (!spec.anyBody) {
      if (!isJson) {
        const type = attempt.headers['content-type'] ?? 'no content type';
        const what = empty ? 'an empty body' : `a body that is not JSON (${type})`;
        throw new NetworkError(`The service sent ${what} where JSON was expected (HTTP ${status}).`, this.info(attempt));
      }
      if (spec.schema) {
        const result = safeParseShallow(spec.schema, parsed);
        if (result === 'too deep') throw new NetworkError(`The service sent JSON nested too deeply to handle (HTTP ${status}).`, this.info(attempt));
        if (!result.success) {
          const issue = result.error.issues[0];
          const where = issue?.path.length ? issue.path.join('.') : 'body';
          const what = issue && 'expected' in issue ? `expected ${String(issue.expected)}` : (issue?.message ?? 'invalid');
          throw new NetworkError(`The service sent JSON of an unexpected shape (${where}: ${what}).`, this.info(attempt));
        }
      }
    }
    return {
      status,
      headers: attempt.headers,
      body: parsed as N extends SchemaName ? Response<N> : unknown,
      isJson,
      requestId: this.info(attempt).requestId,
    };
  }

  private statusError(spec: RequestSpec<SchemaName | undefined>, attempt: Attempt, body: unknown): Error {
    const { status } = attempt;
    // Service text goes into a one-line message: it must not forge extra lines.
    const said = cleanLine(describeStatus(status, body)).slice(0, 500);
    const suffix = said ? `: ${said}` : '';
    if (status === 407) {
      const proxy = this.proxyFor({ origin: this.base.origin, path: '', href: '' }) ?? 'the proxy';
      return new NetworkError(`The proxy ${proxy} asks for credentials (HTTP 407): put them in the proxy URL (http://user:password@host:port).`, this.info(attempt));
    }
    if (status === 401 || status === 403) {
      const hint = this.settings.authHint ?? 'Run `wsctl auth login` or check WSCTL_API_KEY.';
      return new AuthError(`The service rejected the API key (HTTP ${status}${suffix}). ${hint}`, this.info(attempt));
    }
    if (status === 404) {
      const what = spec.what ? `${spec.what.charAt(0).toUpperCase()}${spec.what.slice(1)} not found` : `Not found: ${spec.method} ${spec.path}`;
      return new NotFoundError(`${what} (HTTP 404${suffix}).`, this.info(attempt));
    }
    if (status === 422) {
      const lines = validationLines(body);
      const message = lines ? `The service rejected the input (HTTP 422):\n${lines.map((l) => `  ${l}`).join('\n')}` : `The service rejected the input (HTTP 422${suffix}).`;
      return new UsageError(message, this.info(attempt, (body as { detail?: unknown } | undefined)?.detail));
    }
    if (status >= 300 && status < 400) return new ApiError(`Too many redirects (HTTP ${status}).`, this.info(attempt));
    return new ApiError(`The service answered HTTP ${status}${suffix}.`, this.info(attempt, typeof body === 'object' ? body : undefined));
  }

  async close(): Promise<void> {
    await this.transport?.dispatcher.close().catch(() => {});
  }
}
