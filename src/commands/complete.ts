import { arg, defineNoun, defineVerb, type Ctx } from '../verbs/declare.js';
import { completions } from '../completion/answer.js';

// `wsctl __complete profiles`, `wsctl __complete ids <kind> -- <words>`: the dynamic values of the
// completion scripts. bin/wsctl and the runner answer it before the command tree loads
// (src/completion/answer.ts); this declaration keeps it in the tree, hidden.
export const complete = defineNoun({
  name: '__complete',
  verbs: [],
  self: defineVerb({
    name: '__complete',
    summary: 'values for completion scripts',
    args: {
      what: arg('<what>', 'profiles, or ids <kind> -- <words of the line>'),
      rest: arg('[rest...]', 'the kind and the line', (given) => given as unknown as string[]),
    },
    examples: [],
    endpoints: [],
    sample: ['__complete', 'profiles'],
    run,
  }),
});

async function run(opts: { what: string; rest?: string[] }, ctx: Ctx): Promise<void> {
  for (const line of completions([opts.what, ...(opts.rest ?? [])], ctx.env)) ctx.term.line(line);
}
