// Whether an AI agent runs wsctl (cli.md §11), read from the environment alone, and the policies a
// person can set for agents on a profile. Pure and dependency-free: the context, the help topics
// and the tests read the same table.

/** The variables an agent sets for the commands it runs, and the name each one gives. */
export const AGENT_VARIABLES: readonly [variable: string, name: string][] = [
  ['CLAUDECODE', 'claude-code'],
  ['CURSOR_AGENT', 'cursor'],
  ['GEMINI_CLI', 'gemini-cli'],
  ['CODEX_SANDBOX', 'codex'],
  ['OPENCODE', 'opencode'],
];

/** What a profile lets an agent do, widest first (`full` when none is set). */
export const AGENT_POLICIES = ['full', 'no-destructive', 'read-only'] as const;
export type AgentPolicy = (typeof AGENT_POLICIES)[number];

/** true when `to` lets an agent do more than `from`. */
export function widens(from: AgentPolicy, to: AgentPolicy): boolean {
  return AGENT_POLICIES.indexOf(to) < AGENT_POLICIES.indexOf(from);
}

export interface AgentSign {
  /** The agent's name, when wsctl runs under one. */
  agent?: string;
  /** The variable that told (also when WSCTL_AGENT=0 said there is none). */
  variable?: string;
}

type Env = Record<string, string | undefined>;

const OFF = ['0', 'false', 'no', 'off'];
const ON = ['1', 'true', 'yes', 'on'];

/** A name as sent in the User-Agent: `A-Z a-z 0-9 . _ -` only, at most 32 characters, `unknown` when nothing is left. */
export function agentName(raw: string): string {
  return raw.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 32) || 'unknown';
}

/** Set to something that says yes: anything but empty, `0` or `false` (an agent's own variable). */
function told(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  return v !== '' && v !== '0' && v !== 'false';
}

/** AI_AGENT, then the agents' own variables: who is running wsctl, when one of them says. */
function named(env: Env): Required<AgentSign> | undefined {
  if (told(env.AI_AGENT)) return { agent: agentName(env.AI_AGENT as string), variable: 'AI_AGENT' };
  for (const [variable, name] of AGENT_VARIABLES) if (told(env[variable])) return { agent: name, variable };
  return undefined;
}

/**
 * WSCTL_AGENT=<name> says so and WSCTL_AGENT=0 (false, no, off) says not, whatever else is set;
 * then AI_AGENT=<name>; then an agent's own variable. WSCTL_AGENT=1 (true, yes, on) says there
 * is an agent without naming it: the name comes from the other variables, else `unknown`.
 */
export function detectAgent(env: Env): AgentSign {
  const own = env.WSCTL_AGENT;
  const value = own?.trim().toLowerCase() ?? '';
  if (own !== undefined && OFF.includes(value)) return { variable: 'WSCTL_AGENT' };
  if (ON.includes(value)) return { agent: named(env)?.agent ?? 'unknown', variable: 'WSCTL_AGENT' };
  if (value !== '') return { agent: agentName(own as string), variable: 'WSCTL_AGENT' };
  return named(env) ?? {};
}
