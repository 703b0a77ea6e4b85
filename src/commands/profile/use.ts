import { arg, defineVerb, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { requireProfile } from './shared.js';

export const use = defineVerb({
  name: 'use',
  summary: 'Make a profile the current one',
  args: { name: arg('<name>', 'profile name') },
  examples: ['wsctl profile use work', 'wsctl profile use default'],
  endpoints: [],
  sample: ['profile', 'use', 'default'],
  run,
});

export async function run(opts: { name: string }, ctx: Ctx): Promise<Result> {
  requireProfile(ctx.config.read(), opts.name);
  if (ctx.dryRun) return wouldChange({ current_profile: opts.name }, `Would make '${opts.name}' the current profile.`);
  await ctx.config.update((data) => {
    // Checked again on the fresh read: a concurrent `profile rm` may have removed it.
    requireProfile(data, opts.name);
    data.current_profile = opts.name;
  });
  return { json: { current_profile: opts.name }, human: (out) => out.done(`Now using profile '${opts.name}'.`) };
}
