import { call, defineVerb, type Call, type Ctx, type Result } from '../../verbs/declare.js';
import type { Response } from '../../schemas.js';
import { request } from '../../service.js';
import { relativeTime, type Cell } from '../../terminal/index.js';

export const list = defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List API keys (metadata only, never a secret)',
  examples: ['wsctl keys list', "wsctl keys list --jq '.keys[] | select(.last_used_at == null) | .id'"],
  endpoints: ['listKeys'],
  sample: ['keys', 'list'],
  run: (_opts, ctx) => run(ctx),
});

const when = (value: Cell) => (value ? relativeTime(String(value)) : 'never');

export async function run(_ctx: Ctx): Promise<Call> {
  return call({ request: request('listKeys'), spinner: 'Loading keys', answer: ({ body }) => listed(body) });
}

function listed(body: Response<'ApiKeyList'>): Result {
  return {
    json: body,
    human: (out) =>
      out.table(
        [
          { header: 'ID', fixed: true },
          { header: 'NAME' },
          { header: 'PREFIX', fixed: true },
          { header: 'CREATED', fixed: true, tty: when },
          { header: 'LAST USED', fixed: true, tty: when },
        ],
        body.keys.map((k) => [k.id, k.name, k.key_prefix, k.created_at, k.last_used_at ?? null]),
      ),
  };
}
