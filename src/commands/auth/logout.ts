import { defineVerb, flag, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { profileOf, storedKey } from '../../config/index.js';
import { forgetKeys } from '../../config/keys.js';
import { refuseForAgents } from './shared.js';

export const logout = defineVerb({
  name: 'logout',
  summary: "Forget the profile's stored key, in the credential store and in the file (the base URL stays)",
  flags: { all: flag('--all', "forget every profile's key") },
  examples: ['wsctl auth logout', 'wsctl auth logout --profile work', 'wsctl auth logout --all'],
  endpoints: [],
  sample: ['auth', 'logout'],
  guards: 'credential',
  run,
});

export async function run(opts: { all: boolean }, ctx: Ctx): Promise<Result> {
  const names = opts.all ? Object.keys(ctx.config.read().profiles) : [ctx.profileName()];
  // --all removes none while any profile refuses.
  refuseForAgents(
    ctx,
    names,
    `remove a stored key${opts.all ? ' (auth logout --all removes none while any profile refuses)' : ''}`,
    'Nothing was removed',
  );
  if (ctx.dryRun) return wouldForget(opts, ctx, names);
  const trace = (line: string) => ctx.debug && ctx.term.trace(`credential store: ${line}`);
  const { forgotten, leftInStore } = await forgetKeys(
    ctx.config,
    names.map((n) => ctx.storeEntry(n)),
    false,
    trace,
    ctx.signal,
  );
  // What could not be removed is said, never "no stored key": the store could not be asked.
  for (const left of leftInStore) ctx.term.warn(leftBehind(left));
  if (ctx.env.WSCTL_API_KEY) ctx.term.warn('WSCTL_API_KEY is still set in the environment and is used before any profile.');
  const left = leftInStore.map((l) => l.profile);
  const quoted = (list: string[]) => list.map((n) => `'${n}'`).join(', ');
  return {
    // Not logged out while the entry is there: config.json still names it, so that this command,
    // run again once the store answers, removes it.
    json: { logged_out: forgotten, left_in_credential_store: left },
    human(out) {
      if (forgotten.length > 0) out.done(`Removed the stored key of ${quoted(forgotten)}.`);
      if (left.length > 0)
        out.line(
          `Still logged in: ${quoted(left)}, whose key is in the credential store until \`wsctl auth logout${opts.all ? ' --all' : ''}\` can remove it (see above).`,
        );
      if (forgotten.length === 0 && left.length === 0)
        out.done(opts.all ? 'No profile had a stored key.' : `Profile '${names[0]}' had no stored key.`);
    },
  };
}

/** --dry-run: the profiles whose key would be forgotten; neither the file nor the credential store is touched. */
function wouldForget(opts: { all: boolean }, ctx: Ctx, names: string[]): Result {
  const data = ctx.config.read();
  const stored = names.filter((n) => storedKey(profileOf(data, n)));
  const said =
    stored.length > 0
      ? `Would remove the stored key of ${stored.map((n) => `'${n}'`).join(', ')}.`
      : opts.all
        ? 'No profile has a stored key: nothing to remove.'
        : `Profile '${names[0]}' has no stored key: nothing to remove.`;
  return wouldChange({ logged_out: stored }, said);
}

/** One line: which entry is left, why, and how to remove it by hand. */
export function leftBehind(left: { profile: string; entry: { service: string }; reason: string }): string {
  return `Could not remove the key of profile '${left.profile}' from the credential store (${left.reason}): delete the entry service '${left.entry.service}', account '${left.profile}' yourself, or run this again once the store is unlocked.`;
}
