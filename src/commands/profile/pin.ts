import { arg, defineVerb, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { checkProfileName } from '../../config/index.js';
import { writeFileAtomic } from '../../config/atomic.js';
import { PIN_FILE, pinPath } from '../../config/pin.js';
import { UsageError } from '../../errors.js';
import { requireProfile } from './shared.js';

export const pin = defineVerb({
  name: 'pin',
  summary: 'Pin a profile to this folder and every folder below it: writes .wsctl-profile holding its name',
  args: { name: arg('<name>', 'profile name', checkProfileName) },
  notes: `
The pin chooses the profile after --profile and WSCTL_PROFILE and before the
current profile. It holds the profile's name and nothing else (no URL, no key),
so a pin committed to a repository cannot send a key anywhere; a pin holding
anything but the name of an existing profile, or a pin that is a symbolic link,
stops every command (exit 2). Pinning over a link replaces the link.
\`wsctl auth status\` shows which pin is in effect.
`,
  examples: ['wsctl profile pin work', 'wsctl profile pin work --dry-run', 'wsctl profile unpin'],
  endpoints: [],
  sample: ['profile', 'pin', 'default'],
  run,
});

export async function run(opts: { name: string }, ctx: Ctx): Promise<Result> {
  requireProfile(ctx.config.read(), opts.name);
  const path = pinPath(ctx.cwd ?? process.cwd());
  const json = { profile: opts.name, pin_file: path };
  if (ctx.dryRun) return wouldChange(json, `Would write ${path}, pinning profile '${opts.name}' to this folder and the folders below it.`);
  try {
    // A rename into place: a link there (a committed one may point at any file) is replaced, never written through.
    writeFileAtomic(path, `${opts.name}\n`);
  } catch (error) {
    throw new UsageError(
      `Cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): nothing was pinned.`,
    );
  }
  return {
    json,
    human: (out) => out.done(`Pinned profile '${opts.name}' to this folder (${PIN_FILE}); \`wsctl profile unpin\` removes it.`),
  };
}
