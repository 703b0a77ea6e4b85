// The one HTTP client (cli.md §7), composed of small layers: the request and --dry-run (here and
// ./url.ts), policy (./policy.ts: retries, Retry-After, redirects, what may cross an origin),
// transport (./transport.ts: undici), decoding and status → typed error (./decode.ts).
// undici loads on the first request.
import { BadResponseError, InterruptedError, NetworkError, WsctlError } from '../errors.js';
import type { Response, SchemaName } from '../schemas.js';
import { decode, errorInfo, type DecodeOptions } from './decode.js';
import {
  backoffMs,
  followRedirect,
  MAX_REDIRECTS,
  MAX_TRIES,
  nothingSent,
  onStatus,
  safeToRepeat,
  worthRepeating,
  type Hop,
} from './policy.js';
import { mask, maskSecrets, rememberSecret } from '../common/secrets.js';
import type { Credential } from './auth.js';
import { maskedChunks } from './masked-chunks.js';
import { maskUrlPassword, redact, REDACTED, secretValues } from './redact.js';
import { errorCode, Transport, type Attempt, type Connections, type Upload } from './transport.js';
import { checkBaseUrl, joinUrl } from './url.js';

export { givenKey, NO_CREDENTIAL, readOnce, type Credential } from './auth.js';
export { filePart } from './multipart.js';
export { maskUrlPassword, redactText } from './redact.js';
export { Connections, type Upload } from './transport.js';
export { checkBaseUrl, isLoopback, path } from './url.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

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
  /** The JSON body as the service wrote it (when isJson): what --json prints, re-indented. */
  text?: string;
  requestId?: string;
}

/** A 2xx body as it arrives (Api.stream). */
export interface StreamedBody {
  status: number;
  headers: Record<string, string>;
  requestId?: string;
  chunks: AsyncIterable<Buffer>;
}

