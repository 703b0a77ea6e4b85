// What mcp install shows of the entry it replaces, with its secrets masked (cli.md §3): an old entry
// may run `env WSCTL_API_KEY=wsk_… wsctl mcp --token …` or carry keys in its env, and its line and
// the --dry-run diff reach the person's terminal, or the agent's context. wsctl's one redactor
// (src/http/redact.ts) finds secrets inside a string; what it cannot see from one line, the value
// after a secret-named flag (`--token`, then the value on the next line of a JSON array), is
// read from the entry itself.
import { REDACTED, redactPlain, secretValues } from '../../http/redact.js';

/** Whether a word is a flag whose name says it takes a secret: --token, --api-key, -password. */
function secretFlag(word: string): boolean {
  const name = /^-{1,2}([A-Za-z][\w.-]*)$/.exec(word)?.[1];
  return name !== undefined && secretValues({ [name]: '?' }).length > 0;
}

/** The words of a command line, each secret masked: the value after a secret-named flag whole, the rest as the redactor finds it. */
export function maskedWords(argv: string[]): string[] {
  return argv.map((word, i) => (i > 0 && secretFlag(argv[i - 1]!) ? REDACTED : redactPlain(word)));
}

/**
 * The strings of an entry (or a whole file) that are secrets the redactor cannot see in a line of its file: values
 * after a secret-named flag, of `NAME=value` words, and of secret-named members (env, environment,
 * headers), however deep.
 */
export function entrySecrets(entry: unknown): string[] {
  const found = secretValues(entry);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach((word, i) => {
        if (typeof word !== 'string') {
          walk(word);
          return;
        }
        if (i > 0 && secretFlag(String(value[i - 1]))) found.push(word);
        const pair = /^([A-Za-z_][\w.-]*)=(.+)$/s.exec(word);
        if (pair) found.push(...secretValues({ [pair[1]!]: pair[2]! }));
      });
    } else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) walk(v);
  };
  walk(entry);
  return [...new Set(found)].filter((s) => s !== '');
}

/**
 * A unified diff with its secrets masked: the entry's own (as its file quotes them, JSON's or TOML's
 * "…" and TOML's '…') and whatever the redactor finds on a line. The two header lines name files.
 */
export function maskedDiff(diff: string, secrets: string[]): string {
  const quoted = secrets
    .flatMap((s) => [[JSON.stringify(s), `"${REDACTED}"`] as const, [`'${s}'`, `'${REDACTED}'`] as const])
    .sort(([a], [b]) => b.length - a.length);
  return diff
    .split('\n')
    .map((line, i) => {
      if (i < 2 || line === '') return line;
      let text = line.slice(1);
      for (const [secret, masked] of quoted) text = text.split(secret).join(masked);
      return line[0] + redactPlain(text);
    })
    .join('\n');
}
