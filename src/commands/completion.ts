import type { Command } from 'commander';
import { arg, defineNoun, defineVerb, type Ctx, type Result } from '../verbs/declare.js';
import { completionScript } from '../completion/index.js';
import { shells } from '../enums.js';

// Where each shell finds a completion script by itself (the npm package also ships them, in
// its completions/ folder).
const WHERE = `
Where each shell looks for the script:
  bash  /usr/share/bash-completion/completions/wsctl
        (for everyone), or
        ~/.local/share/bash-completion/completions/wsctl
        (for you); or source it from ~/.bashrc
  zsh   a file named _wsctl in a folder on $fpath, such as
        ~/.zfunc with fpath+=~/.zfunc before compinit
  fish  ~/.config/fish/completions/wsctl.fish
`;

export const completion = defineNoun({
  name: 'completion',
  verbs: [],
  self: defineVerb({
    name: 'completion',
    summary: 'Print the completion script for a shell',
    args: { shell: arg('<shell>', 'the shell', shells) },
    notes: WHERE,
    examples: [
      'source <(wsctl completion bash)',
      'mkdir -p ~/.zfunc && wsctl completion zsh > ~/.zfunc/_wsctl',
      'mkdir -p ~/.config/fish/completions && wsctl completion fish > ~/.config/fish/completions/wsctl.fish',
    ],
    endpoints: [],
    sample: ['completion', 'bash'],
    // The scripts describe the whole tree, not just the part this invocation loaded.
    run: async (opts, ctx, here) => run({ ...opts, program: await here.wholeTree() }, ctx),
  }),
});

export async function run(opts: { shell: (typeof shells)[number]; program: Command }, _ctx: Ctx): Promise<Result> {
  const script = completionScript(opts.program, opts.shell);
  return { json: { shell: opts.shell, script }, human: (out) => out.write(script) };
}
