import type { Command } from 'commander';
import { examples, requireId, type App, type Ctx, type Result } from '../../command.js';
import { confirmDestructive } from '../../confirm.js';
import { request } from '../../service.js';

export function register(conn: Command, app: App): void {
  conn
    .command('rm')
    .alias('remove')
    .description('Remove a connection to a third-party app; asks to confirm on a terminal, else needs --yes')
    .argument('<app_slug>', 'the app, e.g. gmail')
    .argument('<pd_conn_id>', 'the connection id')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples('wsctl conn rm gmail pdc_gmail', 'wsctl conn rm notion pdc_notion --yes', "wsctl conn rm gmail pdc_gmail --yes --jq '.success'"))
    .action((appSlug: string, connId: string, flags: { yes?: boolean }, command: Command) =>
      app.run(command, { appSlug, connId, yes: !!flags.yes }, run),
    );
}

export async function run(opts: { appSlug: string; connId: string; yes: boolean }, ctx: Ctx): Promise<Result> {
  requireId(opts.appSlug, 'app_slug');
  requireId(opts.connId, 'pd_conn_id');
  const target = `${opts.appSlug}/${opts.connId}`;
  await confirmDestructive(ctx, `remove connection ${target}`, opts.yes);
  const api = await ctx.api();
  const { body } = await ctx.term.spin(
    'Removing connection',
    api.request(request('removeConnection', { params: { app_slug: opts.appSlug, pd_conn_id: opts.connId }, what: `connection ${target}` })),
  );
  return {
    json: body,
    human: (out) => {
      if (body.success) out.done(`Removed connection ${target}.`);
    },
    failure: body.success ? undefined : `The service did not remove connection ${target} (success: false).`,
  };
}
