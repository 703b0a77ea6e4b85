// A profile's agent policy (cli.md §11): whether it lets an AI agent make a call, judged before it
// runs by what the call changes (./changes.ts, the classification every rule reads). A guard
// against an agent's mistakes, not an authorization boundary: an agent that hides its variables is
// not seen.
import type { AgentPolicy } from '../common/agent.js';
import { profileOf } from '../config/index.js';
import type { Ctx } from './context.js';
import { AuthError } from '../errors.js';
import { callChanges, methodsOf, sendsDelete, type Changes, type Declared } from './changes.js';

export type { AgentPolicy } from '../common/agent.js';

/** The policy a profile sets for agents: `full` when it sets none. */
export function policyOf(profile: { agents?: AgentPolicy } | undefined): AgentPolicy {
  return profile?.agents ?? 'full';
}

/** The most each policy lets an agent change, in the order of what changes (cli.md §11). */
const LEVELS: Changes[] = ['none', 'write', 'destructive'];
const MOST: Record<AgentPolicy, Changes> = { full: 'destructive', 'no-destructive': 'write', 'read-only': 'none' };

/**
 * Whether the policy refuses what a call changes (callChanges), or a tool by what its command
 * changes (commandChanges): `read-only` every change, `no-destructive` a deletion or a
 * replacement. The one rule the command line, `wsctl mcp`'s offer and its calls read.
 */
export function refusedBy(policy: AgentPolicy, changes: Changes): boolean {
  return LEVELS.indexOf(changes) > LEVELS.indexOf(MOST[policy]);
}

/** The command a person runs to change a profile's policy. */
export function policyCommand(profile: string): string {
  return `wsctl profile agents ${profile} <full|no-destructive|read-only>`;
}

/**
 * Why the policy refuses this verb with these options, or undefined when it allows it. Pure: the
 * command line asks it before a verb runs (enforcePolicy), and `wsctl mcp` before a call of a tool it offers.
 */
export function policyRefusal(verb: Declared, opts: Record<string, unknown>, policy: AgentPolicy, profile: string): string | undefined {
  const changes = callChanges(verb, opts);
  if (!refusedBy(policy, changes)) return undefined;
  const sends = [...new Set(methodsOf(verb, opts))].join(', ');
  const why =
    policy === 'read-only'
      ? `AI agents may only read, and this command sends ${sends}`
      : `AI agents may not delete or replace, and this command ${sendsDelete(verb, opts) ? 'deletes' : 'replaces what exists (--force)'}`;
  return `The agent policy of profile '${profile}' is ${policy}: ${why}. Nothing was sent; a person can change the policy with \`${policyCommand(profile)}\`.`;
}

/** The policy of the profile in effect (read from config.json even when flags and the environment give the key and URL). */
export function policyInEffect(ctx: Ctx): { profile: string; policy: AgentPolicy } {
  const profile = ctx.resolution().profile;
  return { profile, policy: policyOf(profileOf(ctx.config.read(), profile)) };
}

/** Under an agent, stops a verb the profile's policy refuses (exit 4), before it asks or sends anything. */
export function enforcePolicy(ctx: Ctx, verb: Declared, opts: Record<string, unknown>): void {
  // Reads are allowed by every policy: they need not even read the config.
  if (!ctx.agent || callChanges(verb, opts) === 'none') return;
  const { profile, policy } = policyInEffect(ctx);
  const refusal = policyRefusal(verb, opts, policy, profile);
  if (refusal) throw new AuthError(refusal, { reason: 'policy_refused' });
}

/**
 * What `wsctl mcp` offers under a profile's policy: its own --read-only and --allow-destructive,
 * narrowed to what the policy does not refuse. `read-only` offers the reads alone; `no-destructive`
 * no deleting tool (and its calls with `force` are refused: policyRefusal). A call of a tool not
 * offered is an unknown tool.
 */
export function mcpOffer(
  flags: { readOnly?: boolean; allowDestructive?: boolean },
  policy: AgentPolicy,
): { readOnly: boolean; allowDestructive: boolean } {
  return {
    readOnly: !!flags.readOnly || refusedBy(policy, 'write'),
    allowDestructive: !!flags.allowDestructive && !refusedBy(policy, 'destructive'),
  };
}
