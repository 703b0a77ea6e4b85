import type { Command } from 'commander';
import { examples, requireId, type App, type Ctx, type Result } from '../../command.js';
import { remove } from '../../removal.js';

export function register(pub: Command, app: App): void {
  pub
    .command('rm')
    .alias('remove')
    .description('Unpublish a published conversation; asks to confirm on a terminal, else needs --yes')
    .argument('<pub_id>', 'the publication id')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples('wsctl pub rm pub_demo', "wsctl pub rm pub_demo --yes --jq '.success'"))
    .action((pubId: string, flags: { yes?: boolean }, command: Command) => app.run(command, { pubId, yes: !!flags.yes }, run));
}

export async function run(opts: { pubId: string; yes: boolean }, ctx: Ctx): Promise<Result> {
  requireId(opts.pubId, 'pub_id');
  return remove(ctx, {
    action: `unpublish '${opts.pubId}'`,
    endpoint: 'removePublication',
    params: { pub_id: opts.pubId },
    what: `publication '${opts.pubId}'`,
    yes: opts.yes,
    spinner: 'Unpublishing',
    done: `Unpublished '${opts.pubId}'.`,
  });
}
