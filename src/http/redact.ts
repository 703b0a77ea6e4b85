// What --debug and --dry-run may show: secrets replaced by name, in headers and bodies (JSON or
// not, a truncated body too), every line sanitised for the terminal.
import { cleanLine } from '../sanitize.js';

export const REDACTED = '[redacted]';

// Any field whose name ends in key, token, secret or password: api_key, secret_key, access_token,
// client_secret, private_key … (key_prefix and key_storage are not secrets).
const SECRET_NAME = /(key|token|secret|password)$/i;
const SECRET_IN_TEXT = /("[A-Za-z0-9_-]*(?:key|token|secret|password)"\s*:\s*")(?:[^"\\]|\\.)*("?)/gi;
const KEY_LIKE = /\b(wsk|sk)[-_][A-Za-z0-9_-]{6,}/g;

const isSecretName = (name: string) => SECRET_NAME.test(name.replace(/[-_]/g, ''));

export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretName(k) && typeof v === 'string' ? REDACTED : redact(v)]));
  }
  return value;
}

/** Text for a --debug trace: secrets redacted, JSON or not, on one line. */
export function redactText(text: string): string {
  let redacted: string;
  try {
    redacted = JSON.stringify(redact(JSON.parse(text)));
  } catch {
    redacted = text.replace(SECRET_IN_TEXT, `$1${REDACTED}$2`).replace(KEY_LIKE, REDACTED);
  }
  return cleanLine(redacted);
}

/** A header value for a --debug trace. */
export function traceHeader(name: string, value: string): string {
  if (name === 'authorization' || name === 'proxy-authorization') return `${value.split(' ')[0]} ${REDACTED}`;
  if (isSecretName(name) || name === 'cookie' || name === 'set-cookie') return REDACTED;
  return cleanLine(value);
}
