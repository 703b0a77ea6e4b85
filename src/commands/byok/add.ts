import type { Command } from 'commander';
import { examples, type App, type Ctx, type Result } from '../../command.js';
import { byokFormats } from '../../enums.js';
import { UsageError } from '../../errors.js';
import type { ByokBody } from '../../schemas.js';
import { request } from '../../service.js';
import { maskUrlPassword } from '../../http/index.js';
import { mask, relativeTime } from '../../terminal/index.js';
import { readFirstLine } from '../../terminal/prompt.js';

export interface AddOptions {
  name: string;
  providerUrl: string;
  format: string;
  model: string;
  apiKeyStdin: boolean;
  showSecret: boolean;
  /** The provider key itself, given by a caller that has it (an MCP tool): no stdin, no prompt. */
  apiKey?: string;
}

export function register(byok: Command, app: App): void {
  byok
    .command('add')
    .description('Register a model provider; its key comes from stdin, WSCTL_BYOK_API_KEY, or a hidden prompt on a terminal')
    .option('--name <name>', 'a name for the configuration (required)')
    .option('--provider-url <url>', 'base URL of the model provider, http or https (required)')
    .addOption(byok.createOption('--format <format>', 'API format of the provider (required)').choices(byokFormats))
    .option('--model <model_id>', 'model id at the provider (required)')
    .option('--api-key-stdin', 'read the provider key from standard input (first line; on a terminal, asked with input hidden)')
    .option('--show-secret', 'show the provider key in the output')
    .addHelpText(
      'after',
      examples(
        'wsctl byok add --name claude --provider-url https://api.anthropic.com --format anthropic --model claude-sonnet-4',
        'pass show openai | wsctl byok add --name gpt --provider-url https://api.openai.com/v1 --format openai --model gpt-4.1 --api-key-stdin',
        "wsctl byok add --name fast --provider-url https://api.groq.com/openai/v1 --format groq --model llama-3.3-70b --jq '.id'",
      ),
    )
    .action((flags: Partial<AddOptions>, command: Command) =>
      app.run(command, addOptions(flags), run),
    );
}

const REQUIRED = [
  ['name', '--name'],
  ['providerUrl', '--provider-url'],
  ['format', '--format'],
  ['model', '--model'],
] as const;

/** argv's flags as options; every missing required option named in one message. */
export function addOptions(flags: Partial<AddOptions>): AddOptions {
  const missing = REQUIRED.filter(([key]) => flags[key] === undefined).map(([, flag]) => flag);
  if (missing.length > 0) {
    throw new UsageError(`Missing required option${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. Run \`wsctl byok add --help\` for usage.`);
  }
  return {
    name: flags.name as string,
    providerUrl: flags.providerUrl as string,
    format: flags.format as string,
    model: flags.model as string,
    apiKeyStdin: !!flags.apiKeyStdin,
    showSecret: !!flags.showSecret,
  };
}

async function providerKey(opts: AddOptions, ctx: Ctx): Promise<string> {
  const ask = () => ctx.term.secret('Provider API key (input hidden): ', 'pipe the provider key in with --api-key-stdin, or set WSCTL_BYOK_API_KEY');
  let key: string;
  if (opts.apiKey !== undefined) return checkKey(opts.apiKey);
  // --api-key-stdin on a terminal would echo the key as it is typed: ask with input hidden
  // instead, as `auth login --with-key` does.
  if (opts.apiKeyStdin) key = ctx.io.stdinIsTTY ? await ask() : await readFirstLine(ctx.io.stdin);
  else if (ctx.env.WSCTL_BYOK_API_KEY) key = ctx.env.WSCTL_BYOK_API_KEY;
  else key = await ask();
  return checkKey(key);
}

function checkKey(given: string): string {
  const key = given.trim();
  if (key === '' || /\s/.test(key)) throw new UsageError('The provider key is empty or contains whitespace.');
  if (/\p{Cc}/u.test(key)) throw new UsageError('The provider key contains control characters.');
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
    throw new UsageError(`Invalid --provider-url '${maskUrlPassword(raw)}': give an http:// or https:// URL.`);
  }
  return raw;
}

export async function run(opts: AddOptions, ctx: Ctx): Promise<Result> {
  if (opts.name.trim() === '') throw new UsageError('--name must not be empty.');
  if (opts.model.trim() === '') throw new UsageError('--model must not be empty.');
  checkProviderUrl(opts.providerUrl);
  const apiKey = await providerKey(opts, ctx);
  const api = await ctx.api();
  const { body } = await ctx.term.spin(
    'Registering model',
    api.request(request('addByok', { body: { name: opts.name, base_url: opts.providerUrl, api_key: apiKey, format: opts.format as ByokBody['format'], model_id: opts.model } })),
  );
  // The provider key and the password of the provider URL are masked in all output (cli.md §3).
  const shown = opts.showSecret ? body : { ...body, ...(body.api_key ? { api_key: mask(body.api_key) } : {}), ...(typeof body.base_url === 'string' ? { base_url: maskUrlPassword(body.base_url) } : {}) };
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
