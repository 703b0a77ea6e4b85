import { arg, defineVerb, type Ctx, type Result } from '../../verbs/declare.js';
import { checkProfileName } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import { run as useProfile } from '../profile/use.js';

export const switchProfile = defineVerb({
  name: 'switch',
  summary: 'Make a profile current, as `profile use` does; without a name, on a terminal, choose it from a list',
  args: { name: arg('[name]', 'profile name (on a terminal, leave it out to choose from a list)') },
  examples: ['wsctl auth switch work', 'wsctl auth switch default --json'],
  endpoints: [],
  sample: ['auth', 'switch', 'default'],
  run,
});

export async function run(opts: { name?: string }, ctx: Ctx): Promise<Result> {
  const name = opts.name === undefined ? await chosen(ctx) : checkProfileName(opts.name);
  return useProfile({ name }, ctx);
}

/** The profiles as `profile list` orders them, name and base URL, the current one first under the cursor. */
async function chosen(ctx: Ctx): Promise<string> {
  const data = ctx.config.read();
  const names = Object.keys(data.profiles).sort((a, b) => a.localeCompare(b));
  const instead = 'name the profile, e.g. `wsctl auth switch <name>` (`wsctl profile list` lists them)';
  if (names.length === 0)
    throw new UsageError('There are no profiles yet: run `wsctl auth login --profile <name> --base-url <url>` to create one.');
  // Service-independent text, cleaned and fitted by the list itself; the current profile is marked.
  const items = names.map((n) => ({
    id: n,
    description: `${data.profiles[n]?.base_url ?? '(no base URL)'}${n === data.current_profile ? '  (current)' : ''}`,
  }));
  return ctx.term.choose('Switch to which profile?', items, instead);
}