/** What --dry-run prints: the request as it would be sent, its secrets redacted. */
export interface DryRunRequest {
  method: Method;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface ApiSettings {
  baseUrl: string;
  /** The key, read when the first request is sent (./auth.ts). */
  credential: Credential;
  timeoutMs: number;
  debug: boolean;
  /** Nothing may be sent: the verbs plan their request instead (plan()). */
  dryRun: boolean;
  userAgent: string;
  signal: AbortSignal;
  trace: (line: string) => void;
  /** The next step when the service rejects the key: names the profile or variable in use. */
  authHint?: string;
  /** Milliseconds of the first retry delay; doubled each time, with jitter. */
  backoffMs?: number;
  /** The largest response body read, in bytes. */
  maxBodyBytes?: number;
  /** HTTP_PROXY, HTTPS_PROXY and NO_PROXY as the environment gives them. */
  proxy?: { http?: string; https?: string; noProxy?: string };
  /** Connections shared with other clients (an MCP server's calls), kept open when this one closes. */
  connections?: Connections;
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

export class Api {
  private readonly base: URL;
  private readonly transport: Transport;
  /** The key the last request was sent with: a body that quotes it back is masked. */
  private sentKey: string | undefined;

  constructor(private readonly settings: ApiSettings) {
    this.base = checkBaseUrl(settings.baseUrl);
    this.transport = new Transport({
      timeoutMs: settings.timeoutMs,
      signal: settings.signal,
      maxBodyBytes: settings.maxBodyBytes ?? 256 * 1024 * 1024,
      // A response body, a header or a redirect may echo the key: the trace masks what was sent.
      trace: settings.debug ? (line) => settings.trace(maskSecrets(line)) : undefined,
      proxy: settings.proxy,
      connections: settings.connections,
    });
  }

  get baseUrl(): string {
    return this.settings.baseUrl;
  }

  async request<N extends SchemaName | undefined = undefined>(
    spec: RequestSpec<N>,
  ): Promise<ApiResponse<N extends SchemaName ? Response<N> : unknown>> {
    const attempt = await this.exchange(spec, false, { tries: 0 });
    // A body that quotes the key in use back (a debugging echo, a gateway) prints it masked; the
    // text is changed only inside the key, so every other byte is the service's. Not a provider
    // key: byok add --show-secret shows the one the service stored.
    const key = this.sentKey;
    if (key && key.length >= 6 && attempt.text.includes(key)) attempt.text = attempt.text.replaceAll(key, mask(key));
    const { body, isJson, text } = decode(attempt, this.decodeOptions(spec));
    return {
      status: attempt.status,
      headers: attempt.headers,
      body: body as N extends SchemaName ? Response<N> : unknown,
      isJson,
      text,
      requestId: errorInfo(attempt).requestId,
    };
  }

  /**
   * A GET whose 2xx body is handed to `consume` as it arrives (any other status is the error it
   * means, as with request()). A body that fails part-way is asked for again, within the same
   * three tries, only while `restartable()` says nothing of it has been shown yet.
   */
  async stream<T>(
    spec: RequestSpec<SchemaName | undefined>,
    consume: (body: StreamedBody) => Promise<T>,
    restartable: () => boolean,
  ): Promise<T> {
    const count = { tries: 0 };
    for (;;) {
      const attempt = await this.exchange(spec, true, count);
      const key = this.sentKey;
      if (!attempt.chunks) {
        decode(attempt, this.decodeOptions(spec)); // throws: the status is an error
        throw new BadResponseError(`The service sent no body (HTTP ${attempt.status}).`, errorInfo(attempt));
      }
      try {
        return await consume({
          status: attempt.status,
          headers: attempt.headers,
          requestId: errorInfo(attempt).requestId,
          chunks: key && key.length >= 6 ? maskedChunks(attempt.chunks, key, mask(key)) : attempt.chunks,
        });
      } catch (error) {
        if (this.settings.signal.aborted) throw new InterruptedError();
        if (error instanceof WsctlError) throw error;
        const failure = this.transport.failure(error, joinUrl(this.base, spec.path));
        if (!failure) throw error;
        if (!restartable() || count.tries >= MAX_TRIES) throw failure;
        await this.wait(count.tries, undefined);
      }
    }
  }

  /** The request as --dry-run shows it, sending nothing: the key, the URL's password and secret fields redacted. */
  plan(spec: RequestSpec<SchemaName | undefined>): DryRunRequest {
    const { headers } = this.headersFor(spec);
    return {
      method: spec.method,
      url: maskUrlPassword(joinUrl(this.base, spec.path).href),
      headers: { ...headers, ...(this.settings.credential.present ? { authorization: `Bearer ${REDACTED}` } : {}) },
      body: spec.upload ? spec.upload.describe : redact(spec.body),
    };
  }

  private headersFor(spec: RequestSpec<SchemaName | undefined>, key?: string): { headers: Record<string, string>; json?: string } {
    const s = this.settings;
    const json = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': s.userAgent };
    if (json !== undefined) headers['content-type'] = 'application/json';
    if (key) headers.authorization = `Bearer ${key}`;
    return { headers, json };
  }

  /** The final attempt: redirects followed, retries made where a repeat is safe. */
  private async exchange(spec: RequestSpec<SchemaName | undefined>, stream: boolean, count: { tries: number }): Promise<Attempt> {
    const s = this.settings;
    // A verb returns its request as a Call, which --dry-run plans: reaching here is a bug, and sends nothing.
    if (s.dryRun) throw new Error(`${spec.method} ${spec.path} was about to be sent under --dry-run`);
    // A provider key in the body (byok add's api_key) is masked in every error and trace from now on.
    for (const secret of secretValues(spec.body)) rememberSecret(secret);
    // The key is read now, as the request goes out, and masked everywhere from now on.
    this.sentKey = await s.credential.read();
    rememberSecret(this.sentKey);
    const { headers, json } = this.headersFor(spec, this.sentKey);
    let hop: Hop = { method: spec.method, target: joinUrl(this.base, spec.path), body: spec.upload ?? json, headers };

    const repeatable = safeToRepeat(spec.method, !!spec.idempotent);
    let redirects = 0;
    let lastError: Error | undefined;
    while (count.tries < MAX_TRIES) {
      const tryNo = ++count.tries;
      let attempt: Attempt;
      try {
        attempt = await this.transport.send(
          hop.method,
          hop.target,
          hop.headers,
          hop.body as string | Upload | undefined,
          stream,
          repeatable,
        );
      } catch (error) {
        if (s.signal.aborted) throw new InterruptedError();
        if (error instanceof NetworkError) throw error;
        const failure = this.transport.failure(error, hop.target);
        if (!failure) throw error;
        lastError = failure;
        const code = errorCode(error);
        if ((repeatable || nothingSent(code)) && worthRepeating(code) && tryNo < MAX_TRIES) {
          await this.wait(tryNo, undefined);
          continue;
        }
        throw failure;
      }
      const location = attempt.headers.location?.trim();
      if (attempt.status >= 300 && attempt.status < 400 && location && redirects < MAX_REDIRECTS) {
        redirects++;
        count.tries--;
        hop = followRedirect(hop, attempt.status, location, errorInfo(attempt));
        continue;
      }
      const decision = onStatus(attempt.status, attempt.headers['retry-after'], repeatable, tryNo, errorInfo(attempt));
      if (decision.retry) {
        await this.wait(tryNo, decision.retryAfter);
        continue;
      }
      return attempt;
    }
    throw lastError ?? new NetworkError('The request failed.');
  }

  private decodeOptions(spec: RequestSpec<SchemaName | undefined>): DecodeOptions {
    return {
      schema: spec.schema,
      anyBody: spec.anyBody,
      method: spec.method,
      path: spec.path,
      what: spec.what,
      authHint: this.settings.authHint ?? 'Run `wsctl auth login` or check WSCTL_API_KEY.',
      proxy: this.transport.proxyFor(this.base.origin),
    };
  }

  private async wait(tryNo: number, retryAfter: number | undefined): Promise<void> {
    const ms = backoffMs(tryNo, this.settings.backoffMs ?? 300, retryAfter);
    if (this.settings.debug) this.settings.trace(`* retrying in ${Math.round(ms)} ms`);
    await sleep(ms, this.settings.signal);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
