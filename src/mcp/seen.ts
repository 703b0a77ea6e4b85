// The ids offered to completion/complete (cli.md §8 and §10): those wsctl remembers for the
// server's workspace (every call remembers what it took and showed, in the pipeline).
import type { Ctx } from '../verbs/declare.js';
import { OFFERABLE_ID } from '../ids/kinds.js';
import { offered } from '../verbs/remembered-ids.js';

export interface SeenIds {
  /** The ids of a kind, most recently seen first. */
  ids(kind: 'conversation'): string[];
}

/** The ids wsctl remembers for the context's workspace (none with WSCTL_NO_HISTORY on); recording is the pipeline's. */
export function rememberedIds(ctx: Ctx): SeenIds {
  return {
    ids: (kind) =>
      offered(ctx, kind)
        .map((e) => e.id)
        .filter((id) => OFFERABLE_ID.test(id)),
  };
}
