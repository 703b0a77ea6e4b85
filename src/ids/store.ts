// The ids wsctl remembers (cli.md §10): one file per workspace (config folder, profile and base
// URL, or the config folder's sandbox) in wsctl's cache folder, mode 0600, changed under the
// config's lock on a fresh read and written by atomic rename, so concurrent commands lose
// nothing. Light on purpose: completion reads it on every TAB (no zod, no HTTP client).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withLock, writeFileAtomic } from '../config/atomic.js';
import type { IdKind } from './kinds.js';
import { ID_KINDS } from './kinds.js';
import { homedir } from '../common/builtins.js';

/** Ids of each kind kept at most; the least recently seen go first. */
export const MAX_PER_KIND = 200;
const FORMAT = 1;

/** Whose ids: the sandbox of a config folder, or a profile with the base URL it talks to. */
export interface Workspace {
  configDir: string;
  sandbox: boolean;
  profile: string;
  baseUrl?: string;
}

export interface RememberedId {
  id: string;
  description: string;
  /** ISO 8601. */
  last_seen: string;
  /** A connection's app. */
  app?: string;
}

/** An id seen by a command, or one it removed. */
export interface IdRef {
  kind: IdKind;
  id: string;
  description?: string;
  app?: string;
}

interface IdsFile {
  format: number;
  workspace: { config_dir: string; sandbox: boolean; profile: string; base_url?: string };
  ids: Partial<Record<IdKind, RememberedId[]>>;
}

/** $XDG_CACHE_HOME/wsctl, else ~/.cache/wsctl (the folder the launcher keeps compiled code in too). */
export function cacheDir(env: Record<string, string | undefined>): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'wsctl');
}

function identity(w: Workspace): IdsFile['workspace'] {
  if (w.sandbox) return { config_dir: w.configDir, sandbox: true, profile: 'sandbox' };
  // A base URL's user and password (https://user:pass@host) are no part of it here: the file holds no secret.
  return {
    config_dir: w.configDir,
    sandbox: false,
    profile: w.profile,
    base_url: (w.baseUrl ?? '').replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1').replace(/\/+$/, ''),
  };
}

/** FNV-1a, 64 bits as two 32-bit halves: a short file name (node:crypto costs a TAB milliseconds). The file names its workspace too. */
function hash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (a & 0xff), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

export function idsFile(cache: string, w: Workspace): string {
  return join(cache, `ids-${hash(JSON.stringify(identity(w)))}.json`);
}

const sameWorkspace = (a: IdsFile['workspace'], b: IdsFile['workspace']) => JSON.stringify(a) === JSON.stringify(b);

/** The file's ids; a missing, unreadable, corrupt or foreign file holds none. */
function load(path: string, w: Workspace): IdsFile {
  const empty: IdsFile = { format: FORMAT, workspace: identity(w), ids: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return empty;
  }
  const file = parsed as Partial<IdsFile>;
  if (!file || typeof file !== 'object' || file.format !== FORMAT || !file.workspace || !sameWorkspace(file.workspace, empty.workspace))
    return empty;
  const ids: IdsFile['ids'] = {};
  for (const kind of ID_KINDS) {
    const list = (file.ids as Record<string, unknown> | undefined)?.[kind];
    if (!Array.isArray(list)) continue;
    ids[kind] = list.filter(
      (e): e is RememberedId =>
        !!e &&
        typeof e.id === 'string' &&
        typeof e.last_seen === 'string' &&
        typeof (e.description ?? '') === 'string' &&
        (e.app === undefined || typeof e.app === 'string'),
    );
  }
  return { ...empty, ids };
}

/** What is remembered for a workspace, of one kind or all, most recently seen first. */
export function rememberedIds(cache: string, w: Workspace, kind?: IdKind): { kind: IdKind; entry: RememberedId }[] {
  const file = load(idsFile(cache, w), w);
  return ID_KINDS.filter((k) => !kind || k === kind).flatMap((k) => (file.ids[k] ?? []).map((entry) => ({ kind: k, entry })));
}

const sameId = (e: RememberedId, ref: IdRef) =>
  e.id === ref.id && (ref.kind !== 'connection' || ref.app === undefined || e.app === ref.app);

/**
 * Records what a command saw and forgets what it removed, merged into a fresh read under the lock.
 * `forget` entries without an id forget a whole kind (or, with no kind, everything).
 */
export async function changeIds(
  cache: string,
  w: Workspace,
  change: { seen?: IdRef[]; gone?: IdRef[]; clear?: IdKind[] | 'all' },
  now = new Date(),
): Promise<number> {
  const path = idsFile(cache, w);
  return withLock(path, () => {
    const file = load(path, w);
    let changed = 0;
    const kinds = change.clear === 'all' ? ID_KINDS : (change.clear ?? []);
    for (const kind of kinds) {
      changed += file.ids[kind]?.length ?? 0;
      delete file.ids[kind];
    }
    for (const ref of change.gone ?? []) {
      const list = file.ids[ref.kind] ?? [];
      const kept = list.filter((e) => !sameId(e, ref));
      changed += list.length - kept.length;
      file.ids[ref.kind] = kept;
    }
    const at = now.toISOString();
    // The first seen ends up first: they are put in front in reverse order.
    for (const ref of [...(change.seen ?? [])].reverse()) {
      const list = file.ids[ref.kind] ?? [];
      const before = list.find((e) => sameId(e, ref) && e.app === ref.app);
      const entry: RememberedId = {
        id: ref.id,
        description: ref.description || before?.description || '',
        last_seen: at,
        ...(ref.app !== undefined ? { app: ref.app } : {}),
      };
      file.ids[ref.kind] = [entry, ...list.filter((e) => e !== before)].slice(0, MAX_PER_KIND);
      changed++;
    }
    if (changed > 0) writeFileAtomic(path, `${JSON.stringify(file)}\n`, { durable: false });
    return changed;
  });
}
