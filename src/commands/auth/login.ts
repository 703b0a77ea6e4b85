import type { Command } from 'commander';
import { checkBaseUrl } from '../../api.js';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { checkProfileName } from '../../config.js';
import { AuthError, UsageError } from '../../errors.js';
import { mask } from '../../output.js';
import { readFirstLine } from '../../prompt.js';
import { checkKeyShape } from './shared.js';

export interface LoginOptions {
  withKey: boolean;
  verify: boolean;
}

export function register(auth: Command, app: App): void {
  auth
    .command('login')
    .description('Store an API key and the base URL in effect in the profile')
    .option('--with-key', 'read the key from standard input (first line)')
    .option('--no-verify', 'save without checking the key with the service')
    .addHelpText(
      'after',
      examples(
        'wsctl auth login --base-url https://api.example.com',
        'echo "$WS_KEY" | wsctl auth login --with-key --profile work',
        'wsctl auth login --with-key --no-verify < key.txt',
      ),
    )
    .action((flags: { withKey?: boolean; verify: boolean }, command: Command) =>
      app.run(command, (ctx) => run({ withKey: !!flags.withKey, verify: flags.verify }, ctx)),
    );
}

async function readKey(opts: LoginOptions, ctx: Ctx): Promise<string> {
  if (opts.withKey) return (await readFirstLine(ctx.io)).replace(/\r$/, '');
  if (ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) return ctx.prompt.secret('Paste your API key (input hidden): ');
  throw new UsageError('No terminal to ask for the key: pipe it in with --with-key, e.g. `echo "$KEY" | wsctl auth login --with-key`.');
}

export async function run(opts: LoginOptions, ctx: Ctx): Promise<Result> {
  if (ctx.sandbox) throw new UsageError('`auth login` stores a key for a real service; --sandbox needs none.');
  const profile = checkProfileName(ctx.profileName());
  const { baseUrl } = await ctx.target();
  if (!baseUrl) throw new AuthError(`No base URL for profile '${profile}'. Pass --base-url <url> or set WSCTL_BASE_URL.`);
  checkBaseUrl(baseUrl);
  const key = checkKeyShape(await readKey(opts, ctx));
  if (opts.verify) {
    const api = await ctx.api({ apiKey: key, baseUrl });
    try {
      await ctx.out.spin('Checking the key', api.request({ method: 'GET', path: '/api-keys/', schema: 'ApiKeyList' }));
    } catch (error) {
      if (error instanceof AuthError) throw new AuthError(`The service rejected this key (HTTP ${error.status}); nothing was saved.`, error);
      throw error;
    }
  }
  await ctx.config.update((data) => {
    data.profiles[profile] = { ...data.profiles[profile], base_url: baseUrl, api_key: key };
    data.current_profile ??= profile;
  });
  const summary = { profile, base_url: baseUrl, key: mask(key) };
  return {
    json: summary,
    human: (out) => out.done(`Logged in to ${baseUrl} as profile '${profile}' (key ${summary.key}${opts.verify ? '' : ', not verified'}).`),
  };
}
