import { DECLARED } from '../../common/declared.js';
import { arg, defineVerb, type Ctx, type Result } from '../../verbs/declare.js';
import { ID_KINDS, type IdKind } from '../../ids/kinds.js';
import { rememberedIds } from '../../ids/store.js';
import { relativeTime, type Cell } from '../../terminal/index.js';
import { named, parseKind, workspace } from './shared.js';

export const list = defineVerb({
  name: 'ids',
  summary: 'List the ids wsctl remembers for the profile in effect (for completion and choosing)',
  args: { kind: arg('[kind]', `only ids of this kind: ${ID_KINDS.join(', ')}`, parseKind) },
  notes: `
wsctl remembers the ids that these commands take and show, per profile
and base URL: ${DECLARED.remembering.join(', ')}.
They are kept in $XDG_CACHE_HOME/wsctl (else ~/.cache/wsctl). TAB completes
them, and a command run without its id offers them in a list.
WSCTL_NO_HISTORY=1 turns this off.
`,
  examples: ['wsctl ids', 'wsctl ids conversation', 'wsctl ids --jq \'.ids[] | select(.kind == "app") | .id\''],
  endpoints: [],
  sample: ['ids', '--json'],
  run,
});

export async function run(opts: { kind?: IdKind }, ctx: Ctx): Promise<Result> {
  const w = workspace(ctx);
  const off = ctx.idsCache.off;
  const ids = off
    ? []
    : rememberedIds(ctx.idsCache.dir, w, opts.kind).map(({ kind, entry }) => ({
        kind,
        id: entry.id,
        description: entry.description,
        last_seen: entry.last_seen,
      }));
  return {
    json: { ids },
    human(out) {
      if (ids.length === 0) {
        out.info(
          off
            ? 'Nothing is remembered: WSCTL_NO_HISTORY is on.'
            : `No ${opts.kind ? `${opts.kind} ids` : 'ids'} remembered for ${named(w)} yet. \`wsctl caps\` shows some.`,
        );
        return;
      }
      out.table(
        [
          { header: 'KIND', fixed: true },
          { header: 'ID', fixed: true },
          { header: 'DESCRIPTION' },
          { header: 'LAST SEEN', fixed: true, tty: (v: Cell) => relativeTime(String(v)) },
        ],
        ids.map((i) => [i.kind, i.id, i.description, i.last_seen]),
      );
    },
  };
}
