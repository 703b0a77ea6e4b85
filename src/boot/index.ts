// What bin/wsctl runs (built to dist/boot.cjs, beside the program): the answers that need nothing
// of the program, then the program. `--version` alone, the root help at 80 columns (piped, or
// COLUMNS=80: the text the build rendered with commander) and MCP's `initialize` are answered
// here, for every user alike; a TAB goes to dist/complete.cjs, which loads nothing of the
// commands (cli.md §10). Then Node's compile cache (Node 22+), the V8 flags of the kind of run
// (./flags.ts), and the program from wsctl's code cache of it (./code-cache.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandWords, optionValue, servesCalls } from '../common/argv.js';
import { DECLARED } from '../common/declared.js';
import { answerEarly, type EarlyStart } from '../mcp/early.js';
import { plainPath } from '../terminal/jq-path.js';
import { runWithCodeCache, useCodeCaches } from './code-cache.js';
import { setV8Flags, v8FlagsFor } from './flags.js';
import { cacheFolder, makeFolders } from './folders.js';
import { helpAt80, writeAnswer } from './write.js';

declare const __WSCTL_VERSION__: string;
declare const __WSCTL_BUILD_ID__: string;
const VERSION = typeof __WSCTL_VERSION__ === 'string' ? __WSCTL_VERSION__ : '0.0.0-dev';
const BUILD_ID = typeof __WSCTL_BUILD_ID__ === 'string' ? __WSCTL_BUILD_ID__ : 'dev';

interface Program {
  cli(argv: string[], early?: EarlyStart): Promise<void>;
}

/**
 * Which of the program's code caches a run takes, each made at the exit of the first run of its
 * kind: one per noun, whose commands run much the same code, and one for the MCP server; anything
 * else (help, an alias, which this does not expand) shares one; a run whose --jq filter needs the
 * jq engine has its own (`keys-jq`), for it runs the engine's code and gets the engine's V8 flags
 * (./flags.ts). A noun's cache made by another noun's run would leave out most of what its
 * commands compile (Node 24: `keys list --json` 1.15× its time with the cache `profile list` made).
 */
export function cacheKind(argv: readonly string[]): string {
  if (servesCalls(argv)) return 'mcp-server';
  const [noun] = commandWords(argv);
  const kind = noun !== undefined && Object.hasOwn(DECLARED.verbs, noun) ? noun : 'other';
  const filter = optionValue(argv, '--jq');
  // A filter that is only a path is read without the jq engine (src/terminal/jq-path.ts): its run is the noun's.
  return filter !== undefined && plainPath(filter) === undefined ? `${kind}-jq` : kind;
}

/** Says that dist/ is incomplete, in one line, and ends the process. */
export function notBuilt(error: unknown): never {
  process.stderr.write(
    `Error: wsctl is not built (${(error as NodeJS.ErrnoException).code ?? (error as Error).name}). Run \`npm run build\` in its folder.\n`,
  );
  process.exit(1);
}

/** Runs wsctl with argv (the words after `wsctl`); dist: the folder of the built files. */
export function boot(argv: string[], dist: string = __dirname): void {
  const env = process.env;
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) return writeAnswer(`${VERSION}\n`, argv);
  if ((argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h'))) && helpAt80(env)) {
    let help: string | undefined;
    try {
      help = readFileSync(join(dist, 'help-80.txt'), 'utf8');
    } catch {
      // not built: the program below says so
    }
    if (help !== undefined) return writeAnswer(help, argv);
  }
  if (argv[0] === '__complete') {
    let complete: { answer(args: string[], env: NodeJS.ProcessEnv, write: (text: string) => void): void };
    try {
      // This file's own require (boot.cjs is CommonJS): createRequire would load node:module.
      complete = require(join(dist, 'complete.cjs'));
    } catch {
      return; // not built: nothing to offer
    }
    return complete.answer(argv.slice(1), env, (text) => writeAnswer(text, argv));
  }
  const early = argv[0] === 'mcp' ? answerEarly(argv.slice(1), env, VERSION) : undefined;

  // Node's own switch for its compile cache turns wsctl's off too.
  let folder: string | undefined;
  if (!env.NODE_DISABLE_COMPILE_CACHE) {
    try {
      folder = cacheFolder(env);
      // Made here first: Node's own recursive mkdir never returns under /proc.
      makeFolders(folder);
      // Node 22+ (node:module is loaded here, not imported: the answers above do not pay for it).
      (process.getBuiltinModule('node:module') as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(folder);
    } catch {
      folder = undefined; // no cache: slower, not broken
    }
  }
  const kind = cacheKind(argv);
  const v8Flags = v8FlagsFor(kind);
  setV8Flags(v8Flags.flags);
  // The caches of the files that runs of every kind take (the TAB answerer's, the jq engine's):
  // one for each set of flags, for V8 takes a cache only under the flags it was made with.
  const sharedKind = v8Flags.name;
  useCodeCaches(folder, BUILD_ID, sharedKind);
  let program: Program;
  try {
    // The TAB answerer's file first: it holds the modules the program shares with it, which the
    // program's require() then finds loaded.
    runWithCodeCache(join(dist, 'complete.cjs'), folder, BUILD_ID, sharedKind);
    program = runWithCodeCache(join(dist, 'wsctl.cjs'), folder, BUILD_ID, kind) as Program;
  } catch (error) {
    // A file that cannot be read or compiled (missing, a folder, cut short): an install to build again.
    if (!(error instanceof SyntaxError) && (error as NodeJS.ErrnoException).code === undefined) throw error;
    notBuilt(error);
  }
  void program.cli(argv, early);
}
