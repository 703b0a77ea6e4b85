import { arg, call, defineVerb, parseId, type Call, type Ctx, type Result } from '../../verbs/declare.js';
import type { Response } from '../../schemas.js';
import { request } from '../../service.js';
import { relativeTime } from '../../terminal/index.js';

export const versions = defineVerb({
  name: 'versions',
  summary: 'List the published versions of a persona',
  args: { personaId: arg('<persona_id>', 'the persona id', parseId) },
  examples: ['wsctl persona versions persona_demo', "wsctl persona versions persona_demo --jq '.published[0].id'"],
  endpoints: ['listPublishedVersions'],
  sample: ['persona', 'versions', 'persona_demo'],
  ids: { takes: { personaId: 'persona' }, remembers: (opts) => [{ kind: 'persona', id: opts.personaId }] },
  run,
});

export async function run(opts: { personaId: string }, _ctx: Ctx): Promise<Call> {
  return call({
    request: request('listPublishedVersions', { params: { persona_id: opts.personaId }, what: `persona '${opts.personaId}'` }),
    spinner: 'Loading versions',
    answer: ({ body }) => listed(opts.personaId, body),
  });
}

function listed(personaId: string, body: Response<'PublishedList'>): Result {
  return {
    json: body,
    async human(out) {
      if (body.published.length === 0) return out.info(`Persona '${personaId}' has no published versions.`);
      out.table(
        [
          { header: 'ID', fixed: true },
          { header: 'CREATED', fixed: true, tty: (v) => relativeTime(v ? String(v) : '') },
        ],
        body.published.map((v) => [v.id, v.created_at]),
      );
    },
  };
}
