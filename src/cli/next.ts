// The commands that go on from an error (cli.md §3 `next`): written as the user would type them,
// with the global flags of the line they typed (the workspace it acts on, how it speaks), ids
// quoted for the shell, and never a secret: a word of the user's line that holds one is written
// as a placeholder to fill in again.
import type { NextStep } from '../errors.js';
import { maskSecrets } from '../common/secrets.js';
import { redactText } from '../http/redact.js';
import { cleanLine } from '../common/sanitize.js';
import { GLOBAL_FLAGS, VALUE_OPTIONS } from '../common/globals.js';

export interface NextCommand {
  command: string;
  why: string;
}

/** `<url>`, `<name>`: a value the user must supply, written as is. */
const PLACEHOLDER = /^<[a-z][a-z0-9_-]*>$/;

/** A word as a POSIX shell reads it back: bare when nothing in it is special, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A word of the user's line, or a placeholder where it holds a secret (`-f api_key=…` → `api_key=<api_key>`). */
function withoutSecret(word: string): string {
  if (maskSecrets(word) === word && redactText(word) === cleanLine(word)) return word;
  const pair = /^([A-Za-z0-9_.-]+)[=:]/.exec(word);
  return pair ? `${pair[1]}=<${(pair[1] as string).toLowerCase()}>` : '<secret>';
}

/** The global options typed on the line (`--profile work`, `--sandbox`, `--json`), but not `--jq`, whose expression fits one document. */
export function globalWords(argv: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') break;
    const name = word.split('=', 1)[0] as string;
    if (!GLOBAL_FLAGS.has(name)) {
      if (VALUE_OPTIONS.has(word)) i++;
      continue;
    }
    const value = VALUE_OPTIONS.has(word) && i + 1 < argv.length ? [argv[++i] as string] : [];
    if (name !== '--jq') words.push(word, ...value);
  }
  return words;
}

/** A line of words, each a placeholder as written, a secret-bearing word as a placeholder, the rest quoted where the shell needs it. */
function line(words: string[], own: boolean): string {
  return words
    .map((w) => {
      if (!own) return PLACEHOLDER.test(w) ? w : shellWord(w);
      const safe = withoutSecret(w);
      return safe === w ? shellWord(w) : safe;
    })
    .join(' ');
}

/**
 * The steps as commands: `words` with the user's global flags that the step does not set itself,
 * `retype` as the user's own (expanded) line with its additions. `argv` is undefined on a door
 * that has no command line: only steps of their own words are then said.
 */
export function nextCommands(steps: readonly NextStep[] | undefined, argv: string[] | undefined): NextCommand[] {
  const out: NextCommand[] = [];
  for (const step of steps ?? []) {
    if ('retype' in step) {
      if (!argv) continue;
      const typed = argv.filter((w) => !step.add.includes(w));
      const end = typed.indexOf('--');
      const words = end < 0 ? [...typed, ...step.add] : [...typed.slice(0, end), ...step.add, ...typed.slice(end)];
      out.push({ command: `wsctl ${line(words, true)}`, why: step.why });
      continue;
    }
    if ('typed' in step) {
      out.push({ command: `wsctl ${[line(step.typed, true), ...(step.missing ?? [])].join(' ')}`, why: step.why });
      continue;
    }
    const own = new Set(step.words.filter((w) => w.startsWith('--')).map((w) => w.split('=', 1)[0]));
    const globals = globalWords(argv ?? []);
    const kept: string[] = [];
    for (let i = 0; i < globals.length; i++) {
      const word = globals[i] as string;
      const name = word.split('=', 1)[0] as string;
      const takesValue = VALUE_OPTIONS.has(word);
      if (!own.has(name)) kept.push(word, ...(takesValue ? [globals[i + 1] as string] : []));
      if (takesValue) i++;
    }
    out.push({ command: `wsctl ${[line(step.words, false), ...(kept.length ? [line(kept, true)] : [])].join(' ')}`, why: step.why });
  }
  return out;
}
