// Transport: one attempt over undici, with a timeout, a bounded body read and --debug traces;
// and what a failed attempt means, as a typed network error that names the proxy when there is one.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { BadResponseError, NetworkError } from '../errors.js';
import { cleanLine } from '../common/sanitize.js';
import { undiciParts } from '../tricks/registry.js';
import { maskUrlPassword, redactText, traceHeader } from './redact.js';
import type { Target } from './url.js';

export interface Upload {
  /** A fresh multipart body for each attempt. */
  open(): { stream: Readable; headers: Record<string, string> };
  describe: Record<string, string>;
}

export interface Attempt {
  status: number;
  headers: Record<string, string>;
  /** The whole body; empty when it is streamed. */
  text: string;
  /** A 2xx body as it arrives, when the caller asked for it streamed. */
  chunks?: AsyncIterable<Buffer>;
  ms: number;
}

export interface TransportSettings {
  timeoutMs: number;
  signal: AbortSignal;
  maxBodyBytes: number;
  /** A --debug trace line, or undefined without --debug. */
  trace?: (line: string) => void;
  proxy?: { http?: string; https?: string; noProxy?: string };
  /** Where the connections come from; closing the transport leaves them open. */
  connections?: Connections;
}

interface Client {
  dispatcher: Dispatcher;
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

/**
 * undici's own timers off (its 300 s defaults would cut a longer --timeout): the attempt's idle
 * timer is the one limit, and connecting may take as long as it.
 */
function timeouts(timeoutMs: number) {
  return { headersTimeout: 0, bodyTimeout: 0, connect: { timeout: timeoutMs } };
}

async function createClient(proxy: NonNullable<TransportSettings['proxy']>, timeoutMs: number): Promise<Client> {
  if (proxy.http || proxy.https) {
    // The proxy agent needs the whole of undici (its CONNECT support comes from the index).
    const undici = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
    const { EnvHttpProxyAgent } = undici.default ?? undici;
    const dispatcher = new EnvHttpProxyAgent({
      httpProxy: proxy.http ?? '',
      httpsProxy: proxy.https ?? '',
      noProxy: proxy.noProxy ?? '',
      allowH2: false,
      ...timeouts(timeoutMs),
    });
    return { dispatcher, request: (options) => dispatcher.request(options) };
  }
  const { Agent, request } = await undiciParts();
  // HTTP/1.1 on purpose: the build replaces node:http2 (see scripts/no-http2.cjs).
  const dispatcher = new Agent({ allowH2: false, ...timeouts(timeoutMs) });
  return { dispatcher, request: (options) => request.call(dispatcher, options) };
}

/**
 * Connections kept open between the requests of many contexts: a door that runs call after call
 * in one process (an MCP server) reuses them rather than connecting for each call. One client per
 * proxy setting and timeout, closed with the door. Only requests safe to repeat take them: a
 * connection the service closed while it idled fails the request that meets it, and those are
 * repeated; any other request connects anew, as in a command.
 */
export class Connections {
  private readonly clients = new Map<string, Promise<Client>>();

  client(proxy: NonNullable<TransportSettings['proxy']>, timeoutMs: number): Promise<Client> {
    const key = JSON.stringify([proxy.http, proxy.https, proxy.noProxy, timeoutMs]);
    let client = this.clients.get(key);
    if (!client) {
      const made = createClient(proxy, timeoutMs);
      this.clients.set(key, made);
      // A client that could not be made is made again next time.
      made.catch(() => this.clients.get(key) === made && this.clients.delete(key));
      client = made;
    }
    return client;
  }

