import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { requireProfile } from './shared.js';

export function register(profile: Command, app: App): void {
  profile
    .command('rm')
    .alias('remove')
    .description('Delete a profile and its stored key')
    .argument('<name>', 'profile name')
    .addHelpText('after', examples('wsctl profile rm old-staging', 'wsctl profile rm ci --json'))
    .action((name: string, _flags: unknown, command: Command) => app.run(command, (ctx) => run({ name }, ctx)));
}

export async function run(opts: { name: string }, ctx: Ctx): Promise<Result> {
  requireProfile(ctx.config.read(), opts.name);
  await ctx.config.update((data) => {
    delete data.profiles[opts.name];
    if (data.current_profile === opts.name) delete data.current_profile;
  });
  return { json: { removed: opts.name }, human: (out) => out.done(`Deleted profile '${opts.name}'.`) };
}
