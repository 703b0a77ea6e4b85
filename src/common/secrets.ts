// The secrets this process sends (the key in use, a provider key in a request body), so that no
// error, trace or report can print them back, even when the service echoes them (cli.md §3).
// One list for the process: an error is built far from the request that carried the secret
// (decode, the MCP server, a verb's failure), and every door masks with this list.

const known = new Set<string>();
let pattern: RegExp | undefined;

// Shorter values are not keys anyone uses, and masking them would blank ordinary words.
const SHORTEST = 6;

/** cli.md §2: first 4 and last 4 characters around an ellipsis, or **** when short. */
export function mask(secret: string | null | undefined): string {
  if (!secret) return '';
  return secret.length >= 12 ? `${secret.slice(0, 4)}…${secret.slice(-4)}` : '****';
}

/** Remembers a secret that wsctl sends: from now on it is masked wherever maskSecrets looks. */
export function rememberSecret(secret: string | null | undefined): void {
  if (typeof secret !== 'string' || secret.length < SHORTEST || known.has(secret)) return;
  known.add(secret);
  // As sent, and as it reads percent-encoded in a URL the service quotes back.
  const forms = new Set<string>();
  for (const s of known) {
    forms.add(s);
    forms.add(encodeURIComponent(s));
  }
  pattern = new RegExp(
    [...forms]
      .sort((a, b) => b.length - a.length)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
}

/** Text with every remembered secret masked (wsk_…cdef). */
export function maskSecrets(text: string): string {
  if (!pattern || typeof text !== 'string') return text;
  return text.replace(pattern, (found) => mask(found));
}

/** A value (an error's details, a parsed body) with every remembered secret masked in its strings and keys. */
export function maskSecretsIn<T>(value: T): T {
  if (!pattern) return value;
  return maskDeep(value, 0) as T;
}

function maskDeep(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  // Bodies are bounded to 512 levels by decode; deeper than that is left as it is.
  if (!value || typeof value !== 'object' || depth > 600) return value;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [maskSecrets(k), maskDeep(v, depth + 1)]));
}
