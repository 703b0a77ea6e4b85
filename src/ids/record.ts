// What a command remembers (cli.md §10), decided by one pure function from the verb's
// declaration, its options and its outcome, and written by one call after the verb settles.
// Remembering never fails a command: a cache folder that cannot be written is a --debug line.
import type { IdKind } from './kinds.js';
import { changeIds, type IdRef, type Workspace } from './store.js';

/** A verb's ids, declared next to it: the kinds its options take, and what it remembers or removes. */
export interface IdsSpec<O> {
  /** Option (argument or flag) → the kind of id it takes: completion and the list offer those; a 404 forgets the last one given. */
  takes: { [K in keyof O]?: IdKind };
  /** Ids the verb's output showed, once it succeeded; `shown` is its JSON document (or what it streamed). */
  remembers?(opts: O, shown: unknown): IdRef[];
  /** The verb removes the last id it takes (conn rm): forgotten once it succeeded. */
  removes?: boolean;
}

export interface IdChange {
  seen: IdRef[];
  gone: IdRef[];
}

/** The ids in the options, in the order declared; a connection carries the app given with it. */
function given<O>(spec: IdsSpec<O>, opts: O): IdRef[] {
  const values = opts as Record<string, unknown>;
  const refs: IdRef[] = [];
  const app = Object.entries(spec.takes).find(([, kind]) => kind === 'app')?.[0];
  for (const [key, kind] of Object.entries(spec.takes) as [string, IdKind][]) {
    const id = values[key];
    if (typeof id !== 'string' || id.trim() === '') continue;
    refs.push(kind === 'connection' && app && typeof values[app] === 'string' ? { kind, id, app: values[app] as string } : { kind, id });
  }
  return refs;
}

/**
 * What to remember and forget after a verb ran: on success what its output showed (the ids it was
 * given are in there when the declaration says so), minus what it removed; on a 404, the last id
 * it was given is forgotten.
 */
export function idChanges<O>(spec: IdsSpec<O> | undefined, opts: O, outcome: { shown: unknown } | { status?: number }): IdChange {
  if (!spec) return { seen: [], gone: [] };
  const ids = given(spec, opts);
  if (!('shown' in outcome)) return { seen: [], gone: outcome.status === 404 && ids.length > 0 ? [ids[ids.length - 1] as IdRef] : [] };
  const gone = spec.removes && ids.length > 0 ? [ids[ids.length - 1] as IdRef] : [];
  const seen = (spec.remembers?.(opts, outcome.shown) ?? []).filter(
    (r) => typeof r.id === 'string' && r.id.trim() !== '' && r.id.length <= 512,
  );
  return { seen: seen.map((r) => ({ ...r, description: oneLine(r.description) })), gone };
}

/** A description kept short and on one line (the list and zsh, fish show it). */
function oneLine(text: string | undefined): string | undefined {
  if (typeof text !== 'string') return undefined;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}

/** Writes a change for the workspace; never throws (a read-only, missing or broken cache says so only under --debug). */
export async function recordIds(
  dir: string,
  workspace: Workspace | undefined,
  change: IdChange,
  trace: (line: string) => void,
): Promise<void> {
  if (!workspace || (change.seen.length === 0 && change.gone.length === 0)) return;
  try {
    await changeIds(dir, workspace, change);
  } catch (error) {
    trace(`ids: not remembered (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
