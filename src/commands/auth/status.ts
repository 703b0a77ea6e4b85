import { call, defineVerb, flag, type Call, type Ctx, type Result } from '../../verbs/declare.js';
import type { Target } from '../../verbs/context.js';
import { AuthError, ExitCode, NetworkError } from '../../errors.js';
import { request } from '../../service.js';
import { documentOf, rejected, showDocument } from './shared.js';
import { statusAll } from './status-all.js';

export const status = defineVerb({
  name: 'status',
  summary: 'Show the active profile (and where it came from), its base URL and key, and whether the service accepts the key',
  flags: { all: flag('--all', 'check every profile at once, each with its own timeout') },
  examples: ['wsctl auth status', "wsctl auth status --profile work --jq '.valid'", 'wsctl auth status --all --timeout 5'],
  endpoints: ['listKeys'],
  mcp: { none: 'credentials: an agent neither logs in nor reads keys' },
  sample: ['auth', 'status'],
  run: (opts, ctx) => (opts.all ? statusAll(ctx) : run(ctx)),
});

export async function run(ctx: Ctx): Promise<Result | Call> {
  const t = await ctx.target();
  const problem = ctx.missing(t);
  // The status shows the key, masked: read here, as a request would read it; --dry-run reads none.
  const key = ctx.dryRun ? undefined : await t.credential.read();
  if (problem) return statusOf(ctx, t, key, false, problem);
  return call({
    request: request('listKeys'),
    spinner: 'Checking the key',
    answer: () => statusOf(ctx, t, key, true, undefined),
    otherwise(error) {
      // Unreachable: everything else is still shown, with why (valid null, exit 3).
      if (error instanceof NetworkError) return statusOf(ctx, t, key, null, `Could not check the key: ${error.message}`);
      if (!(error instanceof AuthError)) throw error;
      return statusOf(ctx, t, key, false, rejected(t, error));
    },
  });
}

function statusOf(ctx: Ctx, t: Target, key: string | undefined, valid: boolean | null, problem: string | undefined): Result {
  const status = documentOf(ctx, t, key, valid, ctx.resolution());
  return {
    json: status,
    human: (out) => showDocument(out, ctx, status),
    exitCode: valid ? undefined : valid === null ? ExitCode.network : ExitCode.auth,
    exitMessage: problem,
  };
}
