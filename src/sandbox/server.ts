// The sandbox as an HTTP server on loopback: Bearer auth, the routes, a request log and
// fault injection, both reachable by tests under /__sandbox/.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { WsctlError } from '../errors.js';
import { redactText } from '../http/index.js';
import { responseSchemas, type SchemaName } from '../schemas.js';
import { takeFault, type Fault } from './faults.js';
import { findRoute, type Reply } from './routes.js';
import { randomId } from './seed.js';
import type { Store } from './store.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: string;
  /** The client went away before the answer was complete. */
  aborted?: boolean;
}

export interface SandboxServer {
  url: string;
  /** Made at each start and told only over the control route: proves a process is this server. */
  nonce: string;
  store: Store;
  faults: Fault[];
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface ServerOptions {
  store: Store;
  host?: string;
  port?: number;
  log?: (line: string) => void;
  /** Check every reply against the client's schemas (on unless turned off for large benchmarks). */
  checkReplies?: boolean;
}

const MAX_BODY = 12 * 1024 * 1024;
const LAST_USED_RESOLUTION_MS = 60_000;

function readBody(req: IncomingMessage): Promise<Buffer | 'too large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY ? 'too large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, serialised?: string): void {
  const text = serialised ?? (body === undefined ? '' : JSON.stringify(body));
  res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function authenticate(req: IncomingMessage, store: Store): Promise<boolean> {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return false;
  const token = match[1];
  const key = (await store.read()).keys.find((k) => k.key === token);
  if (!key) return false;
  const stale = !key.last_used_at || Date.now() - Date.parse(key.last_used_at) > LAST_USED_RESOLUTION_MS;
  if (stale) {
    await store.transact((s) => {
      const stored = s.keys.find((k) => k.key === token);
      if (stored) stored.last_used_at = new Date().toISOString();
    });
  }
  return true;
}

async function checkReply(reply: Reply, routeSchema: SchemaName | undefined): Promise<Reply> {
  const schema = reply.schema ?? routeSchema;
  if (!schema || reply.status >= 300 || reply.body === undefined) return reply;
  const result = responseSchemas[schema]().safeParse(reply.body);
  if (result.success) return reply;
  return { status: 500, body: { detail: `sandbox reply does not match ${schema}: ${result.error.message}` } };
}

async function applyFault(
  fault: Fault,
  res: ServerResponse,
  reply: () => Promise<Reply>,
  headers: Record<string, string>,
): Promise<boolean> {
  if (fault.delay_ms) await sleep(fault.delay_ms);
  if (res.destroyed) return true;
  if (fault.drop) {
    res.socket?.destroy();
    return true;
  }
  if (fault.redirect_to) {
    send(res, 307, undefined, { ...headers, location: fault.redirect_to });
    return true;
  }
  if (fault.status) {
    const extra = { ...headers, ...(fault.retry_after ? { 'retry-after': fault.retry_after } : {}), ...fault.headers };
    const body = fault.body ?? JSON.stringify({ detail: `Injected fault: HTTP ${fault.status}` });
    res.writeHead(fault.status, { 'content-type': 'application/json', ...extra });
    res.end(body);
    return true;
  }
  if (!fault.malformed && !fault.reset_mid_body) return false;
  const real = await reply();
  const text = real.text ?? JSON.stringify(real.body ?? {});
  if (fault.reset_mid_body) {
    res.writeHead(real.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
    setTimeout(() => res.socket?.resetAndDestroy?.() ?? res.socket?.destroy(), 20);
    return true;
  }
  switch (fault.malformed) {
    case 'html':
      res.writeHead(real.status, { 'content-type': 'text/html', ...headers });
      res.end('<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>');
      return true;
    case 'truncated':
      res.writeHead(real.status, { 'content-type': 'application/json', ...headers });
      res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      return true;
    case 'empty':
      res.writeHead(real.status, { 'content-type': 'application/json', 'content-length': 0, ...headers });
      res.end();
      return true;
    case 'wrong_shape':
      send(res, real.status, [{ unexpected: true }], headers);
      return true;
    case 'huge': {
      // An endless JSON array, written as fast as the client reads, until it hangs up.
      res.writeHead(real.status, { 'content-type': 'application/json', ...headers });
      const chunk = Buffer.alloc(1024 * 1024, ' ');
      res.write('[');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
      return true;
    }
  }
  return false;
}

/** A recorded request as the control route shows it: no key, no secret in its body. */
function redactRecorded(request: RecordedRequest): RecordedRequest {
  const headers = { ...request.headers };
  if (typeof headers.authorization === 'string') headers.authorization = headers.authorization.replace(/^(\S+)\s.*$/, '$1 [redacted]');
  return { ...request, headers, body: redactText(request.body) };
}

export async function startSandboxServer(options: ServerOptions): Promise<SandboxServer> {
  const { store } = options;
  const faults: Fault[] = [];
  const requests: RecordedRequest[] = [];
  const log = options.log ?? (() => {});
  const checkReplies = options.checkReplies ?? true;
  const nonce = randomId(32);
  let origin = '';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const rawPath = (req.url ?? '/').split('?')[0] as string;
    const body = await readBody(req);
    const requestId = `req_${randomId(16)}`;
    const headers = { 'x-request-id': requestId };

    if (rawPath.startsWith('/__sandbox/')) {
      // Anyone on the machine can connect: the control routes want the bootstrap key.
      const bootstrap = (await store.read()).bootstrap_key;
      if (req.headers.authorization !== `Bearer ${bootstrap}`)
        return send(res, 401, { detail: 'The sandbox control routes need the bootstrap key' }, { 'www-authenticate': 'Bearer' });
      return control(method, rawPath, body, res);
    }
    const bodyText = body === 'too large' ? '<too large>' : body.toString('utf8');
    const record: RecordedRequest = {
      method,
      path: req.url ?? '/',
      headers: { ...req.headers },
      body: bodyText.length > 65536 ? `<${bodyText.length} bytes>` : bodyText,
      at: new Date().toISOString(),
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.aborted = true;
    });
    log(`${method} ${req.url}`);
    if (body === 'too large') return send(res, 413, { detail: 'Request body too large' }, headers);

    let match;
    try {
      match = findRoute(method, rawPath);
    } catch {
      return send(res, 400, { detail: 'Malformed percent-encoding in path' }, headers);
    }
    const reply = async (): Promise<Reply> => {
      if (match === undefined) return { status: 404, body: { detail: 'Not Found' } };
      if (match === 'method') return { status: 405, body: { detail: 'Method Not Allowed' } };
      if (match.route.auth && !(await authenticate(req, store))) return { status: 401, body: { detail: 'Not authenticated' } };
      let json: unknown;
      const contentType = req.headers['content-type'];
      if (body.length && !contentType?.startsWith('multipart/')) {
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          return { status: 422, body: { detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] } };
        }
      }
      const result = await match.route.handle({ params: match.params, raw: body, json, contentType, store, origin });
      return checkReplies ? checkReply(result, match.route.schema) : result;
    };

    const fault = takeFault(faults, method, rawPath);
    if (fault && (await applyFault(fault, res, reply, headers))) return;
    const result = await reply();
    if (result.status === 401) return send(res, 401, result.body, { ...headers, 'www-authenticate': 'Bearer' });
    if (result.raw) {
      res.writeHead(result.status, { 'content-type': result.raw.contentType, 'content-length': result.raw.data.length, ...headers });
      res.end(result.raw.data);
      return;
    }
    send(res, result.status, result.body, headers, result.text);
  }

  function control(method: string, path: string, body: Buffer | 'too large', res: ServerResponse): void {
    if (path === '/__sandbox/faults' && method === 'POST' && body !== 'too large') {
      let parsed: Fault | { faults: Fault[] };
      try {
        parsed = JSON.parse(body.toString('utf8') || '{}') as Fault | { faults: Fault[] };
      } catch {
        return send(res, 422, { detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] });
      }
      const added = 'faults' in parsed ? parsed.faults : [parsed];
      faults.push(...added);
      return send(res, 200, { faults });
    }
    if (path === '/__sandbox/faults' && method === 'DELETE') {
      faults.length = 0;
      return send(res, 200, { faults });
    }
    if (path === '/__sandbox/identity' && method === 'GET') {
      // What `sandbox stop` checks before it signals a pid: this process, this start, this state file.
      return send(res, 200, { pid: process.pid, nonce, state: 'path' in store && typeof store.path === 'string' ? store.path : null });
    }
    if (path === '/__sandbox/requests' && method === 'GET') return send(res, 200, { requests: requests.map(redactRecorded) });
    if (path === '/__sandbox/requests' && method === 'DELETE') {
      requests.length = 0;
      return send(res, 200, { requests });
    }
    send(res, 404, { detail: 'Unknown sandbox control route' });
  }

  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log(`error: ${error.stack ?? error.message}`);
      // Our own errors (a damaged state file) say what to do; a slip of the sandbox's code is not the client's business.
      const detail = error instanceof WsctlError ? error.message : 'the sandbox failed on this request (its log has the details)';
      if (!res.headersSent) send(res, 500, { detail: `Sandbox error: ${detail}` });
      else res.destroy();
    });
  });
  // Node's default (5 s) keeps a client's connection between requests, as a service would: at 1 s, undici
  // (which subtracts a 2 s margin from the service's Keep-Alive timeout) closed it after every answer.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  origin = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    url: origin,
    nonce,
    store,
    faults,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
