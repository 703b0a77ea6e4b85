import { createReadStream } from 'node:fs';
import type { Command } from 'commander';
import type { Method } from '../http/index.js';
import { examples, type App, type Ctx, type Result } from '../command.js';
import { UsageError } from '../errors.js';
import { clean, cleanLine } from '../terminal/index.js';
import { readAll, readStdin } from '../terminal/prompt.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export interface ApiOptions {
  path: string;
  method?: string;
  fields: string[];
  input?: string;
}

export function register(command: Command, app: App): void {
  command
    .argument('<path>', 'path below the base URL, e.g. /settings/')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST with -f or --input)')
    .option('-f, --field <key=value>', 'add a string field to the JSON body, or to the query string with GET and DELETE (repeatable)', (value: string, all: string[]) => [...all, value], [] as string[])
    .option('--input <file>', 'send the file as the request body (- for stdin)')
    .addHelpText('after', examples("wsctl api /settings/ --jq '.timezone'", 'wsctl api -X GET /api-keys/ -f limit=10', 'wsctl api -X PATCH /connections/gmail/pdc_gmail/permission --input body.json'))
    .action((path: string, flags: { method?: string; field: string[]; input?: string }, command: Command) =>
      app.run(command, { path, method: flags.method, fields: flags.field, input: flags.input }, run),
    );
}

/**
 * The path as sent: below the base URL, dot segments resolved (never above the base), the
 * fragment dropped (it is not part of a request), no whitespace or control characters.
 */
export function normalizePath(raw: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) throw new UsageError('Give a path below the base URL, not a full URL.');
  if (/[\s\x00-\x1f\x7f]/.test(raw)) throw new UsageError(`Invalid path '${cleanLine(raw)}': it contains whitespace or control characters; percent-encode them (%20).`);
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

/** -f key=value pairs, in order. */
function parseFields(fields: string[]): [key: string, value: string][] {
  return fields.map((field) => {
    const at = field.indexOf('=');
    if (at <= 0) throw new UsageError(`Invalid field '${cleanLine(field)}': use key=value.`);
    return [field.slice(0, at), field.slice(at + 1)];
  });
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
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`);
  }
}

export async function run(opts: ApiOptions, ctx: Ctx): Promise<Result> {
  let path = normalizePath(opts.path);
  if (opts.fields.length > 0 && opts.input !== undefined) throw new UsageError('Use -f fields or --input, not both.');
  const method = (opts.method ?? (opts.fields.length > 0 || opts.input !== undefined ? 'POST' : 'GET')).toUpperCase();
  if (!METHODS.includes(method)) throw new UsageError(`Invalid method '${opts.method}': use one of ${METHODS.join(', ')}.`);
  let body: unknown;
  const fields = parseFields(opts.fields);
  if (QUERY_METHODS.includes(method)) path = withQuery(path, fields);
  else if (fields.length > 0) body = Object.fromEntries(fields);
  if (opts.input !== undefined) {
    // One cap for stdin and files (/dev/urandom included), checked while reading.
    const text = opts.input === '-' ? await readStdin(ctx.io.stdin) : await readInputFile(opts.input);
    try {
      body = JSON.parse(text);
    } catch {
      throw new UsageError(`The input of --input ${opts.input} is not JSON.`);
    }
  }
  const api = await ctx.api();
  const response = await ctx.term.spin(`${method} ${path}`, api.request({ method: method as Method, path, body, anyBody: true }));
  return {
    json: response.isJson ? response.body : { body: response.body ?? '' },
    human(out) {
      if (response.isJson) return out.printJsonText(response.body);
      else if (typeof response.body === 'string') out.line(clean(response.body).replace(/\n$/, ''));
    },
  };
}
