// The command line's door: a verb's action (src/verbs/invoke.ts) hands it the command, and it
// builds the context from the global options, resolving the target the verb needs once, before
// the pipeline runs; then it prints what the verb returned. Touches no `process`.
import type { Command } from 'commander';
import type { App, Result } from '../verbs/declare.js';
import type { BaseCtx, Ctx, Globals } from '../verbs/context.js';
import { declaredVerbs, loadCommands } from './program.js';
import { EXIT_OK, type Outcome } from './report.js';

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/**
 * The App that runs verbs for real: builds the context from the command's global options, with
 * the target the verb's declaration says it needs resolved once, runs the verb (the pipeline,
 * src/verbs/invoke.ts) and prints its Result.
 */
export function runningApp(base: BaseCtx, outcome: Outcome): App {
  const app: App = {
    loadAll: (program) => loadCommands(program, app, 'all'),
    declared: declaredVerbs,
    async run(command, opts, verb, needs = {}) {
      const globals = rootOf(command).opts<Globals>();
      outcome.json = !!globals.json || globals.jq !== undefined;
      outcome.debug ||= !!globals.debug;
      // Each from its own module, not ./loaded.js: a command's run would load help, completion and
      // the man pages with it, and keep their code in its code cache (BENCHMARKS.md).
      const { createCtx } = await import('./context.js');
      // The verb's options are read first, to know whether to resolve the target at all; a wrong one
      // is said after the context's own checks of the global options and the environment (exit 2).
      let read: { opts: ReturnType<typeof opts> } | { wrong: unknown };
      try {
        read = { opts: opts() };
      } catch (wrong) {
        read = { wrong };
      }
      const ctx = await createCtx(base, globals, 'opts' in read ? needs : {});
      try {
        if ('wrong' in read) throw read.wrong;
        const result = await verb(read.opts, ctx);
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
  const [{ InterruptedError, WsctlError, REASONS, reasonOfCode }, { cleanErrorMessage }] = await Promise.all([
    import('../errors.js'),
    import('../common/sanitize.js'),
  ]);
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
      const { maskSecrets } = await import('../common/secrets.js');
      // A word of another exit code (a 500 among network failures) is not this exit's reason.
      const given = result.exitReason;
      const reason = given !== undefined && REASONS[given] === result.exitCode ? given : reasonOfCode(result.exitCode);
      const doc = { error: { message: cleanErrorMessage(maskSecrets(result.exitMessage)), exit_code: result.exitCode, reason } };
      base.io.stderr.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else ctx.term.info(`Error: ${result.exitMessage}`);
  }
  return result.exitCode ?? EXIT_OK;
}
