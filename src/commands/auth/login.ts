import { checkBaseUrl, givenKey } from '../../http/index.js';
import { call, defineVerb, flag, wouldChange, type Call, type Ctx, type Result } from '../../verbs/declare.js';
import { checkProfileName } from '../../config/index.js';
import { storeKey } from '../../config/keys.js';
import { AuthError, UsageError } from '../../errors.js';
import { request } from '../../service.js';
import { mask } from '../../terminal/index.js';
import { checkKeyShape } from './shared.js';

export interface LoginOptions {
  withKey: boolean;
  verify: boolean;
  insecureStorage: boolean;
}

export const login = defineVerb({
  name: 'login',
  summary:
    'Store an API key and the base URL in effect in the profile; on a terminal it asks for what is missing (the base URL, then the key, input hidden)',
  flags: {
    withKey: flag('--with-key', 'read the key from standard input (first line)'),
    verify: flag('--no-verify', 'save without checking the key with the service'),
    insecureStorage: flag('--insecure-storage', 'store the key in config.json instead of the OS credential store'),
  },
  examples: [
    'wsctl auth login --base-url https://api.example.com',
    'echo "$WS_KEY" | wsctl auth login --with-key --profile work --base-url https://api.example.com',
    'wsctl auth login --with-key --no-verify < key.txt',
  ],
  // The key is checked with a list of keys (not with --no-verify), sent with the new key.
  endpoints: ['listKeys'],
  ownKey: true,
  mcp: { none: 'credentials: an agent neither logs in nor reads keys' },
  sample: ['auth', 'login', '--with-key', '--insecure-storage'],
  run,
});

async function readKey(opts: LoginOptions, ctx: Ctx): Promise<string> {
  // --with-key on a terminal would echo the key as it is typed: ask with input hidden instead
  // (and where prompts are off, say how to pipe it).
  if (opts.withKey && !ctx.term.stdinIsTTY) return (await ctx.term.readInputLine()).replace(/\r$/, '');
  return ctx.term.secret(
    'Paste your API key (input hidden): ',
    'pipe the key in with --with-key, e.g. `echo "$KEY" | wsctl auth login --with-key`',
  );
}

/** The base URL in effect, else (on a terminal) asked for before the key. */
async function baseUrlFor(profile: string, ctx: Ctx): Promise<string> {
  const known = ctx.resolution().baseUrl;
  if (known) return known;
  const how = `pass --base-url <url> (or set WSCTL_BASE_URL), e.g. \`wsctl auth login --profile ${profile} --base-url https://api.example.com\``;
  if (!ctx.term.stdinIsTTY || !ctx.term.stderrIsTTY) throw new AuthError(`No base URL for profile '${profile}': ${how}.`);
  const answer = (await ctx.term.ask('Base URL of the service (e.g. https://api.example.com): ', how)).trim();
  if (!answer) throw new UsageError(`No base URL given: ${how}.`);
  return answer;
}

export async function run(opts: LoginOptions, ctx: Ctx): Promise<Result | Call> {
  if (ctx.sandbox) throw new UsageError('`auth login` stores a key for a real service; --sandbox needs none.');
  // The old key is never read: a store that is locked or lost the entry cannot stop its replacement.
  const profile = checkProfileName(ctx.resolution().profile);
  const baseUrl = await baseUrlFor(profile, ctx);
  checkBaseUrl(baseUrl);
  const key = checkKeyShape(await readKey(opts, ctx));
  if (ctx.dryRun) return wouldSave(opts, ctx, profile, baseUrl, key);
  if (!opts.verify) return save(opts, ctx, profile, baseUrl, key);
  return call({
    request: request('listKeys'),
    client: await ctx.api({ credential: givenKey(key), baseUrl }),
    spinner: 'Checking the key',
    answer: () => save(opts, ctx, profile, baseUrl, key),
    otherwise(error) {
      if (error instanceof AuthError)
        throw new AuthError(`The service rejected this key (HTTP ${error.status}); nothing was saved.`, error);
      throw error;
    },
  });
}

async function save(opts: LoginOptions, ctx: Ctx, profile: string, baseUrl: string, key: string): Promise<Result> {
  const storage = await storeKey(
    ctx.config,
    ctx.storeEntry(profile),
    { baseUrl, key, insecure: opts.insecureStorage, makeCurrent: true, signal: ctx.signal },
    (m) => ctx.term.warn(m),
    (line) => ctx.debug && ctx.term.trace(`credential store: ${line}`),
  );
  const summary = { profile, base_url: baseUrl, key: mask(key) };
  const where = storage === 'keyring' ? 'the credential store' : ctx.config.path;
  return {
    json: summary,
    human: (out) =>
      out.done(
        `Logged in to ${baseUrl} as profile '${profile}' (key ${summary.key}${opts.verify ? '' : ', not verified'}, stored in ${where}).`,
      ),
  };
}

/** --dry-run: the check it would send (the key redacted), then what it would save; nothing is written or stored. */
async function wouldSave(opts: LoginOptions, ctx: Ctx, profile: string, baseUrl: string, key: string): Promise<Result> {
  const check = opts.verify ? (await ctx.api({ credential: givenKey(key), baseUrl })).plan(request('listKeys')) : undefined;
  const storage = opts.insecureStorage ? 'file' : 'keyring';
  const where = opts.insecureStorage ? ctx.config.path : `the credential store (or ${ctx.config.path} where none can be reached)`;
  const becomesCurrent = ctx.config.read().current_profile === undefined ? ', and make it the current profile' : '';
  const what = `as profile '${profile}' (base URL ${baseUrl}, key ${mask(key)}${opts.verify ? '' : ', not verified'}) in ${where}${becomesCurrent}.`;
  return wouldChange(
    { profile, base_url: baseUrl, key: mask(key), key_storage: storage },
    opts.verify ? `If the service accepts the key, would save it ${what}` : `Would save the key ${what}`,
    check,
  );
}
