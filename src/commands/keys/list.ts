import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { request } from '../../service.js';
import { relativeTime, type Cell } from '../../terminal/index.js';

export function register(keys: Command, app: App): void {
  keys
    .command('list')
    .alias('ls')
    .description('List API keys (metadata only, never a secret)')
    .addHelpText('after', examples('wsctl keys list', "wsctl keys list --jq '.keys[] | select(.last_used_at == null) | .id'"))
    .action((_flags: unknown, command: Command) => app.run(command, {}, (_opts, ctx) => run(ctx)));
}

const when = (value: Cell) => (value ? relativeTime(String(value)) : 'never');

export async function run(ctx: Ctx): Promise<Result> {
  const api = await ctx.api();
  const { body } = await ctx.term.spin('Loading keys', api.request(request('listKeys')));
  return {
    json: body,
    human: (out) =>
      out.table(
        [
          { header: 'ID', fixed: true },
          { header: 'NAME' },
          { header: 'PREFIX', fixed: true },
          { header: 'CREATED', fixed: true, tty: when },
          { header: 'LAST USED', fixed: true, tty: when },
        ],
        body.keys.map((k) => [k.id, k.name, k.key_prefix, k.created_at, k.last_used_at ?? null]),
      ),
  };
}
