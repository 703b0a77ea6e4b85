// Aliases (cli.md §5): a name for a command line, kept in config.json. The expansion is split
// like a shell's words (quotes and backslashes, no shell run), `$1`, `$2`, … take the arguments
// after the alias, the rest are appended; expanded once, before commander parses argv.
import { ConfigStore, configFolder } from './index.js';
import { UsageError } from '../errors.js';
import { cleanLine } from '../common/sanitize.js';

/** Words of a command line as a POSIX shell splits them: '…' literal, "…" with \ before " \ $ `, \ outside quotes. No expansion. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new UsageError(`Unterminated ' in the alias expansion: ${line}`, { reason: 'invalid_input' });
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1] as string)) j++;
        word += line[j];
      }
      if (j >= line.length) throw new UsageError(`Unterminated " in the alias expansion: ${line}`, { reason: 'invalid_input' });
      i = j;
    } else if (ch === '\\') {
      if (i + 1 < line.length) {
        if (line[i + 1] !== '\n') word += line[i + 1];
        i++;
      }
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** `$1`, `$2`, … (a whole word or inside one) take the arguments after the alias; those not taken are appended. */
export function expand(expansion: string, args: string[], name = 'alias'): string[] {
  const used = new Set<number>();
  const words = splitWords(expansion).map((word) =>
    word.replace(/\$(\d+)/g, (_m, n: string) => {
      const i = Number(n) - 1;
      if (i < 0 || i >= args.length)
        throw new UsageError(
          `The alias '${name}' (${expansion}) needs argument $${n}, and ${args.length === 1 ? 'one was' : `${args.length} were`} given.`,
          { reason: 'missing_argument' },
        );
      used.add(i);
      return args[i] as string;
    }),
  );
  return [...words, ...args.filter((_a, i) => !used.has(i))];
}

const ALIAS_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkAliasName(name: string): string {
  if (!ALIAS_NAME.test(name))
    throw new UsageError(`Invalid alias name '${name}': use letters, digits, '.', '_' or '-' (at most 64), not starting with '-'.`, {
      reason: 'invalid_input',
    });
  return name;
}

/** argv with the alias at `at` expanded: global options typed after it stay options, the other words are its arguments. */
export function expandArgv(
  argv: string[],
  at: number,
  expansion: string,
  globalFlags: ReadonlySet<string>,
  valueFlags: ReadonlySet<string | undefined>,
): string[] {
  const globals: string[] = [];
  const args: string[] = [];
  const after = argv.slice(at + 1);
  for (let i = 0; i < after.length; i++) {
    const word = after[i] as string;
    if (word === '--') {
      args.push(...after.slice(i + 1));
      break;
    }
    const flag = word.split('=', 1)[0] as string;
    if (globalFlags.has(flag)) {
      globals.push(word);
      if (valueFlags.has(word) && i + 1 < after.length) globals.push(after[++i] as string);
    } else args.push(word);
  }
  return [...argv.slice(0, at), ...expand(expansion, args, argv[at]), ...globals];
}

/** The aliases of config.json, read only for a first word that is not a command; none when it cannot be read. */
export function readAliases(env: Record<string, string | undefined>): Record<string, string> {
  try {
    return new ConfigStore(configFolder(env).path).read().aliases ?? {};
  } catch {
    // A broken config is reported by the command that needs it; here the word is just unknown.
    return {};
  }
}

/** A command line as a person would type it again, for --dry-run and --debug. */
export function shown(words: string[]): string {
  // The words come from config.json and the command line: nothing in them may drive the terminal.
  return cleanLine(words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' '));
}
