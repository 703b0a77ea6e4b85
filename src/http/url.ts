// Building the request's address: the base URL checked (cli.md §7: http only to loopback),
// paths joined below it, interpolated ids percent-encoded so they never leave their segment.
import { UsageError } from '../errors.js';

export interface Target {
  origin: string;
  path: string;
  href: string;
}

/** A value percent-encoded into one path segment, dots too, so an id never leaves its segment. */
export function encodeSegment(value: string): string {
  return /^\.+$/.test(value) ? value.replace(/\./g, '%2E') : encodeURIComponent(value);
}

/** A path with every interpolated value encoded into its own segment. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((out, part, i) => (i === 0 ? part : out + encodeSegment(values[i - 1] ?? '') + part), '');
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Parses a base URL and enforces cli.md §7: http only to loopback hosts. */
export function checkBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Invalid base URL '${raw}': give a full URL such as https://api.example.com.`, { reason: 'invalid_input' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`Invalid base URL '${raw}': only http:// and https:// are supported.`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(`Refusing plain http:// to ${url.hostname}: use https://, or http:// only to a loopback host.`, {
      reason: 'insecure_url',
    });
  }
  if (url.username || url.password) throw new UsageError('The base URL must not contain credentials.');
  return url;
}

export function joinUrl(base: URL, relative: string): Target {
  const prefix = base.pathname.replace(/\/+$/, '');
  const rest = relative.startsWith('/') ? relative : `/${relative}`;
  const joined = prefix + rest;
  return { origin: base.origin, path: joined, href: base.origin + joined };
}
