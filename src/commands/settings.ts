import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../command.js';
import { cleanLine } from '../output.js';

export function register(command: Command, app: App): void {
  command
    .addHelpText('after', examples('wsctl settings', 'wsctl settings --json | jq -r .timezone'))
    .action((_flags: unknown, command: Command) => app.run(command, (ctx) => run(ctx)));
}

export async function run(ctx: Ctx): Promise<Result> {
  const api = await ctx.api();
  const { body: s } = await ctx.out.spin('Loading settings', api.request({ method: 'GET', path: '/settings/', schema: 'Settings' }));
  return {
    json: s,
    human(out) {
      const unset = out.tty ? out.paint.dim('(not set)') : undefined;
      const name = s.name ?? (s.suggested_name ? `${s.suggested_name} (suggested)` : null);
      const nameShown = s.name ? undefined : s.suggested_name ? `${cleanLine(s.suggested_name)} ${out.paint.dim('(suggested)')}` : unset;
      const field = (key: string, value: string | null | undefined): [string, string | null | undefined, string?] => [key, value, value ? undefined : unset];
      out.detail([
        ['name', name, nameShown],
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
