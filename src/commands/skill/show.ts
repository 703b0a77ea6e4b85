import { defineVerb, type Ctx, type Here, type Result } from '../../verbs/declare.js';
import { skillText } from './shared.js';

export const show = defineVerb({
  name: 'skill',
  summary: "Print wsctl's agent skill: SKILL.md, which tells an AI agent how to use wsctl",
  notes: `
The skill (Agent Skills format) tells an AI agent how to use wsctl well:
what to run first, where ids come from, how to read failures, when a
person must say yes. The package ships the same file as skills/wsctl/SKILL.md.
`,
  examples: ['wsctl skill', 'wsctl skill install --agent claude-code', 'wsctl skill install --agent codex --scope project --dry-run'],
  endpoints: [],
  sample: ['skill'],
  run: (_opts, ctx, here) => run(ctx, here),
});

export async function run(_ctx: Ctx, here: Pick<Here, 'verbs'>): Promise<Result> {
  const text = skillText(await here.verbs());
  return { json: { name: 'wsctl', text }, human: (out) => out.write(text) };
}
