import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { checkProfileName } from '../../config.js';
import { UsageError } from '../../errors.js';
import { relativeTime } from '../../output.js';

export interface CreateOptions {
  name: string;
  saveAs?: string;
}

export function register(keys: Command, app: App): void {
  keys
    .command('create')
    .description('Create an API key; its secret is shown once')
    .argument('<name>', 'a label for the key')
    .option('--save-as <profile>', 'also store the new key, with the base URL in effect, as this profile')
    .addHelpText('after', examples('wsctl keys create ci', 'wsctl keys create deploy --save-as deploy', 'wsctl keys create ci --json | jq -r .key'))
    .action((name: string, flags: { saveAs?: string }, command: Command) => app.run(command, (ctx) => run({ name, saveAs: flags.saveAs }, ctx)));
}

export async function run(opts: CreateOptions, ctx: Ctx): Promise<Result> {
  if (opts.name.trim() === '') throw new UsageError('The key name must not be empty.');
  if (opts.saveAs !== undefined) {
    checkProfileName(opts.saveAs);
    if (ctx.sandbox) throw new UsageError('--save-as does not work with --sandbox: the embedded sandbox has no fixed address.');
  }
  const api = await ctx.api();
  const { body: key } = await ctx.out.spin('Creating key', api.request({ method: 'POST', path: '/api-keys/', body: { name: opts.name }, schema: 'ApiKeyCreated' }));
  ctx.out.warn('Copy the key now: it will not be shown again.');
  if (opts.saveAs !== undefined) {
    const profile = opts.saveAs;
    await ctx.config.update((data) => {
      data.profiles[profile] = { ...data.profiles[profile], base_url: api.baseUrl, api_key: key.key };
    });
    ctx.out.info(`Saved the key as profile '${profile}' (${ctx.config.path}).`);
  }
  return {
    json: key,
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
