// The runner: argv → the program → a verb, run with the context built from its global options;
// what it returns is printed, and every error goes to the reporter. Touches no `process`: the
// shell (shell.ts) or a test hands it the streams, the environment and the Ctrl-C signal.
import type { Command } from 'commander';
import type { App, Result } from '../verbs/declare.js';
import type { BaseCtx, Ctx, Globals } from './context.js';
import { buildProgram, declaredVerbs, invokedNoun, invokedNounAt, isCommandName, loadCommands } from './program.js';
import { GLOBAL_FLAGS, VALUE_OPTIONS } from '../common/globals.js';
import { debugFromEnv, EXIT_OK, oneLineUsage, reportError, usageError, type Outcome } from './report.js';
import { setRuntimeFlags } from '../tricks/switch.js';

declare const __WSCTL_VERSION__: string;
export const VERSION = typeof __WSCTL_VERSION__ === 'string' ? __WSCTL_VERSION__ : '0.0.0-dev';

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

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

/** The App that runs verbs for real: builds the context, runs the verb, prints its Result. */
function runningApp(base: BaseCtx, outcome: Outcome, argv: string[]): App {
  const app: App = {
    loadAll: (program) => loadCommands(program, app, 'all'),
    declared: declaredVerbs,
    async run(command, opts, verb) {
      const globals = rootOf(command).opts<Globals>();
      outcome.json = !!globals.json || globals.jq !== undefined;
      outcome.debug ||= !!globals.debug;
      // Before anything compiles WebAssembly; --help never gets here, so never pays for node:v8.
      setRuntimeFlags(argv);
      const { createCtx } = await import('./loaded.js');
      const ctx = await createCtx(base, globals);
      try {
        const result = await verb(opts(), ctx);
        // A command that returns nothing (sandbox serve) ends on Ctrl-C by design.
        if (result) outcome.code = await print(result, ctx, base);
      } finally {
        await ctx.close();
      }
    },
  };
  return app;
}

/** Prints a verb's Result (JSON or human) and gives the exit code it ends with. */
async function print(result: Result, ctx: Ctx, base: BaseCtx): Promise<number> {
  const { InterruptedError, WsctlError, cleanErrorMessage, maskSecrets } = await import('./loaded.js');
  if (base.signal.aborted) throw new InterruptedError();
  if (result.lost) base.io.onLost?.(cleanErrorMessage(result.lost));
  // A result written as it arrived (a streamed transcript) has nothing left to print.
  if (!result.printed) {
    if (ctx.json) {
      try {
        await ctx.term.printJson(result.json, result.jsonText);
      } catch (error) {
        // A result shown once (a new key's secret) that a --jq filter failed on is lost: the request
        // was sent and did its work, so this is no usage error (exit 2 says nothing was sent).
        if (!result.lost || !(error instanceof WsctlError) || error instanceof InterruptedError) throw error;
        throw new WsctlError(`${error.message.replace(/\.?$/, '.')} ${result.lost}`, { reason: 'output_lost' });
      }
    } else await result.human(ctx.term);
  }
  await result.after?.();
  if (result.failure) throw new WsctlError(result.failure, { reason: 'service_failure' });
  if (result.exitCode && result.exitMessage) {
    // Under --json the line is an error document too (cli.md §3), beside the one on stdout.
    if (ctx.json) {
      const { REASONS, reasonOfCode } = await import('./loaded.js');
      // A word of another exit code (a 500 among network failures) is not this exit's reason.
      const given = result.exitReason;
      const reason = given !== undefined && REASONS[given] === result.exitCode ? given : reasonOfCode(result.exitCode);
      const doc = { error: { message: cleanErrorMessage(maskSecrets(result.exitMessage)), exit_code: result.exitCode, reason } };
      base.io.stderr.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else ctx.term.info(`Error: ${result.exitMessage}`);
  }
  return result.exitCode ?? EXIT_OK;
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

  const app = runningApp(base, outcome, argv);
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

  // --jq: the engine's thread starts now, while the commands load.
  const jqAt = argv.indexOf('--jq');
  if (jqAt >= 0) import('../terminal/jq.js').then((m) => m.prestartJq(argv[jqAt + 1])).catch(() => {});
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
