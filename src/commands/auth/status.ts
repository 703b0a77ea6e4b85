import { policyOf, type AgentPolicy } from '../../agent-policy.js';
import { call, defineVerb, type Call, type Ctx, type Result } from '../../command.js';
import { profileOf } from '../../config/index.js';
import type { Target } from '../../context.js';
import { profileFrom } from '../../confirm.js';
import { AuthError, ExitCode } from '../../errors.js';
import { request } from '../../service.js';
import { mask } from '../../terminal/index.js';

export const status = defineVerb({
  name: 'status',
  summary: 'Show the active profile, its base URL and key, and whether the service accepts the key',
  examples: ['wsctl auth status', 'wsctl auth status --profile work --json', "wsctl auth status --jq '.valid'"],
  endpoints: ['listKeys'],
  sample: ['auth', 'status'],
  run: (_opts, ctx) => run(ctx),
});

export async function run(ctx: Ctx): Promise<Result | Call> {
  const t = await ctx.target();
  const problem = ctx.missing(t);
  if (problem) return statusOf(ctx, t, false, problem);
  return call({
    request: request('listKeys'),
    spinner: 'Checking the key',
    answer: () => statusOf(ctx, t, true, undefined),
    otherwise(error) {
      if (!(error instanceof AuthError)) throw error;
      // A login cannot fix a key that comes from the environment.
      const rejected =
        t.keySource === 'env'
          ? `The service rejected the key in WSCTL_API_KEY (HTTP ${error.status}). Set WSCTL_API_KEY to a valid key, or unset it to use profile '${t.profile}'.`
          : `The service rejected the key of profile '${t.profile}' (HTTP ${error.status}). Run \`wsctl auth login --profile ${t.profile}\`.`;
      return statusOf(ctx, t, false, rejected);
    },
  });
}

function statusOf(ctx: Ctx, t: Target, valid: boolean, problem: string | undefined): Result {
  const envKey = t.keySource === 'env';
  const r = ctx.resolution();
  const status = {
    profile: t.profile,
    profile_source: r.profileSource ?? null,
    ...(r.pinFile ? { pin_file: r.pinFile } : {}),
    base_url: t.baseUrl ?? null,
    key_source: t.keySource ?? null,
    key_storage: t.keyStorage ?? null,
    key: t.apiKey ? mask(t.apiKey) : null,
    valid,
    agents: agentPolicy(ctx, t.profile),
  };
  // Piped: the raw key_storage; on a TTY, where that is.
  const where = t.keyStorage === 'keyring' ? 'OS credential store' : t.keyStorage === 'file' ? `file ${ctx.config.path}` : envKey ? 'environment (WSCTL_API_KEY)' : undefined;
  return {
    json: status,
    human(out) {
      out.detail([
        ['profile', status.profile],
        ['profile_source', status.profile_source, profileFrom(r)],
        ...(r.pinFile ? [['pin_file', r.pinFile] as [string, string]] : []),
        ['base_url', status.base_url],
        ['key_source', status.key_source],
        ['key_storage', status.key_storage, where],
        ['key', status.key],
        ['valid', valid, out.flag(valid)],
        ['agents', status.agents],
      ]);
    },
    exitCode: valid ? undefined : ExitCode.auth,
    exitMessage: problem,
  };
}

/** What AI agents may do with the profile (cli.md §11); null when config.json cannot be read (a key and URL from the environment need none). */
function agentPolicy(ctx: Ctx, profile: string): AgentPolicy | null {
  try {
    return policyOf(profileOf(ctx.config.read(), profile));
  } catch {
    return null;
  }
}
