import { arg, defineVerb, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { profileOf, storedKey } from '../../config/index.js';
import { forgetKeys } from '../../config/keys.js';
import { leftBehind } from '../auth/logout.js';
import { policyOf } from '../../verbs/agent-policy.js';
import { refuseWidening, requireProfile } from './shared.js';

export const rm = defineVerb({
  name: 'rm',
  aliases: ['remove'],
  summary: 'Delete a profile and its stored key',
  args: { name: arg('<name>', 'profile name') },
  examples: ['wsctl profile rm old-staging', 'wsctl profile rm work --json'],
  endpoints: [],
  sample: ['profile', 'rm', 'default'],
  guards: 'credential',
  run,
});

export async function run(opts: { name: string }, ctx: Ctx): Promise<Result> {
  requireProfile(ctx.config.read(), opts.name);
  // The policy goes with the profile: for an agent, that would widen it.
  const policy = policyOf(profileOf(ctx.config.read(), opts.name));
  refuseWidening(ctx, opts.name, policy, 'full', `delete the profile and its ${policy} policy with it`);
  if (ctx.dryRun) return wouldRemove(opts.name, ctx);
  const trace = (line: string) => ctx.debug && ctx.term.trace(`credential store: ${line}`);
  const { leftInStore } = await forgetKeys(ctx.config, [ctx.storeEntry(opts.name)], true, trace, ctx.signal);
  for (const left of leftInStore) ctx.term.warn(leftBehind(left));
  return {
    json: { removed: opts.name, left_in_credential_store: leftInStore.length > 0 },
    human: (out) => out.done(`Deleted profile '${opts.name}'.`),
  };
}

/** --dry-run: the profile and its key stay where they are, in the file and in the credential store. */
function wouldRemove(name: string, ctx: Ctx): Result {
  const place = storedKey(profileOf(ctx.config.read(), name));
  const key = place === 'keyring' ? ' and its key in the credential store' : place === 'file' ? ' and its stored key' : '';
  return wouldChange({ removed: name }, `Would delete profile '${name}'${key}.`);
}
