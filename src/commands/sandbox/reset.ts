import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { sandboxStatePath } from '../../sandbox/embedded.js';

export function register(sandbox: Command, app: App): void {
  sandbox
    .command('reset')
    .description("Restore the embedded sandbox's seeded state")
    .addHelpText('after', examples('wsctl sandbox reset', 'wsctl sandbox reset && wsctl --sandbox keys list'))
    .action((_flags: unknown, command: Command) => app.run(command, {}, (_opts, ctx) => run(ctx)));
}

export async function run(ctx: Ctx): Promise<Result> {
  const path = sandboxStatePath(ctx.config.dir);
  const { FileStore } = await import('../../sandbox/store.js');
  await new FileStore(path).reset();
  return { json: { reset: true, state: path }, human: (out) => out.done(`Sandbox reset to its seeded state (${path}).`) };
}
