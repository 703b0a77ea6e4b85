import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../command.js';
import { completionScript } from '../completion/index.js';
import { shells } from '../enums.js';

export function register(command: Command, app: App): void {
  command
    .addArgument(command.createArgument('<shell>', 'the shell').choices(shells))
    .addHelpText(
      'after',
      examples('source <(wsctl completion bash)', 'mkdir -p ~/.zfunc && wsctl completion zsh > ~/.zfunc/_wsctl', 'mkdir -p ~/.config/fish/completions && wsctl completion fish > ~/.config/fish/completions/wsctl.fish'),
    )
    .action((shell: (typeof shells)[number], _flags: unknown, cmd: Command) =>
      app.run(cmd, { shell, program: cmd.parent as Command }, async (opts, ctx) => {
        // The scripts describe the whole tree, not just the part this invocation loaded.
        await app.loadAll(opts.program);
        return run(opts, ctx);
      }),
    );
}

export async function run(opts: { shell: (typeof shells)[number]; program: Command }, _ctx: Ctx): Promise<Result> {
  const script = completionScript(opts.program, opts.shell);
  return { json: { shell: opts.shell, script }, human: (out) => out.write(script) };
}
