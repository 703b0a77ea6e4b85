import type { Command } from 'commander';
import { path } from '../../api.js';
import { examples, requireId, saysFailure, type App, type Ctx, type Result } from '../../command.js';
import { confirmDestructive } from '../../confirm.js';

export function register(pub: Command, app: App): void {
  pub
    .command('rm')
    .alias('remove')
    .description('Unpublish a published conversation')
    .argument('<pub_id>', 'the publication id')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples('wsctl pub rm pub_demo', 'wsctl pub rm pub_demo --yes --json'))
    .action((pubId: string, flags: { yes?: boolean }, command: Command) => app.run(command, (ctx) => run({ pubId, yes: !!flags.yes }, ctx)));
}

export async function run(opts: { pubId: string; yes: boolean }, ctx: Ctx): Promise<Result> {
  requireId(opts.pubId, 'pub_id');
  await confirmDestructive(ctx, `unpublish '${opts.pubId}'`, opts.yes);
  const api = await ctx.api();
  // Any 2xx is success whatever its body, unless JSON says success: false.
  const response = await ctx.out.spin(
    'Unpublishing',
    api.request({ method: 'DELETE', path: path`/pub/${opts.pubId}`, anyBody: true, what: `publication '${opts.pubId}'` }),
  );
  const body = response.isJson ? response.body : undefined;
  const refused = saysFailure(body);
  return {
    json: body ?? { success: true },
    human: (out) => {
      if (!refused) out.done(`Unpublished '${opts.pubId}'.`);
    },
    failure: refused ? `The service did not unpublish '${opts.pubId}' (success: false).` : undefined,
  };
}
