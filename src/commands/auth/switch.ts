import { arg, defineVerb, type Ctx, type Result } from '../../command.js';
import { checkProfileName } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import { cleanLine } from '../../sanitize.js';
import { displayWidth } from '../../terminal/width.js';
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
  if (names.length === 0) throw new UsageError('There are no profiles yet: run `wsctl auth login --profile <name> --base-url <url>` to create one.');
  const shown = names.map((n) => cleanLine(n));
  const width = Math.max(...shown.map((n) => displayWidth(n)));
  const items = names.map((n, i) => `${shown[i]}${' '.repeat(width - displayWidth(shown[i] as string))}  ${data.profiles[n]?.base_url ?? '(no base URL)'}${n === data.current_profile ? '  (current)' : ''}`);
  const start = Math.max(0, names.indexOf(data.current_profile ?? ''));
  const at = await ctx.term.choose('Switch to which profile? (↑/↓, Enter; Esc cancels)', items, instead, start);
  return names[at] as string;
}
