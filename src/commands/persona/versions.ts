import type { Command } from 'commander';
import { examples, requireId, type App, type Ctx, type Result } from '../../command.js';
import { request } from '../../service.js';
import { relativeTime } from '../../terminal/index.js';

export function register(persona: Command, app: App): void {
  persona
    .command('versions')
    .description('List the published versions of a persona')
    .argument('<persona_id>', 'the persona id')
    .addHelpText('after', examples('wsctl persona versions persona_demo', "wsctl persona versions persona_demo --jq '.published[0].id'"))
    .action((personaId: string, _flags: unknown, command: Command) => app.run(command, { personaId }, run));
}

export async function run(opts: { personaId: string }, ctx: Ctx): Promise<Result> {
  requireId(opts.personaId, 'persona_id');
  const api = await ctx.api();
  const { body } = await ctx.term.spin(
    'Loading versions',
    api.request(request('listPublishedVersions', { params: { persona_id: opts.personaId }, what: `persona '${opts.personaId}'` })),
  );
  return {
    json: body,
    async human(out) {
      if (body.published.length === 0) return out.info(`Persona '${opts.personaId}' has no published versions.`);
      out.table(
        [{ header: 'ID', fixed: true }, { header: 'CREATED', fixed: true, tty: (v) => relativeTime(v ? String(v) : '') }],
        body.published.map((v) => [v.id, v.created_at]),
      );
    },
  };
}
