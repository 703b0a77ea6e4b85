import { defineVerb, type Ctx, type Result } from '../../verbs/declare.js';
import { aliasesOf } from './shared.js';

export const list = defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the aliases and what they expand to',
  examples: ['wsctl alias list', 'wsctl alias list --json'],
  endpoints: [],
  sample: ['alias', 'list'],
  run: (_opts, ctx) => run(ctx),
});

export async function run(ctx: Ctx): Promise<Result> {
  const aliases = aliasesOf(ctx.config.read());
  const sorted = Object.fromEntries(Object.entries(aliases).sort(([a], [b]) => a.localeCompare(b)));
  return {
    json: { aliases: sorted },
    human(out) {
      if (Object.keys(sorted).length === 0) {
        out.info("No aliases yet. Create one with `wsctl alias set ks 'keys list'`.");
        return;
      }
      out.table(
        [{ header: 'NAME', fixed: true }, { header: 'EXPANSION' }],
        Object.entries(sorted).map(([name, expansion]) => [name, expansion]),
      );
    },
  };
}
