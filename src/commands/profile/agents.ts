import { AGENT_POLICIES, type AgentPolicy } from '../../common/agent.js';
import { DECLARED } from '../../common/declared.js';
import { policyOf } from '../../verbs/agent-policy.js';
import { arg, defineVerb, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { checkProfileName, profileOf } from '../../config/index.js';
import { refuseWidening } from './shared.js';

/** What each policy leaves an AI agent, as people read it. */
export const POLICY_MEANS: Record<AgentPolicy, string> = {
  full: 'AI agents may do whatever the profile allows',
  'no-destructive': `AI agents may read and change, but not delete (${DECLARED.deleting.join(', ')}) or replace (--force)`,
  'read-only': 'AI agents may only read',
};

export const agents = defineVerb({
  name: 'agents',
  summary: 'Set what AI agents may do with a profile: full, no-destructive or read-only',
  args: {
    name: arg('<profile>', 'profile name', checkProfileName),
    policy: arg('<policy>', 'what AI agents may do (full when none is set)', AGENT_POLICIES),
  },
  notes: `
Under an AI agent (see \`wsctl help environment\`: CLAUDECODE, CURSOR_AGENT,
GEMINI_CLI, CODEX_SANDBOX, OPENCODE, AI_AGENT or WSCTL_AGENT), read-only
refuses every command that sends anything but GET, and no-destructive refuses
${DECLARED.deleting.join(', ')} and every --force: exit 4, nothing sent. \`wsctl mcp\`
with the profile offers only the tools the policy allows. An agent may narrow
a policy, never widen it. The policy guards against an agent's mistakes; it is
not an authorization boundary (an agent that hides its variables is not seen).
`,
  examples: ['wsctl profile agents work read-only', 'wsctl profile agents default no-destructive --json'],
  endpoints: [],
  sample: ['profile', 'agents', 'default', 'read-only'],
  guards: 'policy',
  run,
});

export async function run(opts: { name: string; policy: AgentPolicy }, ctx: Ctx): Promise<Result> {
  const { name, policy } = opts;
  const previous = policyOf(profileOf(ctx.config.read(), name));
  refuseWidening(ctx, name, previous, policy);
  const doc = { profile: name, agents: policy, previous, changed: previous !== policy };
  const already = `The agent policy of profile '${name}' is already ${policy}.`;
  if (ctx.dryRun)
    return wouldChange(doc, doc.changed ? `Would set the agent policy of profile '${name}' to ${policy} (from ${previous}).` : already);
  if (!doc.changed) return { json: doc, human: (out) => out.done(`${already} Nothing was changed.`) };
  await ctx.config.update((data) => {
    // Checked again on the fresh read: the policy may have changed since.
    refuseWidening(ctx, name, policyOf(profileOf(data, name)), policy);
    // A profile not yet logged in to gets its policy first: the key may come from WSCTL_API_KEY.
    const profile = profileOf(data, name) ?? (data.profiles[name] = {});
    if (policy === 'full') delete profile.agents;
    else profile.agents = policy;
  });
  return { json: doc, human: (out) => out.done(`Profile '${name}': ${POLICY_MEANS[policy]} (${policy}).`) };
}
