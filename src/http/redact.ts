// What --debug and --dry-run may show: secrets replaced by name, in headers and bodies (JSON or
// not, a truncated body too), every line sanitised for the terminal.
import { cleanLine } from '../common/sanitize.js';

export const REDACTED = '[redacted]';

// The password of a URL's user information: scheme://user:PASSWORD@host.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]+@/gi;
// A query parameter of a URL: ?name=value or &name=value.
const QUERY_PAIR = /([?&;])([^=&#\s?;]+)=([^&#\s;]+)/g;
/**
 * Text with every URL's password replaced (https://user:***@host) and the values of query
 * parameters with secret names redacted (?api_key=[redacted]) (cli.md §3). For display only.
 */
export function maskUrlPassword(text: string): string {
  const masked = text.includes('@') ? text.replace(URL_PASSWORD, '$1***@') : text;
  return masked.includes('=')
    ? masked.replace(QUERY_PAIR, (pair, sep: string, name: string) => (isSecretName(decodeName(name)) ? `${sep}${name}=${REDACTED}` : pair))
    : masked;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

// Fields whose names say they hold a secret, ignoring case, '-' and '_': api_key, secret_key,
// access_token, client_secret, private_key, password, passwd, passphrase, credentials, jwt,
// authorization, bearer, session_id, cookie … (key_prefix and key_storage are not secrets).
const SECRET_NAME = /(key|token|secret|password|passwd|passphrase|pwd|credentials?|authorization|auth|jwt|bearer|sessionid|sid|cookie)$/i;
const SECRET_WORDS = 'key|token|secret|password|passwd|passphrase|pwd|credentials?|authorization|auth|jwt|bearer|session_?id|sid|cookie';
// Signatures and one-time codes: sig, signature, X-Amz-Signature, code, otp, pin. Short words
// that end many harmless names, so matched whole or after a separator (x_sig, user_pin), and
// `code` alone or as a one-time code (auth_code, verification_code), never status_code.
const ONE_TIME_WORDS = `(?:[A-Za-z0-9_.-]*[-_.])?(?:sig|otp|totp|pin|passcode)|[A-Za-z0-9_.-]*signature|code|[A-Za-z0-9_.-]*(?:auth|authorization|verification|verify|confirmation|mfa|otp|totp|sms|email|recovery|backup|security|login|one[-_]?time|2fa)[-_]?code`;
const ONE_TIME_NAME = new RegExp(`^(?:${ONE_TIME_WORDS})$`, 'i');
// A JSON member "name": value in text that is not whole JSON (a truncated body): a string, or a
// number, literal or the start of an object or array.
const SECRET_IN_TEXT = new RegExp(
  `("(?:[A-Za-z0-9_-]*(?:${SECRET_WORDS})|${ONE_TIME_WORDS})"\\s*:\\s*)(?:"(?:[^"\\\\]|\\\\.)*("?)|(?!null\\b)[^\\s,}\\]"]+)`,
  'gi',
);
// name=value (form-encoded, a query) and name: value (a header-like line) in plain text.
const SECRET_PAIR = new RegExp(
  `(^|[^A-Za-z0-9_.-])([A-Za-z0-9_.-]*(?:${SECRET_WORDS})|${ONE_TIME_WORDS})(\\s*[=:]\\s*)(?![\\s"]|${REDACTED.replace(/[[\]]/g, '\\$&')})([^\\s&;,"]+)`,
  'gi',
);
// name="value", quoted: an auth-param of WWW-Authenticate (token="…"), a cookie-like line.
const QUOTED_PAIR = new RegExp(
  `(^|[^A-Za-z0-9_.-])([A-Za-z0-9_.-]*(?:${SECRET_WORDS})|${ONE_TIME_WORDS})(\\s*=\\s*)"(?:[^"\\\\]|\\\\.)*"`,
  'gi',
);
// A wsctl key anywhere inside a string, and provider keys (sk-…) that stand as a word.
const KEY_LIKE = /wsk_[A-Za-z0-9_-]{6,}|\bsk[-_][A-Za-z0-9_-]{6,}/g;
// A bearer token wherever it appears: a header quoted in a body, a log line, an error message;
// not the auth-params of a challenge (Bearer realm="api", token="…"), which QUOTED_PAIR handles.
const BEARER = /\b(Bearer)(\s+)(?![A-Za-z0-9_-]+\s*=\s*[^=\s,])[A-Za-z0-9._~+/=-]+/gi;

const isSecretName = (name: string) => SECRET_NAME.test(name.replace(/[-_]/g, '')) || ONE_TIME_NAME.test(name);

/** Secrets inside free text: bearer tokens, wsctl keys, quoted secret pairs and the password of a URL (https://user:***@host). */
function redactString(text: string): string {
  return maskUrlPassword(text).replace(BEARER, `$1$2${REDACTED}`).replace(KEY_LIKE, REDACTED).replace(QUOTED_PAIR, `$1$2$3"${REDACTED}"`);
}

export function redact(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    // A secret-named field is redacted whatever its type: a number, an object of credentials.
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k.replace(KEY_LIKE, REDACTED),
        isSecretName(k) && v !== null && v !== undefined ? REDACTED : redact(v),
      ]),
    );
  }
  return value;
}

/** The string values of secret-named fields in a request body (byok add's api_key), however deep. */
export function secretValues(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) secretValues(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && isSecretName(k)) found.push(v);
      else secretValues(v, found);
    }
  }
  return found;
}

/** Text for a --debug trace: secrets redacted, JSON or not, on one line. */
export function redactText(text: string): string {
  let redacted: string;
  try {
    redacted = JSON.stringify(redact(JSON.parse(text)));
  } catch {
    redacted = redactPlain(text);
  }
  return cleanLine(redacted);
}

/** Secrets in text that is not whole JSON (a truncated body, a line of a config file), left otherwise as it is. */
export function redactPlain(text: string): string {
  return redactString(
    text.replace(SECRET_IN_TEXT, (_m, head: string, quote: string | undefined) =>
      quote === undefined ? `${head}"${REDACTED}"` : `${head}"${REDACTED}${quote}`,
    ),
  ).replace(SECRET_PAIR, `$1$2$3${REDACTED}`);
}

/** A header value for a --debug trace. */
export function traceHeader(name: string, value: string): string {
  if (name === 'authorization' || name === 'proxy-authorization') return `${value.split(' ')[0]} ${REDACTED}`;
  if (isSecretName(name) || name === 'cookie' || name === 'set-cookie') return REDACTED;
  return cleanLine(redactString(value));
}
