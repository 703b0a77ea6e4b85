import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { AuthError, ExitCode } from '../../errors.js';
import { mask } from '../../output.js';

export function register(auth: Command, app: App): void {
  auth
    .command('status')
    .description('Show the active profile, its base URL and key, and whether the service accepts the key')
    .addHelpText('after', examples('wsctl auth status', 'wsctl auth status --profile work --json'))
    .action((_flags: unknown, command: Command) => app.run(command, (ctx) => run(ctx)));
}

export async function run(ctx: Ctx): Promise<Result> {
  const t = await ctx.target();
  let valid = false;
  let problem: string | undefined;
  if (!t.baseUrl) problem = `No base URL for profile '${t.profile}'. Pass --base-url, set WSCTL_BASE_URL, or run \`wsctl auth login --base-url <url>\`.`;
  else if (!t.apiKey) problem = `No API key for profile '${t.profile}'. Run \`wsctl auth login --profile ${t.profile}\` or set WSCTL_API_KEY.`;
  else {
    const api = await ctx.api();
    try {
      await ctx.out.spin('Checking the key', api.request({ method: 'GET', path: '/api-keys/', schema: 'ApiKeyList' }));
      valid = true;
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      problem = `The service rejected the key of profile '${t.profile}' (HTTP ${error.status}). Run \`wsctl auth login --profile ${t.profile}\`.`;
    }
  }
  const status = { profile: t.profile, base_url: t.baseUrl ?? null, key_source: t.keySource ?? null, key: t.apiKey ? mask(t.apiKey) : null, valid };
  return {
    json: status,
    human(out) {
      const none = out.tty ? out.paint.dim('(none)') : undefined;
      out.detail([
        ['profile', status.profile],
        ['base_url', status.base_url, status.base_url ? undefined : none],
        ['key_source', status.key_source, status.key_source ? undefined : none],
        ['key', status.key, status.key ? undefined : none],
        ['valid', valid ? 'yes' : 'no', valid ? out.paint.green('yes') : out.paint.red('no')],
      ]);
    },
    exitCode: valid ? undefined : ExitCode.auth,
    exitMessage: problem,
  };
}
