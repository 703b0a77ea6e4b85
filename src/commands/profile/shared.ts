import { widens, type AgentPolicy } from '../../common/agent.js';
import type { Ctx } from '../../verbs/declare.js';
import type { ConfigData } from '../../config/index.js';
import { AuthError, UsageError } from '../../errors.js';

export function requireProfile(data: ConfigData, name: string): void {
  if (Object.hasOwn(data.profiles, name)) return;
  const known = Object.keys(data.profiles);
  const list = known.length ? ` Profiles: ${known.join(', ')}.` : ' There are no profiles yet.';
  throw new UsageError(`No profile '${name}'.${list} Create one with \`wsctl auth login --profile ${name}\`.`);
}

/** Under an AI agent, a profile's agent policy may be narrowed, never widened (cli.md §11): exit 4. */
export function refuseWidening(
  ctx: Ctx,
  profile: string,
  from: AgentPolicy,
  to: AgentPolicy,
  what = `widen it from ${from} to ${to}`,
): void {
  if (!ctx.agent || !widens(from, to)) return;
  throw new AuthError(
    `The agent policy of profile '${profile}' is ${from}, and an AI agent (${ctx.agent}) may narrow it but not ${what}. A person must run this command.`,
    { reason: 'policy_refused' },
  );
}
