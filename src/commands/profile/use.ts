import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { requireProfile } from './shared.js';

export function register(profile: Command, app: App): void {
  profile
    .command('use')
    .description('Make a profile the current one')
    .argument('<name>', 'profile name')
    .addHelpText('after', examples('wsctl profile use work', 'wsctl profile use default'))
    .action((name: string, _flags: unknown, command: Command) => app.run(command, { name }, run));
}

export async function run(opts: { name: string }, ctx: Ctx): Promise<Result> {
  requireProfile(ctx.config.read(), opts.name);
  await ctx.config.update((data) => {
    // Checked again on the fresh read: a concurrent `profile rm` may have removed it.
    requireProfile(data, opts.name);
    data.current_profile = opts.name;
  });
  return { json: { current_profile: opts.name }, human: (out) => out.done(`Now using profile '${opts.name}'.`) };
}
