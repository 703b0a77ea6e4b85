// What a TAB asks wsctl for (`wsctl __complete ...`): profile names, and the ids remembered for
// the workspace named on the command line (cli.md §10). Its own small bundle (dist/complete.cjs),
// so that a TAB loads no commander, HTTP client, credential store, zod or jq: it reads two files
// and prints candidates, one a line (`id<TAB>description`). Whatever goes wrong prints nothing.
import { readFileSync } from 'node:fs';
import { readArgv } from '../common/argv.js';
import { configFolder } from '../config/index.js';
import { findPin } from '../config/pin.js';
import { envFlag, resolveTarget, type ConfigData, type Env } from '../config/resolve.js';
import { isIdKind, OFFERABLE_ID } from '../ids/kinds.js';
import { cacheDir, rememberedIds } from '../ids/store.js';

/** --profile, --base-url and --sandbox as the line gives them, and its words that are neither options nor their values. */
export function readLine(words: string[]): { flags: { profile?: string; baseUrl?: string; sandbox?: boolean }; operands: string[] } {
  const flags: { profile?: string; baseUrl?: string; sandbox?: boolean } = {};
  const operands: string[] = [];
  for (const token of readArgv(words)) {
    if (token.kind === 'word') operands.push(token.word);
    else if (token.kind !== 'option') continue;
    else if (token.name === '--profile') flags.profile = token.value;
    else if (token.name === '--base-url') flags.baseUrl = token.value;
    else if (token.name === '--sandbox') flags.sandbox = true;
  }
  return { flags, operands };
}

/** A description on one line, without anything a terminal or a shell's list would act on. */
function describe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return Array.from(text.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, ' '))
    .slice(0, 80)
    .join('');
}

function readConfig(dir: string): ConfigData {
  try {
    const data = JSON.parse(readFileSync(`${dir}/config.json`, 'utf8')) as ConfigData;
    return data && typeof data === 'object' && data.profiles && typeof data.profiles === 'object' ? data : { profiles: {} };
  } catch {
    return { profiles: {} };
  }
}

/**
 * The candidates for `__complete <what> [args]`, one a line; none when anything is amiss. The workspace
 * is chosen as a command run in cwd would choose it, pin file included; a bad pin offers nothing.
 */
export function completions(args: string[], env: Env, cwd: () => string = () => process.cwd()): string[] {
  try {
    const folder = configFolder(env);
    const dir = folder.path;
    if (args[0] === 'profiles') return Object.keys(readConfig(dir).profiles).filter((name) => /^[A-Za-z0-9._-]+$/.test(name));
    // Aliases complete like commands: only names `alias set` accepts.
    if (args[0] === 'aliases')
      return Object.keys(readConfig(dir).aliases ?? {}).filter((name) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name));
    if (args[0] !== 'ids' || !isIdKind(args[1] ?? '') || envFlag(env, 'WSCTL_NO_HISTORY')) return [];
    const kind = args[1] as Parameters<typeof rememberedIds>[2] & string;
    const rest = args.slice(args.indexOf('--') + 1);
    const { flags, operands } = readLine(args.includes('--') ? rest : []);
    const r = resolveTarget({ flags, env, folder, config: () => readConfig(dir), pin: () => findPin(cwd()) });
    if (!r.sandbox && !r.baseUrl) return [];
    // A connection belongs to the app named before it (`conn rm gmail <TAB>`): the word after the noun and verb.
    const app = kind === 'connection' ? operands[2] : undefined;
    return rememberedIds(cacheDir(env), { configDir: dir, sandbox: r.sandbox, profile: r.profile, baseUrl: r.baseUrl }, kind)
      .map((r) => r.entry)
      .filter((e) => OFFERABLE_ID.test(e.id) && (app === undefined || e.app === app))
      .map((e) => (e.description ? `${e.id}\t${describe(e.description)}` : e.id));
  } catch {
    return [];
  }
}

/** The launcher's door: argv after `__complete`, the environment, and a writer for stdout. */
export function answer(args: string[], env: Env, write: (text: string) => void): void {
  const lines = completions(args, env);
  if (lines.length > 0) write(`${lines.join('\n')}\n`);
}