  async close(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(clients.map(async (c) => (await c.catch(() => undefined))?.dispatcher.close().catch(() => {})));
  }
}

/** The first error code in an error's cause chain. */
export function errorCode(error: unknown): string | undefined {
  let current = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === 'string' && !current.code.startsWith('UND_ERR_ABORTED')) return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** Codes of our own for what undici reports without one (its HTTP parser's errors). */
export const BODY_CUT = 'WSCTL_BODY_CUT';
export const BAD_HEADER = 'WSCTL_BAD_HEADER';
export const NOT_HTTP = 'WSCTL_NOT_HTTP';

/**
 * undici's parser errors carry no code, and a header holding bytes HTTP forbids (ESC) can surface
 * as a Content-Length mismatch before any response exists: each gets a code saying what happened.
 * `headersSeen` tells a body cut short from a header block that never parsed.
 */
function withCode(error: unknown, headersSeen: boolean): unknown {
  const e = error as { name?: string; code?: string; message?: string } | null;
  if (!e || typeof e !== 'object') return error;
  const message = e.message ?? '';
  let code: string | undefined;
  if (e.code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') code = headersSeen ? BODY_CUT : BAD_HEADER;
  // The connection ended part-way through a body that had started.
  else if (headersSeen && (e.code === 'UND_ERR_SOCKET' || e.code === 'ECONNRESET')) code = BODY_CUT;
  else if (e.code === undefined && (e.name === 'HTTPParserError' || message.startsWith('Response does not match the HTTP/1.1 protocol'))) {
    if (/EOF/i.test(message)) code = BODY_CUT;
    else if (/header/i.test(message)) code = BAD_HEADER;
    else code = NOT_HTTP;
  }
  if (!code) return error;
  return Object.assign(new Error(message, { cause: error }), { code });
}

/**
 * The attempt's timer: runs only while wsctl waits on the network, and starts again at each piece
 * of progress. Its signal, the attempt's, aborts when the wait runs out or the interrupt comes,
 * until end() (one signal for both: linkedSignal would make a second).
 */
class IdleTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private ranOut = false;
  private readonly interrupted = () => this.controller.abort(this.interrupt.reason);
  /** Whether the wait that ran out was for the body (the answer had started). */
  inBody = false;

  constructor(
    private readonly ms: number,
    private readonly interrupt: AbortSignal,
  ) {
    if (interrupt.aborted) this.interrupted();
    else interrupt.addEventListener('abort', this.interrupted);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get fired(): boolean {
    return this.ranOut;
  }

  arm(): void {
    this.disarm();
    this.timer = setTimeout(() => {
      this.ranOut = true;
      this.controller.abort();
    }, this.ms);
  }

  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The attempt is over: the timer stops, and the interrupt is no longer followed. */
  end(): void {
    this.disarm();
    this.interrupt.removeEventListener('abort', this.interrupted);
  }
}

function tooLarge(target: Target, limit: number): NetworkError {
  return new NetworkError(
    `The response from ${target.origin} is larger than ${Math.round(limit / 1048576)} MiB; wsctl stopped reading it.`,
  );
}

/** The attempt's own timeout, told apart from Ctrl-C. */
function timedOut(timer: IdleTimer, interrupt: AbortSignal): Error | undefined {
  if (!timer.fired || interrupt.aborted) return undefined;
  const e = Object.assign(new Error('timeout'), { inBody: timer.inBody });
  e.name = 'TimeoutError';
  return e;
}

export class Transport {
  /** This transport's own client, for every request when there are no shared connections, and for those not safe to repeat. */
  private own?: Promise<Client>;
  private shared?: Promise<Client>;

  constructor(private readonly settings: TransportSettings) {}

  /** The proxy a request to target goes through (credentials hidden), if any. */
  proxyFor(origin: string): string | undefined {
    const proxy = this.settings.proxy;
    const raw = origin.startsWith('https:') ? proxy?.https || proxy?.http : proxy?.http;
    if (!raw) return undefined;
    const host = new URL(origin).hostname;
    const bypass = (proxy?.noProxy ?? '')
      .split(',')
      .map((p) => p.trim().replace(/^\*?\./, ''))
      .filter(Boolean);
    if (bypass.some((p) => p === '*' || host === p || host.endsWith(`.${p}`))) return undefined;
    try {
      const url = new URL(raw);
      return `${url.protocol}//${url.host}`;
    } catch {
      return cleanLine(raw);
    }
  }

  /**
   * One attempt: status, headers and the whole body as text (bounded), or a 2xx body as it arrives
   * when `stream`. `repeatable`: the request is safe to repeat, and may go on a shared connection.
   */
  async send(
    method: string,
    target: Target,
    headers: Record<string, string>,
    body: string | Upload | undefined,
    stream = false,
    repeatable = false,
  ): Promise<Attempt> {
    const s = this.settings;
    const client = await (repeatable && s.connections
      ? (this.shared ??= s.connections.client(s.proxy ?? {}, s.timeoutMs))
      : (this.own ??= createClient(s.proxy ?? {}, s.timeoutMs)));
    // --timeout is the longest wait without progress: for the answer to start, then between two pieces of the body.
    let payload: string | Readable | undefined;
    const sent = { ...headers };
    if (typeof body === 'string') payload = body;
    else if (body) {
      const opened = body.open();
      payload = opened.stream;
      Object.assign(sent, opened.headers);
    }
    if (s.trace) {
      s.trace(`> ${method} ${cleanLine(maskUrlPassword(target.href))}`);
      for (const [k, v] of Object.entries(sent)) s.trace(`> ${k}: ${traceHeader(k, v)}`);
      if (typeof body === 'string') s.trace(`> ${redactText(body).slice(0, 4096)}`);
    }
    const started = Date.now();
    let headersSeen = false;
    // Ended when the body has been read, or the attempt failed.
    const timer = new IdleTimer(s.timeoutMs, s.signal);
    timer.arm();
    try {
      const response = await client.request({
        origin: target.origin,
        path: target.path,
        method: method as Dispatcher.HttpMethod,
        headers: sent,
        body: payload,
        signal: timer.signal,
      });
      headersSeen = true;
      timer.disarm();
      timer.inBody = true;
      const streamed = stream && response.statusCode >= 200 && response.statusCode < 300;
      const chunks = streamed ? this.bounded(response.body, target, timer) : undefined;
      const text = chunks ? '' : await this.readBody(response.body, target, timer);
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(response.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      const attempt: Attempt = { status: response.statusCode, headers: flat, text, ms: Date.now() - started };
      if (chunks) attempt.chunks = chunks;
      if (s.trace) {
        s.trace(`< ${attempt.status} (${attempt.ms} ms)`);
        for (const [k, v] of Object.entries(flat)) s.trace(`< ${cleanLine(k)}: ${traceHeader(k, v)}`);
        if (text) s.trace(`< ${redactText(text).slice(0, 4096)}`);
        if (streamed) s.trace('< (body read as it arrives)');
      }
      return attempt;
    } catch (error) {
      timer.end();
      throw timedOut(timer, s.signal) ?? withCode(error, headersSeen);
    }
  }

  /**
   * The body as it arrives, within the size bound. The timer runs only while waiting for the next
   * piece: a body that keeps arriving is never cut, however long it takes, nor is one whose reader
   * is slow (a pager the person is reading).
   */
  private async *bounded(stream: AsyncIterable<Buffer> & { destroy(): void }, target: Target, timer: IdleTimer): AsyncIterable<Buffer> {
    const limit = this.settings.maxBodyBytes;
    const pieces = stream[Symbol.asyncIterator]();
    let size = 0;
    try {
      for (;;) {
        timer.arm();
        const next = await pieces.next();
        timer.disarm();
        if (next.done) break;
        const chunk = next.value;
        size += chunk.length;
        if (size > limit) throw tooLarge(target, limit);
        yield chunk;
      }
    } catch (error) {
      throw timedOut(timer, this.settings.signal) ?? withCode(error, true);
    } finally {
      timer.end();
      stream.destroy();
    }
  }

  /**
   * The whole body as text, decoded as it arrives (a large body is never held as bytes and as text
   * at once), within the size bound and with the timer of bounded(). Read from the stream's events:
   * for the small answers of most requests, async iteration's promises cost more than the read.
   */
  private readBody(stream: Readable, target: Target, timer: IdleTimer): Promise<string> {
    const limit = this.settings.maxBodyBytes;
    const decoder = new TextDecoder();
    const parts: string[] = [];
    let size = 0;
    return new Promise((resolve, reject) => {
      const end = (error?: unknown) => {
        timer.end();
        // Destroyed, it emits no more; a late error would have nobody to hear it.
        stream
          .off('data', piece)
          .off('end', end)
          .off('error', end)
          .off('close', closed)
          .on('error', () => {});
        stream.destroy();
        if (error === undefined) resolve(parts.join('') + decoder.decode());
        else reject(timedOut(timer, this.settings.signal) ?? withCode(error, true));
      };
      const piece = (chunk: Buffer) => {
        timer.arm();
        size += chunk.length;
        if (size > limit) end(tooLarge(target, limit));
        else parts.push(decoder.decode(chunk, { stream: true }));
      };
      // Closed with neither an end nor an error (undici gives one, a future one might not): as the
      // stream's own iterator says it.
      const closed = () => end(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
      stream.on('data', piece).on('end', end).on('error', end).on('close', closed);
      timer.arm();
    });
  }

  /** The network error behind a failed attempt, or undefined when it was not the network (a bug). */
  failure(error: unknown, target: Target): NetworkError | undefined {
    const code = errorCode(error);
    const where = target.origin;
    const seconds = this.settings.timeoutMs / 1000;
    if (((error as Error).name === 'TimeoutError' && (error as { inBody?: boolean }).inBody) || code === 'UND_ERR_BODY_TIMEOUT') {
      return new NetworkError(
        `The answer from ${where} stopped arriving: nothing came for ${seconds} s. Check the service, or raise --timeout.`,
        { reason: 'timeout' },
      );
    }
    if ((error as Error).name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT') {
      return new NetworkError(`No answer from ${where} within ${seconds} s. Check the service, or raise --timeout.`, { reason: 'timeout' });
    }
    if (code === BODY_CUT)
      return new NetworkError(
        `The answer from ${where} was cut off: the connection closed before the end of the body. Try again; if it persists, check the service.`,
      );
    if (code === BAD_HEADER)
      return new BadResponseError(
        `The service at ${where} sent a bad response header (control characters such as ESC, or bytes HTTP does not allow); wsctl cannot read the answer.`,
      );
    if (code === NOT_HTTP)
      return new BadResponseError(
        `The service at ${where} answered with something that is not valid HTTP/1.1 (${cleanLine((error as Error).message).replace(/^Response does not match the HTTP\/1\.1 protocol \((.*)\)$/, '$1')}). Check the base URL.`,
      );
    // undici's tunnel through a proxy: the proxy's own answer to CONNECT.
    const tunnel = /Proxy response \((\d+)\)/.exec((error as Error).message ?? '');
    if (tunnel) {
      const proxy = this.proxyFor(target.origin) ?? 'the proxy';
      if (tunnel[1] === '407')
        return new NetworkError(
          `The proxy ${proxy} asks for credentials (HTTP 407): put them in the proxy URL (http://user:password@host:port).`,
        );
      return new NetworkError(`The proxy ${proxy} refused to connect to ${where} (HTTP ${tunnel[1]}).`);
    }
    if (!code) return undefined;
    const reason =
      REASONS[code] ??
      (code.startsWith('ERR_TLS') || code.includes('CERT') ? `TLS failure (${code})` : cleanLine((error as Error).message));
    const proxy = this.proxyFor(target.origin);
    if (proxy)
      return new NetworkError(
        `Cannot reach ${where} through the proxy ${proxy}: ${reason}. Check the proxy and HTTPS_PROXY, HTTP_PROXY or NO_PROXY.`,
      );
    return new NetworkError(`Cannot reach ${where}: ${reason}. Check the base URL and your network.`);
  }

  async close(): Promise<void> {
    const own = await this.own?.catch(() => undefined);
    await own?.dispatcher.close().catch(() => {});
  }
}
