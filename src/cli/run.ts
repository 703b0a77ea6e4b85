// The runner: argv → the program → a verb's action, which the command line's door (door.ts) runs
// and prints; every error goes to the reporter. Touches no `process`: the shell (shell.ts) or a
// test hands it the streams, the environment and the Ctrl-C signal.
import type { BaseCtx } from '../verbs/context.js';
import { runningApp } from './door.js';
import { buildProgram, declaredVerbs, invokedNoun, invokedNounAt, isCommandName, loadCommands } from './program.js';
import { optionValue } from '../common/argv.js';
import { GLOBAL_FLAGS, VALUE_OPTIONS } from '../common/globals.js';
import { debugFromEnv, EXIT_OK, oneLineUsage, reportError, usageError, type Outcome } from './report.js';

declare const __WSCTL_VERSION__: string;
export const VERSION = typeof __WSCTL_VERSION__ === 'string' ? __WSCTL_VERSION__ : '0.0.0-dev';

/** `wsctl help keys create` is `wsctl keys create --help`; `wsctl help <topic>` is answered apart. */
function helpRequest(argv: string[]): { argv: string[]; words: string[] } | undefined {
  const at = argv.indexOf('help');
  if (at < 0 || invokedNoun(argv) !== 'help') return undefined;
  return { argv: [...argv.slice(0, at), ...argv.slice(at + 1), '--help'], words: argv.slice(at + 1).filter((w) => !w.startsWith('-')) };
}

/** `wsctl help --json …` or `wsctl … --help --json` (or --jq): the description for programs (cli.md §12), not commander's text. */
function wantsHelpJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  return words.some((w) => w === '--help' || w === '-h') && words.some((w) => w === '--json' || w === '--jq' || w.startsWith('--jq='));
}

/**
 * argv with an alias expanded (once: what it expands to is not looked up again). config.json is
 * read for aliases only when the first word is not a command, so commands pay nothing for them.
 */
async function withAlias(argv: string[], base: BaseCtx): Promise<string[]> {
  const at = invokedNounAt(argv);
  const word = argv[at];
  if (word === undefined || isCommandName(word)) return argv;
  const { expandArgv, readAliases, shown } = await import('./loaded.js');
  const aliases = readAliases(base.env);
  if (!Object.hasOwn(aliases, word)) return argv;
  const expanded = expandArgv(argv, at, aliases[word] as string, GLOBAL_FLAGS, VALUE_OPTIONS);
  if (expanded.includes('--dry-run') || expanded.includes('--debug') || debugFromEnv(base.env)) {
    base.io.stderr.write(`alias ${word}: wsctl ${shown(expanded)}\n`);
  }
  return expanded;
}

/** Runs argv and gives the exit code; writes help, output and errors to base.io. */
export async function main(givenArgv: string[], base: BaseCtx): Promise<number> {
  // A TAB: answered without the command tree (bin/wsctl does the same without loading this bundle).
  if (givenArgv[0] === '__complete') {
    (await import('../completion/answer.js')).answer(givenArgv.slice(1), base.env, (text) => base.io.stdout.write(text));
    return EXIT_OK;
  }
  let rawArgv: string[];
  try {
    rawArgv = await withAlias(givenArgv, base);
  } catch (error) {
    const json = givenArgv.includes('--json') || givenArgv.includes('--jq');
    return reportError(error, base, { code: EXIT_OK, json, debug: debugFromEnv(base.env), argv: givenArgv });
  }
  const help = helpRequest(rawArgv);
  const argv = help?.argv ?? rawArgv;
  const outcome: Outcome = {
    code: EXIT_OK,
    json: argv.includes('--json') || argv.includes('--jq'),
    debug: argv.includes('--debug') || debugFromEnv(base.env),
    argv: rawArgv,
  };
  let usageMessage: string | undefined;

  const app = runningApp(base, outcome);
  const writeHelp = (text: string) => (base.io.writeHelp ? base.io.writeHelp(text) : base.io.stdout.write(text));
  const width = () => base.helpWidth?.() ?? (Number(base.env.COLUMNS) || undefined);
  const program = buildProgram(VERSION, {
    writeOut: writeHelp,
    // Commander writes help here when a noun is given without a verb: show it as help (gh does too).
    writeErr: writeHelp,
    onUsageError: (message) => {
      usageMessage = oneLineUsage(message);
    },
    get helpWidth() {
      return width();
    },
  });

  // --jq: the engine starts now, while the commands load (the filter commander will take: the last).
  const filter = optionValue(argv, '--jq');
  if (filter !== undefined) import('../terminal/jq.js').then((m) => m.prestartJq(filter)).catch(() => {});
  try {
    if (wantsHelpJson(argv)) {
      await loadCommands(program, app, 'all');
      const { printHelpDocument } = await import('./loaded.js');
      const { io, env, prompt, signal } = base;
      await printHelpDocument({
        program,
        verbs: await declaredVerbs(),
        version: VERSION,
        argv: rawArgv,
        io,
        env,
        prompt,
        signal,
      });
      return EXIT_OK;
    }
    await loadCommands(program, app, invokedNoun(argv));
    if (help && help.words.length > 0) {
      const topic = (await import('./loaded.js')).answerHelp(program, help.words, width());
      if (topic !== undefined) {
        writeHelp(topic);
        return EXIT_OK;
      }
    }
    await program.parseAsync(argv, { from: 'user' });
    return outcome.code;
  } catch (error) {
    const commander = error as { code?: string; exitCode?: number };
    const helpOrVersion = ['commander.help', 'commander.helpDisplayed', 'commander.version'].includes(commander.code ?? '');
    if (!base.signal.aborted && (helpOrVersion || (commander.code?.startsWith('commander.') && commander.exitCode === 0))) return EXIT_OK;
    if (base.signal.aborted) return reportError(new (await import('./loaded.js')).InterruptedError(), base, outcome);
    if (typeof commander.code === 'string' && commander.code.startsWith('commander.')) {
      const said = usageMessage ?? oneLineUsage((error as Error).message);
      return reportError(await usageError(program, argv, commander.code, said), base, outcome);
    }
    return reportError(error, base, outcome);
  }
}
