// The one-time page a person pastes a secret into (cli.md §8: byok_add's provider key), served on
// 127.0.0.1 alone at a path holding 256 random bits, for one call. It answers one submission, a
// form post from the page itself (its Origin and Host, compared exactly: a post from another origin,
// or with none, is refused, as is a Host another name resolved to us), then stops serving. Nothing
// it sends can be cached, loads anything else or tells another site where it was.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PageRequest } from './person-secret.js';

/** What the person did on the page: submitted a key, or declined. */
export type Submission = { key: string } | 'no';

export interface KeyPage {
  /** http://127.0.0.1:<port>/key/<token> */
  url: string;
  /** Settles once, on the one submission. */
  submitted: Promise<Submission>;
  /** Stops serving, at once and for good (the call ended, or 10 minutes passed). */
  close(): void;
}

/** The most a submission may hold: a key, a field name, a button. */
const MAX_BODY = 16 * 1024;

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#111;background:#fff}' +
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}' +
  'input{font:inherit;width:100%;box-sizing:border-box;padding:.4rem}button{font:inherit;margin:.75rem .5rem 0 0;padding:.4rem 1rem}' +
  'pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f3f3f3;padding:.5rem}.error{color:#a00}';

/** Inline style, allowed by its hash alone: no script, no other resource. */
const CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

const HEADERS = {
  'Cache-Control': 'no-store, max-age=0',
  Pragma: 'no-cache',
  'Content-Security-Policy': CSP,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Text as HTML shows it, whatever it holds. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The page: what the call does and where, the password field, and the command line for a person who cannot use it. */
export function pageHtml(request: PageRequest, problem?: string): string {
  const e = escapeHtml;
  const facts = request.facts.map(([label, value]) => `<dt>${e(label)}</dt><dd>${e(value)}</dd>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>wsctl: ${e(request.action)}</title><style>${STYLE}</style></head>
<body><main>
<h1>wsctl: ${e(request.action)}</h1>
<p>An agent asked wsctl to ${e(request.action)}.${request.why ? ` ${e(request.why)}` : ''} It needs the ${e(request.what)}, which the agent never sees.</p>
<dl>${facts}</dl>
<form method="post" autocomplete="off">
<label for="key">${e(capitalised(request.what))}</label>
<input id="key" name="key" type="password" required autofocus autocomplete="off" spellcheck="false">
${problem ? `<p class="error">${e(problem)}</p>\n` : ''}<p>Submitting the key is your consent: wsctl goes on with it at once. This page takes one submission and is gone after 10 minutes.</p>
<button type="submit" name="answer" value="submit">Submit</button>
<button type="submit" name="answer" value="decline" formnovalidate>Decline</button>
</form>
<p>Cannot use this page? Run this in a terminal instead: it reads the key from standard input, or asks for it with input hidden.</p>
<pre><code>${e(request.commandLine)}</code></pre>
</main></body></html>
`;
}

/**
 * The way that needs no browser, for a refusal that has not shown the secret path: it names no
 * provider or profile, which a site that made its name resolve to 127.0.0.1 could otherwise read.
 */
const ANY_LINE = 'wsctl byok add … --api-key-stdin';

/** A refusal's text, and the terminal's way for a person whose browser cannot reach this page (cli.md §8). */
function refused(why: string, line: string): string {
  return `${why}\nCannot use the page? Run this in a terminal instead: ${line}\n`;
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, { ...HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

/** The body of a form post, at most MAX_BODY bytes; undefined for more. */
async function formBody(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Whether two texts are equal, in a time that does not say how much of them matched. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Serves the page on 127.0.0.1, on a port the system picks, until the submission or close(). */
export async function openKeyPage(request: PageRequest): Promise<KeyPage> {
  const token = randomBytes(32).toString('base64url');
  let settle!: (submission: Submission) => void;
  const submitted = new Promise<Submission>((resolve) => (settle = resolve));
  let done = false;
  let origin = '';

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // A name that resolves to 127.0.0.1 (DNS rebinding) would make another site this page's origin.
    if (req.headers.host !== origin.slice('http://'.length)) return send(res, 403, refused('Forbidden: wrong Host.', ANY_LINE));
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (done || !path.startsWith('/key/') || !sameSecret(path.slice('/key/'.length), token))
      return send(res, 404, refused('Not found.', ANY_LINE));
    // Past the secret path: the refusals may name the call's own line, as the page does.
    const own = request.commandLine;
    if (req.method === 'GET' || req.method === 'HEAD') return send(res, 200, pageHtml(request), 'text/html; charset=utf-8');
    if (req.method !== 'POST') return send(res, 405, refused('Method not allowed.', own), undefined, { Allow: 'GET, HEAD, POST' });
    // Only the page itself posts here: a browser always says where a form post comes from.
    if (req.headers.origin !== origin) return send(res, 403, refused('Forbidden: this page takes a post from itself alone.', own));
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.headers['content-type'] ?? ''))
      return send(res, 415, refused('Expected a form post.', own));
    const form = await formBody(req);
    if (!form) return send(res, 413, refused('Too large.', own), undefined, { Connection: 'close' });
    if (done) return send(res, 404, refused('Not found.', ANY_LINE));
    if (form.get('answer') === 'decline') {
      done = true;
      settle('no');
      return send(res, 200, 'Declined: nothing was sent. You can close this page.\n', undefined, { Connection: 'close' });
    }
    const key = form.get('key')?.trim() ?? '';
    if (key === '') return send(res, 400, pageHtml(request, `The ${request.what} was empty.`), 'text/html; charset=utf-8');
    done = true;
    settle({ key });
    send(res, 200, 'Received: wsctl goes on with the key. You can close this page.\n', undefined, { Connection: 'close' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 400, 'Bad request.\n');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/key/${token}`,
    submitted,
    close() {
      done = true;
      server.close();
      server.closeAllConnections();
    },
  };
}
