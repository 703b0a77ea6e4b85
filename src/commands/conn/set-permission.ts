import type { Command } from 'commander';
import { examples, requireId, type App, type Ctx, type Result } from '../../command.js';
import { connectionPermissions } from '../../enums.js';
import { request } from '../../service.js';

export interface SetPermissionOptions {
  appSlug: string;
  connId: string;
  permission: string;
}

export function register(conn: Command, app: App): void {
  conn
    .command('set-permission')
    .description("Change a connection's permission")
    .argument('<app_slug>', 'the app, e.g. gmail')
    .argument('<pd_conn_id>', 'the connection id')
    .argument('<permission>', 'the new permission, e.g. read or write')
    .addHelpText('after', examples('wsctl conn set-permission gmail pdc_gmail write', "wsctl conn set-permission notion pdc_notion read --jq '.success'"))
    .action((appSlug: string, connId: string, permission: string, _flags: unknown, command: Command) =>
      app.run(command, { appSlug, connId, permission }, run),
    );
}

export async function run(opts: SetPermissionOptions, ctx: Ctx): Promise<Result> {
  requireId(opts.appSlug, 'app_slug');
  requireId(opts.connId, 'pd_conn_id');
  requireId(opts.permission, 'permission');
  const api = await ctx.api();
  const { body } = await ctx.term.spin(
    'Changing permission',
    api.request(
      request('setConnectionPermission', {
        params: { app_slug: opts.appSlug, pd_conn_id: opts.connId },
        body: { permission: opts.permission },
        what: `connection ${opts.appSlug}/${opts.connId}`,
      }),
    ),
  );
  const target = `${opts.appSlug}/${opts.connId}`;
  return {
    json: body,
    human: (out) => {
      if (body.success) out.done(`Set the permission of ${target} to '${opts.permission}'.`);
    },
    failure: body.success
      ? undefined
      : `The service did not change the permission of ${target} to '${opts.permission}' (success: false). Permissions it knows: ${connectionPermissions.join(', ')}.`,
  };
}
