import { defineVerb, type Ctx, type Result } from '../../verbs/declare.js';
import { policyOf } from '../../verbs/agent-policy.js';
import { storedKey } from '../../config/index.js';

export const list = defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List profiles with their base URLs, whether a key is stored, and what AI agents may do',
  examples: ['wsctl profile list', "wsctl profile list --jq '.profiles[] | select(.has_key) | .name'"],
  endpoints: [],
  sample: ['profile', 'list'],
  run: (_opts, ctx) => run(ctx),
});

export async function run(ctx: Ctx): Promise<Result> {
  const data = ctx.config.read();
  const active = ctx.profileName();
  const profiles = Object.entries(data.profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => ({ name, base_url: p.base_url ?? null, has_key: !!storedKey(p), current: name === active, agents: policyOf(p) }));
  return {
    json: { current_profile: active, profiles },
    async human(out) {
      if (profiles.length === 0) {
        out.info('No profiles yet. Run `wsctl auth login --base-url <url>` to create one, or try `wsctl --sandbox keys list`.');
        return;
      }
      // Piped: name, base URL, has key, current (true/false), agent policy, one profile a line.
      out.table(
        [
          { header: 'NAME', fixed: true },
          { header: 'BASE URL' },
          { header: 'KEY', fixed: true, tty: (v) => (v ? 'stored' : '-') },
          { header: 'CURRENT', fixed: true, tty: (v) => (v ? '*' : '') },
          { header: 'AGENTS', fixed: true },
        ],
        profiles.map((p) => [p.name, p.base_url, p.has_key, p.current, p.agents]),
      );
    },
  };
}
