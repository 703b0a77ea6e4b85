import { policyOf, type AgentPolicy } from '../../agent-policy.js';
import { call, defineVerb, flag, type Call, type Ctx, type Result } from '../../command.js';
import { profileOf } from '../../config/index.js';
import type { Resolution } from '../../config/resolve.js';
import type { Target } from '../../context.js';
import { profileFrom } from '../../confirm.js';
import { AuthError, ExitCode } from '../../errors.js';
import { request } from '../../service.js';
import { mask, type Terminal } from '../../terminal/index.js';
import { statusAll } from './status-all.js';

export const status = defineVerb({
  name: 'status',
  summary: 'Show the active profile (and where it came from), its base URL and key, and whether the service accepts the key',
  flags: { all: flag('--all', 'check every profile at once, each with its own timeout') },
  examples: ['wsctl auth status', 'wsctl auth status --profile work --json', "wsctl auth status --jq '.valid'", 'wsctl auth status --all --timeout 5'],
  endpoints: ['listKeys'],
  sample: ['auth', 'status'],
  run: (opts, ctx) => (opts.all ? statusAll(ctx) : run(ctx)),
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
      return statusOf(ctx, t, false, rejected(t, error));
    },
  });
}

/** Why a rejected key is rejected, and what fixes it: a login cannot fix a key from the environment. */
export function rejected(t: Target, error: AuthError): string {
  return t.keySource === 'env'
    ? `The service rejected the key in WSCTL_API_KEY (HTTP ${error.status}). Set WSCTL_API_KEY to a valid key, or unset it to use profile '${t.profile}'.`
    : `The service rejected the key of profile '${t.profile}' (HTTP ${error.status}). Run \`wsctl auth login --profile ${t.profile}\`.`;
}

export type StatusDocument = ReturnType<typeof documentOf>;

/** The document of auth status for a target; the profile's source only for the profile in effect. */
export function documentOf(ctx: Ctx, t: Target, valid: boolean | null, r: Pick<Resolution, 'profileSource' | 'pinFile'> | undefined) {
  return {
    profile: t.profile,
    profile_source: r?.profileSource ?? null,
    ...(r?.pinFile ? { pin_file: r.pinFile } : {}),
    base_url: t.baseUrl ?? null,
    key_source: t.keySource ?? null,
    key_storage: t.keyStorage ?? null,
    key: t.apiKey ? mask(t.apiKey) : null,
    valid,
    agents: agentPolicy(ctx, t.profile),
  };
}

/** The document as aligned lines on a TTY, key<TAB>value piped. */
export function showDocument(out: Terminal, ctx: Ctx, status: StatusDocument, extra: [string, string | null][] = []): void {
  // Piped: the raw key_storage; on a TTY, where that is.
  const where =
    status.key_storage === 'keyring' ? 'OS credential store' : status.key_storage === 'file' ? `file ${ctx.config.path}` : status.key_source === 'env' ? 'environment (WSCTL_API_KEY)' : undefined;
  out.detail([
    ['profile', status.profile],
    ['profile_source', status.profile_source, status.profile_source === null ? undefined : profileFrom({ profileSource: status.profile_source, pinFile: status.pin_file })],
    ...(status.pin_file ? [['pin_file', status.pin_file] as [string, string]] : []),
    ['base_url', status.base_url],
    ['key_source', status.key_source],
    ['key_storage', status.key_storage, where],
    ['key', status.key],
    ['valid', status.valid, status.valid === null ? undefined : out.flag(status.valid)],
    ['agents', status.agents],
    ...extra,
  ]);
}

function statusOf(ctx: Ctx, t: Target, valid: boolean, problem: string | undefined): Result {
  const status = documentOf(ctx, t, valid, ctx.resolution());
  return {
    json: status,
    human: (out) => showDocument(out, ctx, status),
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
