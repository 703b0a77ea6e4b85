// The ids offered to completion/complete (cli.md §8 and §10): those wsctl remembers for the
// server's workspace (every call remembers what it took and showed, in the pipeline), or, for a
// server run without a context (tests), those this process has seen.
import type { Ctx } from '../verbs/declare.js';
import { OFFERABLE_ID } from '../ids/kinds.js';
import { offered } from '../verbs/remembered-ids.js';

export interface SeenIds {
  /** After a call succeeded: the ids in its arguments (by the verb's keys) and its document. */
  record(tool: string, raw: Record<string, unknown>, document: unknown): void;
  /** The ids of a kind, most recently seen first. */
  ids(kind: 'conversation'): string[];
}

/** The ids seen by this process, at most 200 of each kind. */
export function seenIds(): SeenIds {
  const conversations = new Set<string>();
  const add = (id: unknown) => {
    if (typeof id !== 'string' || id === '') return;
    conversations.delete(id);
    conversations.add(id);
    if (conversations.size > 200) conversations.delete(conversations.values().next().value as string);
  };
  return {
    record(tool, raw, document) {
      if (tool === 'convo_show') add(raw.id);
      if (tool === 'caps')
        for (const n of (document as { text_agent?: { numbers?: { conversation_id?: unknown }[] } })?.text_agent?.numbers ?? [])
          add(n?.conversation_id);
    },
    ids: () => [...conversations].reverse(),
  };
}

/** The ids wsctl remembers for the context's workspace (none with WSCTL_NO_HISTORY on); recording is the pipeline's. */
export function rememberedIds(ctx: Ctx): SeenIds {
  return {
    record() {},
    ids: (kind) =>
      offered(ctx, kind)
        .map((e) => e.id)
        .filter((id) => OFFERABLE_ID.test(id)),
  };
}
