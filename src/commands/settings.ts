import { call, defineNoun, defineVerb, type Call, type Ctx, type Result } from '../verbs/declare.js';
import type { Settings } from '../schemas.js';
import { request } from '../service.js';

export const settings = defineNoun({
  name: 'settings',
  verbs: [],
  self: defineVerb({
    name: 'settings',
    summary: "Show the user's settings",
    examples: ['wsctl settings', "wsctl settings --jq '.timezone'"],
    endpoints: ['getSettings'],
    sample: ['settings'],
    run: (_opts, ctx) => run(ctx),
  }),
});

export async function run(_ctx: Ctx): Promise<Call> {
  return call({ request: request('getSettings'), spinner: 'Loading settings', answer: ({ body }) => shown(body) });
}

function shown(s: Settings): Result {
  return {
    json: s,
    human(out) {
      // Piped output keeps the raw field; "(suggested)" is for people.
      const unset = out.muted('(not set)');
      const nameShown = s.name ? undefined : s.suggested_name ? { text: s.suggested_name, note: '(suggested)' } : unset;
      const field = (key: string, value: string | null | undefined): [string, string | null | undefined, string?] => [
        key,
        value,
        value ? undefined : unset,
      ];
      out.detail([
        ['name', s.name ?? null, nameShown],
        ['suggested_name', s.suggested_name ?? null],
        field('icon', s.icon),
        field('timezone', s.timezone),
        field('language', s.language),
        field('phone_number', s.phone_number),
        field('bio', s.bio),
        field('greeting_prompt', s.greeting_prompt),
        field('default_greeting_prompt', s.default_greeting_prompt),
      ]);
    },
  };
}
