// The one way destructive commands ask: [y/N] on a terminal, --yes otherwise (cli.md §5).
import type { Resolution } from '../config/resolve.js';
import type { Ctx } from '../cli/context.js';
import { CancelledError } from '../errors.js';
import { cleanLine } from '../common/sanitize.js';

/** Where the profile in effect came from, as a person reads it: "from --profile", "from the pin file /p/.wsctl-profile". */
export function profileFrom(r: Pick<Resolution, 'profileSource' | 'pinFile'>): string {
  switch (r.profileSource) {
    case 'flag':
      return 'from --profile';
    case 'env':
      return 'from WSCTL_PROFILE';
    case 'pin':
      return `from the pin file ${cleanLine(r.pinFile ?? '')}`;
    case 'current':
      return 'the current profile';
    case 'default':
      return 'the default profile';
    default:
      return 'the sandbox';
  }
}

/** The profile named with where it came from: "profile 'work' from --profile", "current profile 'home'". */
export function profileSaid(name: string, r: Pick<Resolution, 'profileSource' | 'pinFile'>): string {
  const quoted = `'${cleanLine(name)}'`;
  if (r.profileSource === 'current') return `current profile ${quoted}`;
  if (r.profileSource === 'default') return `default profile ${quoted}`;
  if (r.profileSource === undefined) return `profile ${quoted}`;
  return `profile ${quoted} ${profileFrom(r)}`;
}

export async function confirmDestructive(ctx: Ctx, action: string, yes: boolean): Promise<void> {
  if (yes || ctx.dryRun) return;
  const target = await ctx.target();
  const where = `${profileSaid(target.profile, ctx.resolution())}, ${target.baseUrl ?? 'no base URL'}`;
  const question = `${action.charAt(0).toUpperCase()}${action.slice(1)} (${where})?`;
  if (!(await ctx.term.confirm(question, `pass --yes to ${action}`))) throw new CancelledError();
}
