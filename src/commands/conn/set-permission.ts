import { arg, call, defineVerb, parseId, type Call, type Ctx, type Result } from '../../verbs/declare.js';
import type { Response } from '../../schemas.js';
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
    appSlug: arg('<app_slug>', 'the app, e.g. gmail (`wsctl caps` lists connected apps)', parseId),
    connId: arg('<pd_conn_id>', 'the connection id, as given to `conn set-permission` before (`wsctl ids connection` lists them)', parseId),
    permission: arg('<permission>', 'the new permission, e.g. read or write', parseId),
  },
  examples: ['wsctl conn set-permission gmail pdc_gmail write', "wsctl conn set-permission notion pdc_notion read --jq '.success'"],
  endpoints: ['setConnectionPermission'],
  sample: ['conn', 'set-permission', 'gmail', 'pdc_gmail', 'write'],
  ids: {
    takes: { appSlug: 'app', connId: 'connection' },
    remembers: (opts) => [{ kind: 'connection', id: opts.connId, app: opts.appSlug, description: `${opts.appSlug}, ${opts.permission}` }],
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
    // The interface does not list the permissions a connection takes (service-interface.md §2.9): name none.
    failure: body.success
      ? undefined
      : `The service did not change the permission of ${target} to '${opts.permission}' (success: false). Check the value: \`wsctl caps\` shows the permission each connected app has now.`,
  };
}
