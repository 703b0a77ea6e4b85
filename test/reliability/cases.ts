// The fault and bad-input classes of the reliability suite, with the behaviour each must have.
// faults.test.ts and input.test.ts run them; readme.test.ts checks the README's table against them.
import type { Fault } from '../../src/sandbox/faults.js';

export interface FaultCase {
  name: string;
  /** Faults queued in the sandbox before the command runs; a function gets the sandbox URL. */
  faults: Fault[];
  args: string[];
  env?: Record<string, string>;
  exit: number;
  message: RegExp;
  /** How many requests the server must have seen. */
  requests: number;
  behaviour: string;
}

const GET = ['keys', 'list'];
const POST = ['keys', 'create', 'reliability'];

export const faultCases: FaultCase[] = [
  {
    name: 'HTTP 500 on a GET',
    faults: [{ status: 500, times: 3 }],
    args: GET,
    exit: 1,
    message: /HTTP 500/,
    requests: 1,
    behaviour: 'not retried; the service message is shown',
  },
  {
    name: 'HTTP 502 on a GET, three times',
    faults: [{ status: 502, times: 3 }],
    args: GET,
    exit: 1,
    message: /HTTP 502/,
    requests: 3,
    behaviour: '3 tries with backoff, then the last error',
  },
  {
    name: 'HTTP 503 once on a GET',
    faults: [{ status: 503 }],
    args: GET,
    exit: 0,
    message: /^$/,
    requests: 2,
    behaviour: 'retried, then succeeds',
  },
  {
    name: 'HTTP 504 on a GET, three times',
    faults: [{ status: 504, times: 3 }],
    args: GET,
    exit: 1,
    message: /HTTP 504/,
    requests: 3,
    behaviour: '3 tries, then the last error',
  },
  {
    name: 'HTTP 503 on a POST',
    faults: [{ status: 503 }],
    args: POST,
    exit: 1,
    message: /HTTP 503/,
    requests: 1,
    behaviour: 'a POST is never repeated once sent',
  },
  {
    name: '429 with Retry-After: 1',
    faults: [{ status: 429, retry_after: '1' }],
    args: GET,
    exit: 0,
    message: /^$/,
    requests: 2,
    behaviour: 'waits the second, then succeeds',
  },
  {
    name: '429 with Retry-After as an HTTP date',
    faults: [{ status: 429, retry_after: 'in 1s' }],
    args: GET,
    exit: 0,
    message: /^$/,
    requests: 2,
    behaviour: 'waits until the date, then succeeds',
  },
  {
    name: '429 with Retry-After: 86400',
    faults: [{ status: 429, retry_after: '86400' }],
    args: GET,
    exit: 1,
    message: /retry after 86400 s \(at \d{4}-/,
    requests: 1,
    behaviour: 'over 10 s: ends at once, saying when to retry',
  },
  {
    name: 'connection dropped before the answer (GET)',
    faults: [{ drop: true, times: 3 }],
    args: GET,
    exit: 3,
    message: /Cannot reach .*(reset|closed|socket)/,
    requests: 3,
    behaviour: 'retried, then exit 3',
  },
  {
    name: 'connection dropped before the answer (POST)',
    faults: [{ drop: true }],
    args: POST,
    exit: 3,
    message: /Cannot reach/,
    requests: 1,
    behaviour: 'a POST is not repeated',
  },
  {
    name: 'connection reset mid-body',
    faults: [{ reset_mid_body: true, times: 3 }],
    args: GET,
    exit: 3,
    message: /was cut off|Cannot reach|not JSON/,
    requests: 3,
    behaviour: 'retried, then exit 3',
  },
  {
    name: 'a server that never answers',
    faults: [{ delay_ms: 5000, times: 3 }],
    args: [...GET, '--timeout', '0.3'],
    exit: 3,
    message: /within 0\.3 s/,
    requests: 3,
    behaviour: 'each try times out after --timeout',
  },
  {
    name: 'HTML instead of JSON',
    faults: [{ malformed: 'html' }],
    args: GET,
    exit: 3,
    message: /not JSON \(text\/html\)/,
    requests: 1,
    behaviour: 'exit 3, names the content type',
  },
  {
    name: 'truncated JSON',
    faults: [{ malformed: 'truncated' }],
    args: GET,
    exit: 3,
    message: /not JSON/,
    requests: 1,
    behaviour: 'exit 3',
  },
  {
    name: 'JSON of the wrong shape',
    faults: [{ malformed: 'wrong_shape' }],
    args: GET,
    exit: 3,
    message: /unexpected shape/,
    requests: 1,
    behaviour: 'exit 3, names the field',
  },
  {
    name: 'an empty body where JSON was expected',
    faults: [{ malformed: 'empty' }],
    args: GET,
    exit: 3,
    message: /an empty body/,
    requests: 1,
    behaviour: 'exit 3',
  },
  {
    name: 'a 200 body without end',
    faults: [{ malformed: 'huge' }],
    args: GET,
    env: { WSCTL_MAX_RESPONSE_MB: '8' },
    exit: 3,
    message: /larger than 8 MiB/,
    requests: 1,
    behaviour: 'reading stops at the bound (256 MiB by default)',
  },
  {
    name: 'redirect to another origin',
    faults: [{ redirect_to: 'OTHER/api-keys/' }],
    args: GET,
    exit: 4,
    message: /HTTP 401/,
    requests: 1,
    behaviour: 'followed without Authorization',
  },
  {
    name: 'connection refused',
    faults: [],
    args: GET,
    env: { WSCTL_BASE_URL: 'CLOSED' },
    exit: 3,
    message: /connection refused/,
    requests: 0,
    behaviour: 'retried, then exit 3',
  },
];

export interface InputClass {
  name: string;
  behaviour: string;
}

export const inputClasses: InputClass[] = [
  { name: 'unknown commands and flags', behaviour: 'exit 2, one line naming the problem and the help to read' },
  {
    name: 'empty, huge, unicode and control-character arguments',
    behaviour: 'a documented exit code, an error of one or two lines, never a stack trace',
  },
  { name: 'ids with `/`, `?`, `#`, `%` or `..`', behaviour: 'percent-encoded into one path segment; they never reach another route' },
  { name: 'an enum value not allowed (`--variant`, `--format`, shell)', behaviour: 'exit 2 before sending, naming the allowed values' },
  { name: 'random JSON answers to every command', behaviour: 'exit 0, 1 or 3, never a stack trace' },
  { name: 'a key with whitespace or control characters at login', behaviour: 'exit 2, nothing saved' },
  { name: 'plain `http://` to a non-loopback host', behaviour: 'exit 2 before any byte is sent' },
];

export function reliabilityTable(): string {
  const rows = ['| fault or input | behaviour | exit |', '|---|---|---|'];
  for (const c of faultCases)
    rows.push(`| ${c.name} | ${c.behaviour}${c.requests ? ` (${c.requests} request${c.requests === 1 ? '' : 's'})` : ''} | ${c.exit} |`);
  for (const c of inputClasses) rows.push(`| ${c.name} | ${c.behaviour} | ${/exit (\d)/.exec(c.behaviour)?.[1] ?? 'documented'} |`);
  return rows.join('\n');
}
