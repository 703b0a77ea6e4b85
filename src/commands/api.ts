import { createReadStream } from 'node:fs';
import type { Method } from '../http/index.js';
import { arg, call, defineNoun, defineVerb, option, repeated, type Call, type Ctx } from '../verbs/declare.js';
import { UsageError } from '../errors.js';
import { clean, cleanLine } from '../terminal/index.js';
import { readAll } from '../terminal/prompt.js';

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export interface ApiOptions {
  /** Normalized: below the base URL, dot segments resolved. */
  path: string;
  method?: Method;
  fields: Field[];
  input?: string;
}

type Field = [key: string, value: string];

/** -X's method, in capitals; one of METHODS. */
export function parseMethod(raw: string): Method {
  const method = raw.toUpperCase() as Method;
  if (!METHODS.includes(method)) throw new UsageError(`Invalid method '${raw}': use one of ${METHODS.join(', ')}.`);
  return method;
}

export const api = defineNoun({
  name: 'api',
  verbs: [],
  self: defineVerb({
    name: 'api',
    summary: 'Send an authenticated request to any path and print the response body',
    args: { path: arg('<path>', 'path below the base URL, e.g. /settings/', normalizePath) },
    flags: {
      method: option('-X, --method <method>', 'HTTP method (default GET, or POST with -f or --input)', parseMethod),
      fields: repeated(
        '-f, --field <key=value>',
        'add a string field to the JSON body, or to the query string with GET and DELETE (repeatable)',
        parseField,
      ),
      input: option('--input <file>', 'send the file as the request body (- for stdin)'),
    },
    check(opts, said) {
      if (opts.fields.length > 0 && opts.input !== undefined) throw new UsageError(`Use ${said('fields')} or ${said('input')}, not both.`);
    },
    // --yes comes with every command that may send DELETE (src/verbs/invoke.ts flagsOf).
    notes: '\nWith -X DELETE it asks to confirm on a terminal, else needs --yes,\nas every command that deletes does.\n',
    examples: [
      "wsctl api /settings/ --jq '.timezone'",
      'wsctl api -X GET /api-keys/ -f limit=10',
      'wsctl api -X DELETE /devices/dev_phone --yes',
    ],
    // Any path: its sample reaches getSettings.
    endpoints: 'any',
    method: methodOf,
    path: pathOf,
    sample: ['api', '/settings/'],
    run,
  }),
});

/**
 * The path as sent: below the base URL, dot segments resolved (never above the base), the
 * fragment dropped (it is not part of a request), no whitespace or control characters.
 */
export function normalizePath(raw: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) throw new UsageError('Give a path below the base URL, not a full URL.');
  if (/[\s\x00-\x1f\x7f]/.test(raw))
    throw new UsageError(`Invalid path '${cleanLine(raw)}': it contains whitespace or control characters; percent-encode them (%20).`);
  const withoutFragment = raw.split('#', 1)[0] as string;
  const at = withoutFragment.indexOf('?');
  const pathPart = at < 0 ? withoutFragment : withoutFragment.slice(0, at);
  const query = at < 0 ? '' : withoutFragment.slice(at);
  const segments: string[] = [];
  for (const segment of pathPart.split('/').slice(pathPart.startsWith('/') ? 1 : 0)) {
    const plainSegment = segment.replace(/%2e/gi, '.');
    if (plainSegment === '.') continue;
    if (plainSegment === '..') {
      if (segments.length === 0) throw new UsageError(`Invalid path '${cleanLine(raw)}': it climbs above the base URL.`);
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return `/${segments.join('/')}${query}`;
}

/** One -f key=value. */
function parseField(field: string): Field {
  const at = field.indexOf('=');
  if (at <= 0) throw new UsageError(`Invalid field '${cleanLine(field)}': use key=value.`);
  return [field.slice(0, at), field.slice(at + 1)];
}

/** Fields appended to the path's query string, as `gh api` does for GET: each kept, in order, percent-encoded. */
export function withQuery(path: string, fields: [string, string][]): string {
  if (fields.length === 0) return path;
  const query = fields.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
  const separator = !path.includes('?') ? '?' : path.endsWith('?') || path.endsWith('&') ? '' : '&';
  return path + separator + query;
}

// Methods whose -f fields travel in the query string: a body on them is ignored or refused by servers.
const QUERY_METHODS = ['GET', 'DELETE'];

async function readInputFile(file: string): Promise<string> {
  const stream = createReadStream(file);
  try {
    return await readAll(stream, `The file ${file}`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`,
      { reason: 'invalid_input' },
    );
  }
}

/** The method sent: -X, else GET, or POST when -f or --input gives a body. */
export function methodOf(opts: Pick<ApiOptions, 'method' | 'fields' | 'input'>): Method {
  return opts.method ?? (opts.fields.length > 0 || opts.input !== undefined ? 'POST' : 'GET');
}

/** The path sent to: with GET and DELETE the -f fields in its query string. */
export function pathOf(opts: Pick<ApiOptions, 'path' | 'method' | 'fields' | 'input'>): string {
  return QUERY_METHODS.includes(methodOf(opts)) ? withQuery(opts.path, opts.fields) : opts.path;
}

export async function run(opts: ApiOptions, ctx: Ctx): Promise<Call> {
  const path = pathOf(opts);
  const method = methodOf(opts);
  let body: unknown;
  const { fields } = opts;
  if (!QUERY_METHODS.includes(method) && fields.length > 0) body = Object.fromEntries(fields);
  if (opts.input !== undefined) {
    // One cap for stdin and files (/dev/urandom included), checked while reading.
    const text = opts.input === '-' ? await ctx.term.readInput() : await readInputFile(opts.input);
    try {
      body = JSON.parse(text);
    } catch {
      throw new UsageError(`The input of --input ${opts.input} is not JSON.`, { reason: 'invalid_input' });
    }
  }
  return call({
    request: { method, path, body, anyBody: true },
    spinner: `${method} ${path}`,
    answer: (response) => ({
      json: response.isJson ? response.body : { body: response.body ?? '' },
      human(out) {
        if (response.isJson) return out.printJsonText(response.body, response.text);
        else if (typeof response.body === 'string') out.line(clean(response.body).replace(/\n$/, ''));
      },
    }),
  });
}
