// The workspace `ids` works on: the one in effect (cli.md §10), with a base URL or the sandbox.
import type { Ctx } from '../../verbs/declare.js';
import { AuthError, UsageError } from '../../errors.js';
import { ID_KINDS, isIdKind, type IdKind } from '../../ids/kinds.js';
import type { Workspace } from '../../ids/store.js';

export function parseKind(raw: string): IdKind {
  if (!isIdKind(raw)) throw new UsageError(`Invalid kind '${raw}': use ${ID_KINDS.join(', ')}.`);
  return raw;
}

/** The workspace in effect; without a base URL there is none (exit 4, as for any command that needs one). */
export function workspace(ctx: Ctx): Workspace {
  const r = ctx.resolution();
  if (!r.sandbox && !r.baseUrl)
    throw new AuthError(ctx.missing({ profile: r.profile }, false) ?? `No base URL for profile '${r.profile}'.`);
  return { configDir: ctx.config.dir, sandbox: r.sandbox, profile: r.profile, baseUrl: r.baseUrl };
}

/** "profile 'work' (https://…)" or "the sandbox", for what is said on stderr. */
export function named(w: Workspace): string {
  return w.sandbox ? 'the sandbox' : `profile '${w.profile}' (${w.baseUrl})`;
}
