import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { byokFormats } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { mask, relativeTime } from '../../output.js';
import { readFirstLine } from '../../prompt.js';

export interface AddOptions {
  name: string;
  providerUrl: string;
  format: string;
  model: string;
  apiKeyStdin: boolean;
  showSecret: boolean;
}

export function register(byok: Command, app: App): void {
  byok
    .command('add')
    .description('Register a model provider; its key comes from stdin, WSCTL_BYOK_API_KEY or a hidden prompt')
    .requiredOption('--name <name>', 'a name for the configuration')
    .requiredOption('--provider-url <url>', 'base URL of the model provider (http or https)')
    .addOption(byok.createOption('--format <format>', 'API format of the provider').choices(byokFormats).makeOptionMandatory())
    .requiredOption('--model <model_id>', 'model id at the provider')
    .option('--api-key-stdin', 'read the provider key from standard input (first line)')
    .option('--show-secret', 'show the provider key in the output')
    .addHelpText(
      'after',
      examples(
        'wsctl byok add --name claude --provider-url https://api.anthropic.com --format anthropic --model claude-sonnet-4',
        'pass show openai | wsctl byok add --name gpt --provider-url https://api.openai.com/v1 --format openai --model gpt-4.1 --api-key-stdin',
      ),
    )
    .action((flags: Omit<AddOptions, 'apiKeyStdin' | 'showSecret'> & { apiKeyStdin?: boolean; showSecret?: boolean }, command: Command) =>
      app.run(command, (ctx) => run({ ...flags, apiKeyStdin: !!flags.apiKeyStdin, showSecret: !!flags.showSecret }, ctx)),
    );
}

async function providerKey(opts: AddOptions, ctx: Ctx): Promise<string> {
  let key: string;
  if (opts.apiKeyStdin) key = await readFirstLine(ctx.io);
  else if (ctx.env.WSCTL_BYOK_API_KEY) key = ctx.env.WSCTL_BYOK_API_KEY;
  else if (ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) key = await ctx.prompt.secret('Provider API key (input hidden): ');
  else throw new UsageError('No provider key: pipe it with --api-key-stdin, or set WSCTL_BYOK_API_KEY.');
  key = key.trim();
  if (key === '' || /\s/.test(key)) throw new UsageError('The provider key is empty or contains whitespace.');
  return key;
}

function checkProviderUrl(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new UsageError(`Invalid --provider-url '${raw}': give an http:// or https:// URL.`);
  }
  return raw;
}

export async function run(opts: AddOptions, ctx: Ctx): Promise<Result> {
  if (opts.name.trim() === '') throw new UsageError('--name must not be empty.');
  if (opts.model.trim() === '') throw new UsageError('--model must not be empty.');
  checkProviderUrl(opts.providerUrl);
  const apiKey = await providerKey(opts, ctx);
  const api = await ctx.api();
  const { body } = await ctx.out.spin(
    'Registering model',
    api.request({
      method: 'POST',
      path: '/byok/',
      body: { name: opts.name, base_url: opts.providerUrl, api_key: apiKey, format: opts.format, model_id: opts.model },
      schema: 'ByokConfig',
    }),
  );
  const shown = opts.showSecret ? body : { ...body, ...(body.api_key ? { api_key: mask(body.api_key) } : {}) };
  return {
    json: shown,
    human: (out) =>
      out.detail([
        ['id', shown.id],
        ['name', shown.name],
        ['base_url', shown.base_url],
        ['format', shown.format],
        ['model_id', shown.model_id],
        ['api_key', shown.api_key],
        ['created_at', shown.created_at, relativeTime(shown.created_at)],
        ['updated_at', shown.updated_at, relativeTime(shown.updated_at)],
      ]),
  };
}
