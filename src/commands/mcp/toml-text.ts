// TOML text for an entry: the table Codex's documentation shows, written without a TOML library
// (`wsctl mcp config --client codex` prints it; the parser loads only to edit a file).

type Table = Record<string, unknown>;

/** A basic string: JSON's escapes are TOML's, but for DEL, which TOML wants escaped too. */
function tomlString(text: string): string {
  return JSON.stringify(text).replace(/\u007f/g, '\\u007f');
}

export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

function tomlValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const pairs = Object.entries(value).map(([key, inner]) => `${tomlKey(key)} = ${tomlValue(inner)}`);
    // An inline table, as Codex's documentation writes `env = { "API_KEY" = "value" }`.
    return pairs.length > 0 ? `{ ${pairs.join(', ')} }` : '{}';
  }
  throw new Error(`No TOML for ${String(value)}`);
}

/** `[a.b]` and a line per key, without a line break after the last. */
export function tableText(path: string[], value: Table, eol: string): string {
  return [`[${path.map(tomlKey).join('.')}]`, ...Object.entries(value).map(([key, inner]) => `${tomlKey(key)} = ${tomlValue(inner)}`)].join(
    eol,
  );
}
