import { defineVerb, type Ctx } from '../../verbs/declare.js';
import { noKey } from '../../config/resolve.js';
import { AuthError, UsageError } from '../../errors.js';
import { refuseForAgents } from './shared.js';

export const token = defineVerb({
  name: 'token',
  summary: 'Print the active API key and a newline, for scripts: WSCTL_API_KEY=$(wsctl auth token)',
  examples: ['wsctl auth token', 'export WSCTL_API_KEY="$(wsctl auth token --profile work)"'],
  endpoints: [],
  sample: ['auth', 'token'],
  guards: 'credential',
  run: (_opts, ctx) => run(ctx),
});

/** The key alone on stdout: no JSON document, no decoration, whatever --json says. */
export async function run(ctx: Ctx): Promise<void> {
  // Printed, a profile's key would be in the agent's context. A key from the environment (or the
  // sandbox's) the agent holds already, and config.json is then not read (cli.md §2).
  const r = ctx.resolution();
  if (r.key.source !== 'env' && r.key.source !== 'sandbox')
    refuseForAgents(ctx, [r.profile], "see a profile's key (auth token would print it)", 'Nothing was printed');
  if (ctx.dryRun) throw new UsageError('auth token reads the key to print it, and --dry-run reads none: run it without --dry-run.');
  const t = await ctx.target();
  const key = await t.credential.read();
  if (!key) throw new AuthError(noKey(t.profile, t));
  ctx.term.line(key);
}
