import { Argument, type Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../command.js';
import { shells } from '../enums.js';

export function register(program: Command, app: App): void {
  program
    .command('completion')
    .description('Print the completion script for a shell')
    .addArgument(new Argument('<shell>', 'the shell').choices(shells))
    .addHelpText(
      'after',
      examples('source <(wsctl completion bash)', 'wsctl completion zsh > ~/.zfunc/_wsctl', 'wsctl completion fish > ~/.config/fish/completions/wsctl.fish'),
    )
    .action((shell: (typeof shells)[number], _flags: unknown, command: Command) => app.run(command, (ctx) => run({ shell, program }, ctx)));

  // Dynamic values for the scripts; the one part of completion that starts Node.
  program
    .command('__complete', { hidden: true })
    .argument('<what>', 'profiles')
    .action((what: string, _flags: unknown, command: Command) => app.run(command, (ctx) => complete(what, ctx)));
}

export async function run(opts: { shell: (typeof shells)[number]; program: Command }, _ctx: Ctx): Promise<Result> {
  const { completionScript } = await import('../completion/index.js');
  const script = completionScript(opts.program, opts.shell);
  return { json: { shell: opts.shell, script }, human: (out) => out.write(script) };
}

async function complete(what: string, ctx: Ctx): Promise<void> {
  if (what !== 'profiles') return;
  try {
    for (const name of Object.keys(ctx.config.read().profiles)) ctx.out.line(name);
  } catch {
    // A broken config completes nothing; the next real command reports it.
  }
}
