// The ids this server has seen in its calls' arguments and results, by kind, for completion/complete
// (cli.md §10 names the kinds). Behind one small interface, so that the persistent cache of ids can
// take its place.

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
      if (tool === 'caps') for (const n of (document as { text_agent?: { numbers?: { conversation_id?: unknown }[] } })?.text_agent?.numbers ?? []) add(n?.conversation_id);
    },
    ids: () => [...conversations].reverse(),
  };
}
