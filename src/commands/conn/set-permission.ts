import { arg, call, defineVerb, parseId, type Call, type Ctx, type Result } from '../../command.js';
import type { Response } from '../../schemas.js';
import { connectionPermissions } from '../../enums.js';
import { request } from '../../service.js';

export interface SetPermissionOptions {
  appSlug: string;
  connId: string;
  permission: string;
}

export const setPermission = defineVerb({
  name: 'set-permission',
  summary: "Change a connection's permission",
  args: {
    appSlug: arg('<app_slug>', 'the app, e.g. gmail', parseId),
    connId: arg('<pd_conn_id>', 'the connection id', parseId),
    permission: arg('<permission>', 'the new permission, e.g. read or write', parseId),
  },
  examples: ['wsctl conn set-permission gmail pdc_gmail write', "wsctl conn set-permission notion pdc_notion read --jq '.success'"],
  endpoints: ['setConnectionPermission'],
  sample: ['conn', 'set-permission', 'gmail', 'pdc_gmail', 'write'],
  mcp: {
    // Widening access to everything: a person agrees first.
    confirm: (opts) => (opts.permission === 'full' ? { action: 'give full access to connection', target: `${opts.appSlug}/${opts.connId}` } : undefined),
  },
  run,
});

export async function run(opts: SetPermissionOptions, _ctx: Ctx): Promise<Call> {
  return call({
    request: request('setConnectionPermission', {
      params: { app_slug: opts.appSlug, pd_conn_id: opts.connId },
      body: { permission: opts.permission },
      what: `connection ${opts.appSlug}/${opts.connId}`,
    }),
    spinner: 'Changing permission',
    answer: ({ body }) => changed(opts, body),
  });
}

function changed(opts: SetPermissionOptions, body: Response<'Success'>): Result {
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
