// The two places a verb meets the ids wsctl remembers: before it runs, a missing id is chosen
// from a list (on a terminal) or named in a usage error; after it settles, what it showed is
// remembered and what it removed, or was told does not exist (404), is forgotten.
import type { Ctx, Result } from './declare.js';
import { UsageError, type ErrorInfo } from '../errors.js';
import { WHERE_FROM, type IdKind } from '../ids/kinds.js';
import { idChanges, recordIds, type IdsSpec } from '../ids/record.js';
import { rememberedIds, type Workspace } from '../ids/store.js';

/** The workspace whose ids a command sees; none with WSCTL_NO_HISTORY on or without a base URL. */
export function workspaceOf(ctx: Pick<Ctx, 'idsCache' | 'config' | 'resolution'>): Workspace | undefined {
  if (ctx.idsCache.off) return undefined;
  const r = ctx.resolution();
  if (!r.sandbox && !r.baseUrl) return undefined;
  return { configDir: ctx.config.dir, sandbox: r.sandbox, profile: r.profile, baseUrl: r.baseUrl };
}

/** What the workspace remembers of a kind (a connection: of the app given), most recently seen first; nothing when it cannot be read. */
export function offered(
  ctx: Pick<Ctx, 'idsCache' | 'config' | 'resolution'>,
  kind: IdKind,
  app?: string,
): { id: string; description: string }[] {
  try {
    const workspace = workspaceOf(ctx);
    if (!workspace) return [];
    return rememberedIds(ctx.idsCache.dir, workspace, kind)
      .map((r) => r.entry)
      .filter((e) => kind !== 'connection' || app === undefined || e.app === app);
  } catch {
    return [];
  }
}

/** The usage error of a missing id: where such ids come from. */
export function missingId(name: string, kind: IdKind): string {
  return `Missing required argument '${name}'. ${WHERE_FROM[kind].charAt(0).toUpperCase()}${WHERE_FROM[kind].slice(1)}.`;
}

/** A missing id's reason, and the command that shows such ids where there is one (`wsctl caps`: cli.md §3). */
export function missingIdInfo(kind: IdKind): ErrorInfo {
  const shows: Partial<Record<IdKind, string[]>> = {
    conversation: ['caps'],
    app: ['caps'],
    account: ['caps'],
    persona: ['convo', 'show', '<conversation_id>'],
  };
  const words = shows[kind];
  return { reason: 'missing_argument', next: words && [{ words, why: `It shows ${kind} ids.` }] };
}

/** A missing id argument: chosen from the remembered ones on a terminal, else a usage error saying where such ids come from. */
export async function chooseMissing<O>(
  ctx: Ctx,
  spec: IdsSpec<O> | undefined,
  opts: O,
  chosen: { key: string; syntax: string }[],
): Promise<O> {
  if (!spec || chosen.length === 0) return opts;
  const values = { ...(opts as Record<string, unknown>) };
  const app = Object.entries(spec.takes).find(([, kind]) => kind === 'app')?.[0];
  for (const { key, syntax } of chosen) {
    if (values[key] !== undefined) continue;
    const kind = spec.takes[key as keyof O] as IdKind;
    const name = syntax.replace(/[<>[\]]/g, '');
    const appGiven = kind === 'connection' && app ? (values[app] as string | undefined) : undefined;
    const ids = offered(ctx, kind, appGiven);
    if (ids.length === 0 || !ctx.term.canChoose) {
      throw new UsageError(missingId(name, kind), missingIdInfo(kind));
    }
    const question = appGiven ? `Choose a ${kind} of ${appGiven}` : `Choose ${kind === 'app' || kind === 'account' ? 'an' : 'a'} ${kind}`;
    values[key] = await ctx.term.choose(question, ids, `give ${name} as an argument`);
  }
  return values as O;
}

/** Runs a verb's work and remembers what it showed, or forgets an id the service does not know. */
export async function remembering<O>(
  ctx: Ctx,
  spec: IdsSpec<O> | undefined,
  opts: O,
  work: () => Promise<Result | void>,
): Promise<Result | void> {
  if (!spec || ctx.dryRun) return work();
  const trace = (line: string) => ctx.debug && ctx.term.trace(line);
  let result: Result | void;
  try {
    result = await work();
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 404) await recordIds(ctx.idsCache.dir, safeWorkspace(ctx), idChanges(spec, opts, { status }), trace);
    throw error;
  }
  if (result && (result.failure || result.exitCode)) return result;
  // A verb that printed as it went and returned nothing (convo show --follow) still took its ids.
  await recordIds(
    ctx.idsCache.dir,
    safeWorkspace(ctx),
    idChanges(spec, opts, { shown: result ? (result.shown ?? result.json) : undefined }),
    trace,
  );
  return result;
}

function safeWorkspace(ctx: Ctx): Workspace | undefined {
  try {
    return workspaceOf(ctx);
  } catch {
    return undefined;
  }
}
