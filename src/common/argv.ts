// The one reader of argv before commander parses it: the launcher's kind of command and V8 flags,
// the runner's noun and alias, help --json's words, a TAB's workspace. Which words are options,
// which are their values and which name commands is read from the declarations: the global options
// (./globals.ts) and the flags a noun takes before its verb (./declared.ts, which the build writes).
import { DECLARED } from './declared.js';
import { VALUE_OPTIONS } from './globals.js';

export type Token =
  /** An option; `value` is its `=value`, or the next word when it takes one (whatever that word is). */
  | { kind: 'option'; name: string; value?: string; at: number }
  | { kind: 'word'; word: string; at: number }
  /** `--`: every word after it is a word. */
  | { kind: 'end'; at: number };

function takesValue(option: string, noun: string | undefined): boolean {
  return VALUE_OPTIONS.has(option) || (noun !== undefined && !!DECLARED.nounFlags[noun]?.values.includes(option));
}

/** argv, word by word. */
export function readArgv(argv: readonly string[]): Token[] {
  const tokens: Token[] = [];
  let noun: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') {
      tokens.push({ kind: 'end', at: i });
      for (let j = i + 1; j < argv.length; j++) tokens.push({ kind: 'word', word: argv[j] as string, at: j });
      break;
    }
    if (!word.startsWith('-')) {
      noun ??= word;
      tokens.push({ kind: 'word', word, at: i });
      continue;
    }
    const equals = word.startsWith('--') ? word.indexOf('=') : -1;
    if (equals > 0) tokens.push({ kind: 'option', name: word.slice(0, equals), value: word.slice(equals + 1), at: i });
    else if (takesValue(word, noun)) tokens.push({ kind: 'option', name: word, value: argv[i + 1], at: i++ });
    else tokens.push({ kind: 'option', name: word, at: i });
  }
  return tokens;
}

/** The words of argv that name commands or are their arguments, with where each is; `--` and what follows included. */
export function wordsOf(argv: readonly string[], before?: 'end'): { word: string; at: number }[] {
  const words: { word: string; at: number }[] = [];
  for (const token of readArgv(argv)) {
    if (token.kind === 'end' && before === 'end') break;
    if (token.kind === 'word') words.push({ word: token.word, at: token.at });
  }
  return words;
}

/** Where the noun argv invokes is: its first word that is neither an option nor an option's value; -1 when none. */
export function invokedNounAt(argv: readonly string[]): number {
  return wordsOf(argv)[0]?.at ?? -1;
}

/** The first two words of a command line, its noun and verb as typed. */
export function commandWords(argv: readonly string[]): string[] {
  return wordsOf(argv)
    .slice(0, 2)
    .map((w) => w.word);
}

/** The value argv gives the option `name` (`--jq x`, `--jq=x`) before any `--`, the last when it is given twice. */
export function optionValue(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (const token of readArgv(argv)) if (token.kind === 'option' && token.name === name) value = token.value;
  return value;
}

/** Whether argv starts the MCP server: `wsctl mcp` without one of its verbs. An alias is not expanded here. */
export function servesCalls(argv: readonly string[]): boolean {
  const [noun, verb] = commandWords(argv);
  return noun === 'mcp' && !DECLARED.verbs.mcp?.includes(verb as string);
}
