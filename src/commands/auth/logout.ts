import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { forgetKeys } from '../../config/keys.js';

export function register(auth: Command, app: App): void {
  auth
    .command('logout')
    .description("Forget the profile's stored key, in the credential store and in the file (the base URL stays)")
    .option('--all', "forget every profile's key")
    .addHelpText('after', examples('wsctl auth logout', 'wsctl auth logout --profile work', 'wsctl auth logout --all'))
    .action((flags: { all?: boolean }, command: Command) => app.run(command, { all: !!flags.all }, run));
}

export async function run(opts: { all: boolean }, ctx: Ctx): Promise<Result> {
  const names = opts.all ? Object.keys(ctx.config.read().profiles) : [ctx.profileName()];
  const { forgotten, leftInStore, reason } = await forgetKeys(ctx.config, names, false);
  if (leftInStore.length > 0) {
    ctx.term.warn(`The credential store entries of ${leftInStore.map((n) => `'${n}'`).join(', ')} were left behind: ${reason}.`);
  }
  if (ctx.env.WSCTL_API_KEY) ctx.term.warn('WSCTL_API_KEY is still set in the environment and is used before any profile.');
  return {
    json: { logged_out: forgotten, left_in_credential_store: leftInStore },
    human(out) {
      if (forgotten.length === 0) out.done(opts.all ? 'No profile had a stored key.' : `Profile '${names[0]}' had no stored key.`);
      else out.done(`Removed the stored key of ${forgotten.map((n) => `'${n}'`).join(', ')}.`);
    },
  };
}
