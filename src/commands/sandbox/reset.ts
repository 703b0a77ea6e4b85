import { defineVerb, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { inConfigDir, sandboxStatePath } from '../../sandbox/embedded.js';

export const reset = defineVerb({
  name: 'reset',
  summary: "Restore the embedded sandbox's seeded state",
  examples: ['wsctl sandbox reset', 'wsctl sandbox reset && wsctl --sandbox keys list'],
  endpoints: [],
  sample: ['sandbox', 'reset'],
  run: (_opts, ctx) => run(ctx),
});

export async function run(ctx: Ctx): Promise<Result> {
  const path = sandboxStatePath(ctx.config.dir);
  if (ctx.dryRun) return wouldChange({ reset: true, state: path }, `Would reset the sandbox to its seeded state (${path}).`);
  const { FileStore } = await import('../../sandbox/store.js');
  await inConfigDir(ctx.config.dir, () => new FileStore(path).reset());
  return { json: { reset: true, state: path }, human: (out) => out.done(`Sandbox reset to its seeded state (${path}).`) };
}
