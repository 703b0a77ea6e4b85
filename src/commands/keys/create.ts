import { arg, call, defineVerb, flag, nonEmpty, option, type Call, type Ctx, type Result } from '../../verbs/declare.js';
import type { Response } from '../../schemas.js';
import { checkProfileName, profileOf, storedKey } from '../../config/index.js';
import { storeKey } from '../../config/keys.js';
import { CancelledError, UsageError } from '../../errors.js';
import { request } from '../../service.js';
import { mask, relativeTime } from '../../terminal/index.js';

export interface CreateOptions {
  name: string;
  saveAs?: string;
  force?: boolean;
  insecureStorage?: boolean;
  /** The caller does not show the key (an MCP tool masks it): no warning to copy it. */
  keyHidden?: boolean;
}

export const create = defineVerb({
  name: 'create',
  summary: 'Create an API key; its secret is shown once',
  args: { name: arg('<name>', 'a label for the key', nonEmpty('The key name must not be empty.')) },
  flags: {
    saveAs: option('--save-as <profile>', 'also store the new key, with the base URL in effect, as this profile', checkProfileName),
    force: flag('--force', 'with --save-as, replace an existing profile of that name'),
    insecureStorage: flag('--insecure-storage', 'with --save-as, store the key in config.json instead of the OS credential store'),
  },
  check(opts, said) {
    if (opts.saveAs !== undefined) return;
    // Both only say how to save: without --save-as they would be ignored without a word.
    const given = [opts.force && said('force'), opts.insecureStorage && said('insecureStorage')].filter(Boolean);
    if (given.length > 0)
      throw new UsageError(
        `${given.join(' and ')} ${given.length > 1 ? 'go' : 'goes'} with ${said('saveAs')}: without it no key is saved.`,
      );
  },
  examples: ['wsctl keys create ci', 'wsctl keys create deploy --save-as deploy', "wsctl keys create ci --jq '.key'"],
  endpoints: ['createKey'],
  sample: ['keys', 'create', 'ci'],
  mcp: {
    note: 'The new key is returned masked unless the server was started with --show-secrets; save_as stores it in a wsctl profile.',
    // The key goes back masked, or to a client that asked for it: no warning to copy it on the server's stderr.
    fixed: { keyHidden: true },
    shown: (document, server) =>
      server.showSecrets ? document : { ...(document as object), key: mask((document as { key?: string }).key) },
  },
  run,
});

/** --save-as over an existing profile: only with --force, or a yes on a terminal. */
async function mayReplace(profile: string, force: boolean, ctx: Ctx): Promise<void> {
  const existing = profileOf(ctx.config.read(), profile);
  if (!existing || force) return;
  const what = `profile '${profile}' (${existing.base_url ?? 'no base URL'}${storedKey(existing) ? ', with a stored key' : ''})`;
  if (!ctx.term.canPrompt)
    throw new UsageError(`--save-as would replace ${what}: pass --force to replace it, or choose another name.`, {
      reason: 'confirmation_required',
      next: [
        {
          retype: true,
          add: ['--force'],
          why: `Only the person's yes allows replacing ${what}: pass --force once they have said yes to it.`,
        },
      ],
    });
  if (!(await ctx.term.confirm(`Replace ${what}?`, 'pass --force'))) throw new CancelledError();
}

export async function run(opts: CreateOptions, ctx: Ctx): Promise<Call> {
  if (opts.saveAs !== undefined) {
    if (ctx.sandbox) throw new UsageError('--save-as does not work with --sandbox: the embedded sandbox has no fixed address.');
    if (!ctx.dryRun) await mayReplace(opts.saveAs, !!opts.force, ctx);
  }
  return call({
    request: request('createKey', { body: { name: opts.name } }),
    spinner: 'Creating key',
    answer: ({ body: key }, api) => created(key, api.baseUrl, opts, ctx),
  });
}

function created(key: Response<'ApiKeyCreated'>, baseUrl: string, opts: CreateOptions, ctx: Ctx): Result {
  if (!opts.keyHidden) ctx.term.warn('Copy the key now: it will not be shown again.');
  const profile = opts.saveAs;
  return {
    json: key,
    lost: `The key '${key.name}' (id ${key.id}) was created but its secret was not written: delete that key in the workspace and create another.`,
    // Saved only once the key is printed: a config that cannot be written never loses the secret.
    after:
      profile === undefined
        ? undefined
        : async () => {
            const storage = await storeKey(
              ctx.config,
              ctx.storeEntry(profile),
              { baseUrl, key: key.key, insecure: !!opts.insecureStorage, signal: ctx.signal },
              (m) => ctx.term.warn(m),
              (line) => ctx.debug && ctx.term.trace(`credential store: ${line}`),
            );
            ctx.term.info(`Saved the key as profile '${profile}' (${storage === 'keyring' ? 'credential store' : ctx.config.path}).`);
          },
    human: (out) =>
      out.detail([
        ['id', key.id],
        ['name', key.name],
        ['key', key.key],
        ['key_prefix', key.key_prefix],
        ['created_at', key.created_at, relativeTime(key.created_at)],
      ]),
  };
}
