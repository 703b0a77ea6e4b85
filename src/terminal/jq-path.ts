// A --jq filter that is only a path (`.keys[].id`, `.items[0] | .name`, `.`) read straight from the
// document, without the jq engine: a speed trick (src/tricks/registry.ts lists them all). It answers only
// where its bytes are certainly jq's own; anything else (a value jq would print differently, or a
// step jq would fail on, with its own message) is left to the engine, which runs the filter from
// the start. test/jq-path.test.ts compares the two on documents made to tell them apart.

/** One step of a path: `.name`, `[n]` or `[]`. */
export type Step = { field: string } | { index: number } | { each: true };

// Words jq reads as its own; `.end` and the like are left to the engine.
const KEYWORDS = new Set([
  '__loc__',
  'and',
  'as',
  'catch',
  'def',
  'elif',
  'else',
  'end',
  'foreach',
  'if',
  'import',
  'include',
  'label',
  'module',
  'or',
  'reduce',
  'then',
  'try',
]);

/** The steps of a filter made of paths joined by `|`, each starting with `.`; undefined for any other filter. */
export function plainPath(expression: string): Step[] | undefined {
  const steps: Step[] = [];
  for (const part of expression.split('|')) {
    // Only what jq's lexer skips: a no-break space, say, is jq's syntax error.
    const path = part.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
    if (!path.startsWith('.')) return undefined;
    // Whitespace inside a path, `..`, `?`, strings and the rest of the language: the engine's.
    const token = /\.([A-Za-z_][A-Za-z0-9_]*)|\.?\[(-?(?:0|[1-9][0-9]{0,8}))?\]/y;
    let at = path === '.' ? 1 : 0;
    while (at < path.length) {
      token.lastIndex = at;
      const match = token.exec(path);
      if (!match) return undefined;
      const [text, field, index] = match;
      if (field !== undefined) {
        if (KEYWORDS.has(field)) return undefined;
        steps.push({ field });
      } else steps.push(index === undefined ? { each: true } : { index: Number(index) });
      at += text.length;
    }
  }
  return steps;
}

/** A value that stops the walk: the engine answers instead. */
const ENGINE = Symbol('the engine answers');

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What `jq -c` (raw: `jq -r -c`) prints for the steps on the document: one result per line.
 * Undefined when jq itself must answer. The document must be JSON.stringify's text: its numbers are
 * in JavaScript's shortest form, which jq 1.8 prints as they were written.
 */
export function followPath(json: string, steps: Step[], raw: boolean): string | undefined {
  const lines: string[] = [];
  try {
    walk(JSON.parse(json), 0);
  } catch (error) {
    if (error === ENGINE) return undefined;
    throw error;
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;

  function walk(value: unknown, from: number): void {
    const step = steps[from];
    if (!step) {
      lines.push(raw && typeof value === 'string' ? rawString(value) : printed(value));
      return;
    }
    const next = from + 1;
    if ('field' in step) {
      if (value === null) return walk(null, next);
      if (!isObject(value)) throw ENGINE;
      return walk(Object.hasOwn(value, step.field) ? value[step.field] : null, next);
    }
    if ('index' in step) {
      if (value === null) return walk(null, next);
      if (!Array.isArray(value)) throw ENGINE;
      const at = step.index < 0 ? value.length + step.index : step.index;
      return walk(at >= 0 && at < value.length ? value[at] : null, next);
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(item, next);
      return;
    }
    if (!isObject(value)) throw ENGINE;
    // Keys that differ only in a lone surrogate are one key for jq (forJq gives each U+FFFD).
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) throw ENGINE;
      walk(item, next);
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** jq -r's string: its characters as they are, when jq would read them back the same. */
function rawString(value: string): string {
  if (LONE_SURROGATE.test(value)) throw ENGINE;
  return value;
}

/**
 * jq -c's text of a value, where it is JSON.stringify's: no exponent, no DEL, no lone surrogate.
 * Keys come in the document's order: JSON.parse keeps the order JSON.stringify wrote.
 */
function printed(value: unknown): string {
  check(value);
  return JSON.stringify(value);
}

function check(value: unknown): void {
  if (typeof value === 'string') {
    // jq escapes DEL as \u007f, and reads a lone surrogate as U+FFFD.
    if (value.includes('\x7f') || LONE_SURROGATE.test(value)) throw ENGINE;
  } else if (typeof value === 'number') {
    // jq 1.8 prints 1e+21 as 1E+21.
    if (!Number.isFinite(value) || String(value).includes('e')) throw ENGINE;
  } else if (Array.isArray(value)) {
    for (const item of value) check(item);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      check(key);
      check(item);
    }
  }
}
