import { arg, call, defineVerb, parseId, type Call, type Ctx, type Result } from '../../verbs/declare.js';
import type { Response } from '../../schemas.js';
import { request } from '../../service.js';

export const rm = defineVerb({
  name: 'rm',
  aliases: ['remove'],
  summary: 'Remove a connection to a third-party app',
  args: {
    appSlug: arg('<app_slug>', 'the app, e.g. gmail (`wsctl caps` lists connected apps)', parseId),
    connId: arg('<pd_conn_id>', 'the connection id, as given to `conn set-permission` before (`wsctl ids connection` lists them)', parseId),
  },
  examples: [
    'wsctl conn rm gmail pdc_gmail',
    'wsctl conn rm notion pdc_notion --yes',
    "wsctl conn rm gmail pdc_gmail --yes --jq '.success'",
  ],
  endpoints: ['removeConnection'],
  sample: ['conn', 'rm', 'gmail', 'pdc_gmail', '--yes'],
  ids: { takes: { appSlug: 'app', connId: 'connection' }, removes: true },
  run,
});

export async function run(opts: { appSlug: string; connId: string }, _ctx: Ctx): Promise<Call> {
  const target = `${opts.appSlug}/${opts.connId}`;
  return call({
    request: request('removeConnection', { params: { app_slug: opts.appSlug, pd_conn_id: opts.connId }, what: `connection ${target}` }),
    spinner: 'Removing connection',
    answer: ({ body }) => removed(target, body),
  });
}

function removed(target: string, body: Response<'Success'>): Result {
  return {
    json: body,
    human: (out) => {
      if (body.success) out.done(`Removed connection ${target}.`);
    },
    failure: body.success ? undefined : `The service did not remove connection ${target} (success: false).`,
  };
}
