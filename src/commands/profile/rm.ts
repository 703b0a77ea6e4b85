import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { forgetKeys } from '../../config/keys.js';
import { leftBehind } from '../auth/logout.js';
import { requireProfile } from './shared.js';

export function register(profile: Command, app: App): void {
  profile
    .command('rm')
    .alias('remove')
    .description('Delete a profile and its stored key')
    .argument('<name>', 'profile name')
    .addHelpText('after', examples('wsctl profile rm old-staging', 'wsctl profile rm work --json'))
    .action((name: string, _flags: unknown, command: Command) => app.run(command, { name }, run));
}

export async function run(opts: { name: string }, ctx: Ctx): Promise<Result> {
  requireProfile(ctx.config.read(), opts.name);
  const trace = (line: string) => ctx.debug && ctx.term.trace(`credential store: ${line}`);
  const { leftInStore } = await forgetKeys(ctx.config, [ctx.storeEntry(opts.name)], true, trace);
  for (const left of leftInStore) ctx.term.warn(leftBehind(left));
  return { json: { removed: opts.name, left_in_credential_store: leftInStore.length > 0 }, human: (out) => out.done(`Deleted profile '${opts.name}'.`) };
}
