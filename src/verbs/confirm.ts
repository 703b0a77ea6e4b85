// The one way destructive commands ask: [y/N] on a terminal, --yes otherwise (cli.md §5).
import type { Ctx } from '../cli/context.js';
import { CancelledError } from '../errors.js';

export async function confirmDestructive(ctx: Ctx, action: string, yes: boolean): Promise<void> {
  if (yes || ctx.dryRun) return;
  const target = await ctx.target();
  const where = `profile '${target.profile}', ${target.baseUrl ?? 'no base URL'}`;
  const question = `${action.charAt(0).toUpperCase()}${action.slice(1)} (${where})?`;
  if (!(await ctx.term.confirm(question, `pass --yes to ${action}`))) throw new CancelledError();
}
