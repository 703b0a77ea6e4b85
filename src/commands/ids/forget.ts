import { arg, defineVerb, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { WsctlError } from '../../errors.js';
import { ID_KINDS, type IdKind } from '../../ids/kinds.js';
import { changeIds } from '../../ids/store.js';
import { named, parseKind, workspace } from './shared.js';

export const forget = defineVerb({
  name: 'forget',
  summary: 'Forget remembered ids: all of them, one kind, or one id',
  args: { kind: arg('[kind]', `the kind: ${ID_KINDS.join(', ')}`, parseKind), id: arg('[id]', 'the id to forget') },
  examples: ['wsctl ids forget', 'wsctl ids forget conversation', 'wsctl ids forget conversation conv_demo'],
  endpoints: [],
  sample: ['ids', 'forget', '--json'],
  run,
});

export async function run(opts: { kind?: IdKind; id?: string }, ctx: Ctx): Promise<Result> {
  const w = workspace(ctx);
  const what = opts.id !== undefined ? `${opts.kind} '${opts.id}'` : opts.kind ? `every ${opts.kind} id` : 'every id';
  if (ctx.dryRun) return wouldChange({ forgotten: 0 }, `Would forget ${what} remembered for ${named(w)}.`);
  let forgotten: number;
  try {
    const change =
      opts.id !== undefined && opts.kind
        ? { gone: [{ kind: opts.kind, id: opts.id }] }
        : { clear: opts.kind ? [opts.kind] : ('all' as const) };
    forgotten = await changeIds(ctx.idsCache.dir, w, change);
  } catch (error) {
    throw new WsctlError(
      `Cannot change the ids in ${ctx.idsCache.dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): make the folder writable, or set XDG_CACHE_HOME.`,
    );
  }
  return {
    json: { forgotten },
    human: (out) =>
      forgotten === 0
        ? out.info(`Nothing to forget: ${what} was not remembered for ${named(w)}.`)
        : out.done(`Forgot ${forgotten} id${forgotten === 1 ? '' : 's'} (${what}) for ${named(w)}.`),
  };
}
