import { policyOf, type AgentPolicy } from '../../verbs/agent-policy.js';
import type { Ctx } from '../../verbs/declare.js';
import { profileOf } from '../../config/index.js';
import { badKeyCharacters, type Resolution } from '../../config/resolve.js';
import type { Target } from '../../verbs/context.js';
import { profileFrom } from '../../verbs/confirm.js';
import { AuthError, UsageError } from '../../errors.js';
import { mask, type Terminal } from '../../terminal/index.js';

/** A key is one printable ASCII token: anything else is a copy-paste accident. */
export function checkKeyShape(key: string): string {
  if (key === '') throw new UsageError('The API key is empty.');
  const bad = badKeyCharacters(key);
  if (bad) throw new UsageError(`The API key contains ${bad}; paste the key alone.`);
  if (key.length < 8 || key.length > 512) throw new UsageError('That does not look like an API key (wrong length).');
  return key;
}

/** Why a rejected key is rejected, and what fixes it: a login cannot fix a key from the environment. */
export function rejected(t: Target, error: AuthError): string {
  return t.keySource === 'env'
    ? `The service rejected the key in WSCTL_API_KEY (HTTP ${error.status}). Set WSCTL_API_KEY to a valid key, or unset it to use profile '${t.profile}'.`
    : `The service rejected the key of profile '${t.profile}' (HTTP ${error.status}). Run \`wsctl auth login --profile ${t.profile}\`.`;
}

export type StatusDocument = ReturnType<typeof documentOf>;

/** The document of auth status for a target; the profile's source only for the profile in effect. */
export function documentOf(
  ctx: Ctx,
  t: Target,
  key: string | undefined,
  valid: boolean | null,
  r: Pick<Resolution, 'profileSource' | 'pinFile'> | undefined,
) {
  return {
    profile: t.profile,
    profile_source: r?.profileSource ?? null,
    ...(r?.pinFile ? { pin_file: r.pinFile } : {}),
    base_url: t.baseUrl ?? null,
    key_source: t.keySource ?? null,
    key_storage: t.keyStorage ?? null,
    key: key ? mask(key) : null,
    valid,
    agents: agentPolicy(ctx, t.profile),
  };
}

/** The document as aligned lines on a TTY, key<TAB>value piped. */
export function showDocument(out: Terminal, ctx: Ctx, status: StatusDocument, extra: [string, string | null][] = []): void {
  // Piped: the raw key_storage; on a TTY, where that is.
  const where =
    status.key_storage === 'keyring'
      ? 'OS credential store'
      : status.key_storage === 'file'
        ? `file ${ctx.config.path}`
        : status.key_source === 'env'
          ? 'environment (WSCTL_API_KEY)'
          : undefined;
  out.detail([
    ['profile', status.profile],
    [
      'profile_source',
      status.profile_source,
      status.profile_source === null ? undefined : profileFrom({ profileSource: status.profile_source, pinFile: status.pin_file }),
    ],
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

/** What AI agents may do with the profile (cli.md §11); null when config.json cannot be read (a key and URL from the environment need none). */
function agentPolicy(ctx: Ctx, profile: string): AgentPolicy | null {
  try {
    return policyOf(profileOf(ctx.config.read(), profile));
  } catch {
    return null;
  }
}

/**
 * Under an AI agent, the local commands that lose or show a credential follow the agent policy of
 * each profile they act on (cli.md §11): `read-only` and `no-destructive` both refuse them, and
 * then nothing is done for any profile (exit 4). `what` says what agents may not do.
 */
export function refuseForAgents(ctx: Ctx, profiles: string[], what: string, nothing: string): void {
  if (!ctx.agent) return;
  const data = ctx.config.read();
  for (const profile of profiles) {
    const policy = policyOf(profileOf(data, profile));
    if (policy === 'full') continue;
    throw new AuthError(
      `The agent policy of profile '${profile}' is ${policy}: AI agents may not ${what}. ${nothing}; a person can change the policy with \`wsctl profile agents ${profile} <full|no-destructive|read-only>\`.`,
      { reason: 'policy_refused' },
    );
  }
}
