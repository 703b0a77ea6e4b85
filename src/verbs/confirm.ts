// The one way destructive commands ask: [y/N] on a terminal, --yes otherwise (cli.md §5).
import type { Resolution } from '../config/resolve.js';
import type { Ctx } from './context.js';
import { CancelledError, UsageError } from '../errors.js';
import { cleanLine } from '../common/sanitize.js';
import { sendsDelete, type Declared } from './changes.js';

/**
 * A verb's one line as the command line says it (help, man pages, completion, help --json): a verb
 * whose every call deletes says how it asks there. Its MCP tool says the line alone: there a person
 * confirms in the client.
 */
export function commandSummary(verb: Declared & { summary: string }): string {
  if (verb.endpoints === 'any' || !sendsDelete(verb, {})) return verb.summary;
  return `${verb.summary}; asks to confirm on a terminal, else needs --yes`;
}

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

/** What a person is asked to agree to: the command's words, and the id it acts on (kept whole for a prompt that has it typed). */
export interface Confirmed {
  action: string;
  target: string;
}

/**
 * A deletion asks [y/N] on a terminal, naming the target, the profile and the base URL (the
 * sandbox as `the sandbox`: its port changes on every call); without one it needs --yes.
 */
export async function confirmDestructive(ctx: Ctx, confirmed: Confirmed, yes: boolean): Promise<void> {
  if (yes || ctx.dryRun) return;
  const { action, target } = confirmed;
  const t = await ctx.target();
  const where = `${profileSaid(t.profile, ctx.resolution())}, ${ctx.sandbox ? 'the sandbox' : (t.baseUrl ?? 'no base URL')}`;
  const what = `${action} '${cleanLine(target)}'`;
  const question = `${what.charAt(0).toUpperCase()}${what.slice(1)} (${where})?`;
  // In accessible mode the person types the target's id (cli.md §3): a single key is too easy to press.
  if (!(await confirmOr(ctx, question, `pass --yes to ${what}`, target, '--yes'))) throw new CancelledError();
}

/**
 * The terminal's [y/N], or with nobody to ask the usage error that says which flag answers it:
 * reason `confirmation_required`, and as `next` the same command line with that flag (cli.md §3).
 */
export async function confirmOr(ctx: Ctx, question: string, instead: string, typed: string | undefined, answer: string): Promise<boolean> {
  try {
    return await ctx.term.confirm(question, instead, typed);
  } catch (error) {
    if (ctx.term.canPrompt || !(error instanceof UsageError)) throw error;
    const why = `Only the person's yes allows this: pass ${answer} once they have said yes to it.`;
    throw new UsageError(error.message, { reason: 'confirmation_required', next: [{ retype: true, add: [answer], why }] });
  }
}
