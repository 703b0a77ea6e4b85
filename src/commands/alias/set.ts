import { arg, defineVerb, rootOf, wouldChange, type Ctx, type Here, type Result } from '../../verbs/declare.js';
import { splitWords } from '../../config/alias.js';
import { UsageError } from '../../errors.js';
import { aliasName, refuseCommandName } from './shared.js';

export const set = defineVerb({
  name: 'set',
  summary: 'Name a command line: `wsctl <name> …` then runs `wsctl <expansion> …`',
  args: {
    name: arg('<name>', 'the alias (not a command or help topic)', aliasName),
    expansion: arg(
      '<expansion>',
      "the command line, one argument, split like a shell's words; $1, $2, … take the arguments after the alias",
    ),
  },
  notes: `
The expansion is one argument (quote it), split like a shell's words (quotes
and backslashes) without running a shell. $1, $2, ... take the arguments after
the alias; the arguments not used that way are appended. An alias is expanded
once: an alias in an expansion is not expanded again. --dry-run and --debug
show the expansion on stderr.
`,
  examples: [
    "wsctl alias set rmdev 'device rm $1 --yes'",
    "wsctl alias set ks 'keys list'",
    "wsctl alias set live 'convo show conv_live --follow'",
  ],
  endpoints: [],
  sample: ['alias', 'set', 'ks', 'keys list'],
  run,
});

export async function run(opts: { name: string; expansion: string }, ctx: Ctx, here: Here): Promise<Result> {
  refuseCommandName(opts.name, rootOf(here.command));
  if (splitWords(opts.expansion).length === 0)
    throw new UsageError("The expansion is empty: give the command line the alias stands for, e.g. `wsctl alias set ks 'keys list'`.", {
      reason: 'invalid_input',
    });
  const json = { name: opts.name, expansion: opts.expansion };
  if (ctx.dryRun) return wouldChange(json, `Would make \`wsctl ${opts.name}\` run \`wsctl ${opts.expansion}\`.`);
  await ctx.config.update((data) => {
    data.aliases = { ...data.aliases, [opts.name]: opts.expansion };
  });
  return { json, human: (out) => out.done(`\`wsctl ${opts.name}\` now runs \`wsctl ${opts.expansion}\`.`) };
}
