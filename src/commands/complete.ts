import { arg, defineNoun, defineVerb, type Ctx } from '../command.js';

// `wsctl __complete profiles`: the dynamic values of the completion scripts, in one Node start-up.
export const complete = defineNoun({
  name: '__complete',
  verbs: [],
  self: defineVerb({
    name: '__complete',
    summary: 'values for completion scripts',
    args: { what: arg('<what>', 'profiles or aliases') },
    examples: [],
    endpoints: [],
    sample: ['__complete', 'profiles'],
    run,
  }),
});

async function run(opts: { what: string }, ctx: Ctx): Promise<void> {
  if (opts.what !== 'profiles' && opts.what !== 'aliases') return;
  try {
    const data = ctx.config.read();
    // Alias names the scripts hand to compgen -W: only those `alias set` accepts.
    if (opts.what === 'aliases') for (const name of Object.keys(data.aliases ?? {})) if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) ctx.term.line(name);
    if (opts.what !== 'profiles') return;
    // One name a line: a name with a line break or control character cannot be completed safely.
    for (const name of Object.keys(data.profiles)) if (!/[\x00-\x1f\x7f]/.test(name)) ctx.term.line(name);
  } catch {
    // A broken config completes nothing; the next real command reports it.
  }
}
