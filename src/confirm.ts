// The one way destructive commands ask: [y/N] on a terminal, --yes otherwise (cli.md §5).
import type { Ctx } from './context.js';
import { UsageError, WsctlError } from './errors.js';

export async function confirmDestructive(ctx: Ctx, action: string, yes: boolean): Promise<void> {
  if (yes || ctx.dryRun) return;
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new UsageError(`Refusing to ${action} without confirmation: pass --yes.`);
  }
  const target = await ctx.target();
  const where = `profile '${target.profile}', ${target.baseUrl ?? 'no base URL'}`;
  if (!(await ctx.prompt.confirm(`${action.charAt(0).toUpperCase()}${action.slice(1)} (${where})?`))) {
    throw new WsctlError('Cancelled; nothing was changed.');
  }
}
