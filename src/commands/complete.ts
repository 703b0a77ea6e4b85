import type { Command } from 'commander';
import type { App, Ctx } from '../command.js';

// `wsctl __complete profiles`: the dynamic values of the completion scripts, in one Node start-up.
export function register(command: Command, app: App): void {
  command.argument('<what>', 'profiles').action((what: string, _flags: unknown, cmd: Command) => app.run(cmd, what, run));
}

async function run(what: string, ctx: Ctx): Promise<void> {
  if (what !== 'profiles') return;
  try {
    // One name a line: a name with a line break or control character cannot be completed safely.
    for (const name of Object.keys(ctx.config.read().profiles)) if (!/[\x00-\x1f\x7f]/.test(name)) ctx.term.line(name);
  } catch {
    // A broken config completes nothing; the next real command reports it.
  }
}
