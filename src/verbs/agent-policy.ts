// A profile's agent policy (cli.md §11): what a command would do, judged from its declaration
// (the methods of the endpoints it calls, `api`'s method, a --force) before it runs, and whether
// the policy lets an AI agent do it. A guard against an agent's mistakes, not an authorization
// boundary: an agent that hides its variables is not seen.
import type { AgentPolicy } from '../common/agent.js';
import { profileOf } from '../config/index.js';
import type { Ctx } from '../cli/context.js';
import { AuthError } from '../errors.js';
import type { Method } from '../http/index.js';
import { endpoints, type EndpointName } from '../service.js';

export type { AgentPolicy } from '../common/agent.js';

/** What the policy reads of a verb's declaration (VerbSpec in src/verbs/declare.ts). */
export interface Declared {
  endpoints: EndpointName[] | 'any';
  method?(opts: Record<string, unknown>): Method;
}

/** reads send GET alone; writes send anything else; destructive ones delete (DELETE) or replace (--force). */
export type Effect = 'read' | 'write' | 'destructive';

/** The methods a verb would send with these options: its endpoints', or for `api` the one it would use. */
export function methodsOf(verb: Declared, opts: Record<string, unknown>): Method[] {
  if (verb.endpoints !== 'any') return verb.endpoints.map((name) => endpoints[name].method);
  // A verb that may call anything and cannot say how is taken to change the workspace.
  return [verb.method?.(opts) ?? 'POST'];
}

/** What a verb would do with these options. */
export function effectOf(verb: Declared, opts: Record<string, unknown>): Effect {
  const methods = methodsOf(verb, opts);
  if (methods.includes('DELETE') || opts.force === true) return 'destructive';
  return methods.every((m) => m === 'GET') ? 'read' : 'write';
}

/** The policy a profile sets for agents: `full` when it sets none. */
export function policyOf(profile: { agents?: AgentPolicy } | undefined): AgentPolicy {
  return profile?.agents ?? 'full';
}

/**
 * Why the policy refuses this verb with these options, or undefined when it allows it. Pure: the
 * command line asks it before a verb runs (enforcePolicy), and `wsctl mcp` offers no tool it refuses.
 */
export function policyRefusal(verb: Declared, opts: Record<string, unknown>, policy: AgentPolicy, profile: string): string | undefined {
  if (policy === 'full') return undefined;
  const effect = effectOf(verb, opts);
  const sends = [...new Set(methodsOf(verb, opts))].join(', ');
  const why =
    policy === 'read-only' && effect !== 'read'
      ? `AI agents may only read, and this command sends ${sends}`
      : policy === 'no-destructive' && effect === 'destructive'
        ? `AI agents may not delete or replace, and this command ${opts.force === true ? 'replaces what exists (--force)' : 'deletes'}`
        : undefined;
  if (!why) return undefined;
  return `The agent policy of profile '${profile}' is ${policy}: ${why}. Nothing was sent; a person can change the policy with \`wsctl profile agents ${profile} <full|no-destructive|read-only>\`.`;
}

/** The policy of the profile in effect (read from config.json even when flags and the environment give the key and URL). */
export function policyInEffect(ctx: Ctx): { profile: string; policy: AgentPolicy } {
  const profile = ctx.resolution().profile;
  return { profile, policy: policyOf(profileOf(ctx.config.read(), profile)) };
}

/** Under an agent, stops a verb the profile's policy refuses (exit 4), before it asks or sends anything. */
export function enforcePolicy(ctx: Ctx, verb: Declared, opts: Record<string, unknown>): void {
  // Reads are allowed by every policy: they need not even read the config.
  if (!ctx.agent || effectOf(verb, opts) === 'read') return;
  const { profile, policy } = policyInEffect(ctx);
  const refusal = policyRefusal(verb, opts, policy, profile);
  if (refusal) throw new AuthError(refusal);
}

/**
 * What `wsctl mcp` offers under a profile's policy: its own --read-only and --allow-destructive,
 * narrowed. `read-only` offers the reads alone; `no-destructive` neither the deleting tools nor the
 * `force` argument. A call of a tool not offered is an unknown tool.
 */
export function mcpOffer(
  flags: { readOnly?: boolean; allowDestructive?: boolean },
  policy: AgentPolicy,
): { readOnly: boolean; allowDestructive: boolean } {
  return {
    readOnly: !!flags.readOnly || policy === 'read-only',
    allowDestructive: !!flags.allowDestructive && policy === 'full',
  };
}
