import { call, defineVerb, flag, nonEmpty, required, type Call, type Ctx, type Result } from '../../verbs/declare.js';
import { byokFormats } from '../../enums.js';
import { UsageError } from '../../errors.js';
import type { ByokBody, Response } from '../../schemas.js';
import { request } from '../../service.js';
import { isLoopback, maskUrlPassword } from '../../http/index.js';
import { mask, relativeTime } from '../../terminal/index.js';

export interface AddOptions {
  name: string;
  providerUrl: string;
  format: ByokBody['format'];
  model: string;
  apiKeyStdin: boolean;
  showSecret: boolean;
  /** The provider key itself, which the MCP door got from a person or its variable (src/mcp/person-secret.ts): no stdin, no prompt. */
  apiKey?: string;
}

export const add = defineVerb({
  name: 'add',
  summary: 'Register a model provider; its key comes from stdin, WSCTL_BYOK_API_KEY, or a hidden prompt on a terminal',
  flags: {
    name: required('--name <name>', 'a name for the configuration (required)', nonEmpty()),
    providerUrl: required('--provider-url <url>', 'base URL of the model provider, http or https (required)', checkProviderUrl),
    format: required('--format <format>', 'API format of the provider (required)', byokFormats),
    model: required('--model <model_id>', 'model id at the provider (required)', nonEmpty()),
    apiKeyStdin: flag('--api-key-stdin', 'read the provider key from standard input (first line; on a terminal, asked with input hidden)'),
    showSecret: flag('--show-secret', 'show the provider key in the output'),
  },
  examples: [
    'wsctl byok add --name claude --provider-url https://api.anthropic.com --format anthropic --model claude-sonnet-4',
    'pass show openai | wsctl byok add --name gpt --provider-url https://api.openai.com/v1 --format openai --model gpt-4.1 --api-key-stdin',
    "wsctl byok add --name fast --provider-url https://api.groq.com/openai/v1 --format groq --model llama-3.3-70b --jq '.id'",
  ],
  endpoints: ['addByok'],
  sample: ['byok', 'add', '--name', 'x', '--provider-url', 'https://api.openai.com/v1', '--format', 'openai', '--model', 'gpt-4.1'],
  mcp: {
    description:
      'Register a model provider. Its API key never passes through the model, and the tool takes none: the server has it from its environment, or a person pastes it into a page wsctl serves on 127.0.0.1',
    note: 'The provider key is returned masked.',
    drop: ['apiKeyStdin', 'showSecret'],
    // The key goes to the verb whole (as apiKey), which checks it as it checks a key read from stdin.
    secret: { key: 'apiKey', argument: 'api_key', env: 'WSCTL_BYOK_API_KEY', flag: '--api-key-stdin', what: 'provider API key' },
    // Future conversations go to that provider.
    // The provider first: a name may be anything the agent chose.
    confirm: (opts) => ({
      action: 'register model provider',
      facts: [
        ['providerUrl', maskUrlPassword(opts.providerUrl)],
        ['model', opts.model],
        ['name', opts.name],
      ],
      why: 'Future conversations go to that provider.',
    }),
  },
  run,
});

async function providerKey(opts: AddOptions, ctx: Ctx): Promise<string> {
  const ask = () =>
    ctx.term.secret('Provider API key (input hidden): ', 'pipe the provider key in with --api-key-stdin, or set WSCTL_BYOK_API_KEY');
  let key: string;
  if (opts.apiKey !== undefined) return checkKey(opts.apiKey);
  // --api-key-stdin on a terminal would echo the key as it is typed: ask with input hidden
  // instead, as `auth login --with-key` does.
  if (opts.apiKeyStdin) key = ctx.term.stdinIsTTY ? await ask() : await ctx.term.readInputLine();
  else if (ctx.env.WSCTL_BYOK_API_KEY) key = ctx.env.WSCTL_BYOK_API_KEY;
  else key = await ask();
  return checkKey(key);
}

function checkKey(given: string): string {
  const key = given.trim();
  if (key === '' || /\s/.test(key)) throw new UsageError('The provider key is empty or contains whitespace.', { reason: 'invalid_input' });
  if (/\p{Cc}/u.test(key)) throw new UsageError('The provider key contains control characters.', { reason: 'invalid_input' });
  return key;
}

export function checkProviderUrl(raw: string, name = '--provider-url'): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new UsageError(`Invalid ${name} '${maskUrlPassword(raw)}': give an http:// or https:// URL.`, { reason: 'invalid_input' });
  }
  // The provider key would cross the network in clear, as the API key would (cli.md §5, §7).
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(
      `Refusing plain http:// to ${url.hostname} for --provider-url: the provider key would cross the network in clear. Use https://, or http:// only to a loopback host.`,
      { reason: 'insecure_url' },
    );
  }
  return raw;
}

export async function run(opts: AddOptions, ctx: Ctx): Promise<Call> {
  // A dry run shows the request with the key masked: it needs none (cli.md §1), so it asks for none.
  const noKeyGiven = opts.apiKey === undefined && !opts.apiKeyStdin && !ctx.env.WSCTL_BYOK_API_KEY;
  const apiKey = ctx.dryRun && noKeyGiven ? '<provider key>' : await providerKey(opts, ctx);
  return call({
    request: request('addByok', {
      body: { name: opts.name, base_url: opts.providerUrl, api_key: apiKey, format: opts.format, model_id: opts.model },
    }),
    spinner: 'Registering model',
    answer: ({ body }) => registered(opts, body),
  });
}

function registered(opts: AddOptions, body: Response<'ByokConfig'>): Result {
  // The provider key and the password of the provider URL are masked in all output (cli.md §3).
  const shown = opts.showSecret
    ? body
    : {
        ...body,
        ...(body.api_key ? { api_key: mask(body.api_key) } : {}),
        ...(typeof body.base_url === 'string' ? { base_url: maskUrlPassword(body.base_url) } : {}),
      };
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
