// What --debug and --dry-run may show: secrets replaced by name, in headers and bodies (JSON or
// not, a truncated body too), every line sanitised for the terminal.
import { cleanLine } from '../sanitize.js';

export const REDACTED = '[redacted]';

// The password of a URL's user information: scheme://user:PASSWORD@host.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]+@/gi;
/** Text with every URL's password replaced: https://user:***@host (cli.md §3). */
export function maskUrlPassword(text: string): string {
  return text.includes('@') ? text.replace(URL_PASSWORD, '$1***@') : text;
}

// Fields whose names say they hold a secret, ignoring case, '-' and '_': api_key, secret_key,
// access_token, client_secret, private_key, password, passwd, passphrase, credentials, jwt,
// authorization, bearer, session_id, cookie … (key_prefix and key_storage are not secrets).
const SECRET_NAME = /(key|token|secret|password|passwd|passphrase|pwd|credentials?|authorization|auth|jwt|bearer|sessionid|sid|cookie)$/i;
const SECRET_IN_TEXT = /("[A-Za-z0-9_-]*(?:key|token|secret|password|passwd|passphrase|pwd|credentials?|authorization|auth|jwt|bearer|session_?id|sid|cookie)"\s*:\s*")(?:[^"\\]|\\.)*("?)/gi;
const KEY_LIKE = /\b(wsk|sk)[-_][A-Za-z0-9_-]{6,}/g;
// A bearer token wherever it appears: a header quoted in a body, a log line, an error message.
const BEARER = /\b(Bearer)(\s+)[A-Za-z0-9._~+/=-]+/gi;

const isSecretName = (name: string) => SECRET_NAME.test(name.replace(/[-_]/g, ''));

/** Secrets inside free text: bearer tokens and the password of a URL (https://user:***@host). */
function redactString(text: string): string {
  return maskUrlPassword(text).replace(BEARER, `$1$2${REDACTED}`);
}

export function redact(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
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
    redacted = redactString(text.replace(SECRET_IN_TEXT, `$1${REDACTED}$2`).replace(KEY_LIKE, REDACTED));
  }
  return cleanLine(redacted);
}

/** A header value for a --debug trace. */
export function traceHeader(name: string, value: string): string {
  if (name === 'authorization' || name === 'proxy-authorization') return `${value.split(' ')[0]} ${REDACTED}`;
  if (isSecretName(name) || name === 'cookie' || name === 'set-cookie') return REDACTED;
  return cleanLine(redactString(value));
}
