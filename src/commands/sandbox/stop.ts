import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';

export function register(sandbox: Command, app: App): void {
  sandbox
    .command('stop')
    .description('Stop the server that `sandbox serve --detach` started (exit 0 also when none runs)')
    .addHelpText('after', examples('wsctl sandbox stop', 'eval "$(wsctl sandbox serve --detach)" && wsctl keys list; wsctl sandbox stop'))
    .action((_flags: unknown, command: Command) => app.run(command, {}, (_opts, ctx) => run(ctx)));
}

export async function run(ctx: Ctx): Promise<Result> {
  const { stop } = await import('./detached.js');
  const server = await stop(ctx.config.dir);
  return {
    json: { stopped: !!server, ...(server ? { pid: server.pid, url: server.url } : {}) },
    human: (out) => out.done(server ? `Stopped the sandbox server on ${server.url} (pid ${server.pid}).` : 'No sandbox server was running.'),
  };
}
