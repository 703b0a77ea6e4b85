import { arg, defineVerb, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { requireAlias } from './shared.js';

export const rm = defineVerb({
  name: 'rm',
  aliases: ['remove'],
  summary: 'Remove an alias',
  args: { name: arg('<name>', 'the alias') },
  examples: ['wsctl alias rm ks', 'wsctl alias rm ks --json'],
  endpoints: [],
  sample: ['alias', 'rm', 'ks'],
  run,
});

export async function run(opts: { name: string }, ctx: Ctx): Promise<Result> {
  const expansion = requireAlias(ctx.config.read(), opts.name);
  if (ctx.dryRun) return wouldChange({ removed: opts.name }, `Would remove alias '${opts.name}' (${expansion}).`);
  await ctx.config.update((data) => {
    requireAlias(data, opts.name);
    const { [opts.name]: _gone, ...rest } = data.aliases ?? {};
    data.aliases = rest;
  });
  return { json: { removed: opts.name }, human: (out) => out.done(`Removed alias '${opts.name}'.`) };
}
