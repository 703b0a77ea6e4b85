import { arg, defineVerb, parseId, type Call, type Ctx } from '../../verbs/declare.js';
import { remove } from '../../verbs/removal.js';

export const rm = defineVerb({
  name: 'rm',
  aliases: ['remove'],
  summary: 'Unpublish a published conversation',
  args: { pubId: arg('<pub_id>', 'the publication id', parseId) },
  examples: ['wsctl pub rm pub_demo', "wsctl pub rm pub_demo --yes --jq '.success'"],
  endpoints: ['removePublication'],
  sample: ['pub', 'rm', 'pub_demo', '--yes'],
  run,
});

export async function run(opts: { pubId: string }, ctx: Ctx): Promise<Call> {
  return remove(ctx, {
    action: `unpublish '${opts.pubId}'`,
    endpoint: 'removePublication',
    params: { pub_id: opts.pubId },
    what: `publication '${opts.pubId}'`,
    spinner: 'Unpublishing',
    done: `Unpublished '${opts.pubId}'.`,
  });
}
