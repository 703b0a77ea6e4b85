import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';

export function register(auth: Command, app: App): void {
  auth
    .command('logout')
    .description("Forget the profile's stored key (the base URL stays)")
    .option('--all', "forget every profile's key")
    .addHelpText('after', examples('wsctl auth logout', 'wsctl auth logout --profile work', 'wsctl auth logout --all'))
    .action((flags: { all?: boolean }, command: Command) => app.run(command, (ctx) => run({ all: !!flags.all }, ctx)));
}

export async function run(opts: { all: boolean }, ctx: Ctx): Promise<Result> {
  const data = ctx.config.read();
  const names = opts.all ? Object.keys(data.profiles) : [ctx.profileName()];
  const withKey = names.filter((name) => data.profiles[name]?.api_key);
  if (withKey.length > 0) {
    await ctx.config.update((d) => {
      for (const name of withKey) delete d.profiles[name]?.api_key;
    });
  }
  if (ctx.env.WSCTL_API_KEY) ctx.out.warn('WSCTL_API_KEY is still set in the environment and is used before any profile.');
  return {
    json: { logged_out: withKey },
    human(out) {
      if (withKey.length === 0) out.done(opts.all ? 'No profile had a stored key.' : `Profile '${names[0]}' had no stored key.`);
      else out.done(`Removed the stored key of ${withKey.map((n) => `'${n}'`).join(', ')}.`);
    },
  };
}
