// argv → options for every verb, with no network (gh's TestNewCmd… layer): each verb's argv gives
// the typed options its run() receives, recorded without running anything; each missing or bad
// value ends with exit 2 and one exact line on stderr, and nothing is sent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Option } from 'commander';
import { GLOBAL_OPTIONS, type Globals } from '../../src/common/globals.js';
import { declaredNouns } from '../../src/cli/program.js';
import { verbPaths } from '../../src/common/visible.js';
import { optionsOf, recordingProgram } from '../argv.js';
import { samplesOf, VERBS } from '../endpoints.js';
import { run, tempDir } from '../helpers.js';
import { flagsOf } from '../../src/verbs/invoke.js';

/**
 * Verbs with the options argv gives them, flags and aliases included. Every verb's samples are
 * checked below from its declaration; a noun's own test may hold its verbs' rows (optionsOf).
 */
const parsed: [args: string[], verb: string, opts: Record<string, unknown>][] = [
  [['auth', 'login'], 'auth login', { verify: true }],
  [
    ['auth', 'login', '--with-key', '--no-verify', '--insecure-storage'],
    'auth login',
    { withKey: true, verify: false, insecureStorage: true },
  ],
  [['auth', 'status'], 'auth status', { all: false }],
  [['auth', 'status', '--all'], 'auth status', { all: true }],
  [['auth', 'token'], 'auth token', {}],
  [['auth', 'switch', 'work'], 'auth switch', { name: 'work' }],
  [['auth', 'switch'], 'auth switch', {}],
  [['auth', 'logout', '--all'], 'auth logout', { all: true }],
  [['auth', 'logout'], 'auth logout', { all: false }],
  [['profile', 'list'], 'profile list', {}],
  [['profile', 'ls'], 'profile list', {}],
  [['profile', 'use', 'work'], 'profile use', { name: 'work' }],
  [['profile', 'rm', 'work'], 'profile rm', { name: 'work' }],
  [['profile', 'pin', 'work'], 'profile pin', { name: 'work' }],
  [['alias', 'set', 'ks', 'keys list'], 'alias set', { name: 'ks', expansion: 'keys list' }],
  [['alias', 'list'], 'alias list', {}],
  [['alias', 'ls'], 'alias list', {}],
  [['alias', 'rm', 'ks'], 'alias rm', { name: 'ks' }],
  [['profile', 'unpin'], 'profile unpin', {}],
  [['profile', 'agents', 'work', 'read-only'], 'profile agents', { name: 'work', policy: 'read-only' }],
  [['profile', 'agents', 'work', 'no-destructive'], 'profile agents', { name: 'work', policy: 'no-destructive' }],
  [['keys', 'create', 'ci', '--save-as', 'ci', '--force'], 'keys create', { name: 'ci', saveAs: 'ci', force: true }],
  [['keys', 'create', 'ci', '--save-as', 'ci', '--insecure-storage'], 'keys create', { name: 'ci', saveAs: 'ci', insecureStorage: true }],
  [['keys', 'list'], 'keys list', {}],
  [['ids'], 'ids', { kind: undefined }],
  [['ids', 'persona', '--json'], 'ids', { kind: 'persona' }],
  [['ids', 'forget', 'conversation', 'conv_demo'], 'ids forget', { kind: 'conversation', id: 'conv_demo' }],
  [['ids', 'forget'], 'ids forget', { kind: undefined, id: undefined }],
  [['conn', 'rm', 'gmail'], 'conn rm', { appSlug: 'gmail', connId: undefined, yes: false }],
  [['keys', 'ls', '--json'], 'keys list', {}],
  [['settings'], 'settings', {}],
  [['caps'], 'caps', {}],
  [
    ['convo', 'show', 'conv_demo'],
    'convo show',
    { id: 'conv_demo', tail: undefined, markdown: false, pager: true, full: false, follow: false, intervalMs: undefined },
  ],
  [
    ['convo', 'show', 'conv_demo', '--tail', '3', '--markdown', '--no-pager', '--full'],
    'convo show',
    { id: 'conv_demo', tail: 3, markdown: true, pager: false, full: true },
  ],
  [['convo', 'show', 'conv_live', '-f', '--interval', '0.5'], 'convo show', { id: 'conv_live', follow: true, intervalMs: 500 }],
  [['convo', 'show', 'conv_live', '--follow', '--interval', '0.1'], 'convo show', { follow: true, intervalMs: 500 }],
  [
    ['notes', 'import', 'page_demo', '--title', 'T', '--to', 'a/b', '--account', 'acc'],
    'notes import',
    { pageId: 'page_demo', title: 'T', to: ['a', 'b'], account: 'acc' },
  ],
  [
    ['conn', 'set-permission', 'gmail', 'pdc_gmail', 'read'],
    'conn set-permission',
    { appSlug: 'gmail', connId: 'pdc_gmail', permission: 'read' },
  ],
  [['conn', 'rm', 'gmail', 'pdc_gmail', '--yes'], 'conn rm', { appSlug: 'gmail', connId: 'pdc_gmail', yes: true }],
  [
    ['byok', 'add', '--name', 'n', '--provider-url', 'https://p.example', '--format', 'groq', '--model', 'm', '--api-key-stdin'],
    'byok add',
    { name: 'n', providerUrl: 'https://p.example', format: 'groq', model: 'm', apiKeyStdin: true, showSecret: false },
  ],
  [['device', 'rm', 'dev_phone'], 'device rm', { deviceId: 'dev_phone', yes: false }],
  [['device', 'remove', 'dev_phone', '-y'], 'device rm', { deviceId: 'dev_phone', yes: true }],
  [['persona', 'versions', 'persona_demo'], 'persona versions', { personaId: 'persona_demo' }],
  [['persona', 'upload-avatar', 'a.png'], 'persona upload-avatar', { file: 'a.png' }],
  [['pub', 'rm', 'pub_demo', '--yes'], 'pub rm', { pubId: 'pub_demo', yes: true }],
  [
    ['site', 'create', 'launch', '--variant', 'blog', '--parent', 'a/b', '--force', '--display-name', 'L'],
    'site create',
    { name: 'launch', variant: 'blog', parent: ['a', 'b'], force: true, displayName: 'L' },
  ],
  [['api', '/settings/'], 'api', { path: '/settings/', fields: [] }],
  [
    ['api', '-X', 'patch', '/x', '-f', 'a=1', '-f', 'b=2'],
    'api',
    {
      path: '/x',
      method: 'PATCH',
      fields: [
        ['a', '1'],
        ['b', '2'],
      ],
    },
  ],
  [['completion', 'zsh'], 'completion', { shell: 'zsh' }],
  [['sandbox', 'serve'], 'sandbox serve', { port: undefined, host: '127.0.0.1' }],
  [
    ['sandbox', 'serve', '--port', '8787', '--state', 'ws.json', '--detach'],
    'sandbox serve',
    { port: 8787, state: 'ws.json', detach: true },
  ],
  [['sandbox', 'stop'], 'sandbox stop', {}],
  [['sandbox', 'reset'], 'sandbox reset', {}],
  [['mcp'], 'mcp', {}],
  [['mcp', '--read-only', '--show-secrets'], 'mcp', { readOnly: true, showSecrets: true }],
  [['mcp', 'config', '--allow-destructive'], 'mcp config', { allowDestructive: true, client: 'claude-desktop', noConfirm: false }],
  [['mcp', '--no-confirm', '--upload-dir', 'pics'], 'mcp', { noConfirm: true, uploadDir: 'pics', readOnly: false }],
  [['mcp', 'config', '--client', 'zed', '--read-only'], 'mcp config', { client: 'zed', readOnly: true, uploadDir: undefined }],
  [
    ['mcp', 'install', '--client', 'vscode', '--config', 'mcp.json', '--no-confirm'],
    'mcp install',
    { client: 'vscode', config: 'mcp.json', noConfirm: true },
  ],
  [['mcp', 'uninstall', '--client', 'cursor'], 'mcp uninstall', { client: 'cursor', config: undefined }],
];

describe('argv → options', () => {
  it.each(parsed)('%j', async (args, verb, opts) => {
    const got = await optionsOf(args);
    expect(got.verb).toBe(verb);
    expect(got.opts).toMatchObject(opts);
  });

  it('global options are declared once, keyed by the name of their value', async () => {
    for (const [key, spec] of Object.entries(GLOBAL_OPTIONS)) expect(new Option(spec.flags).attributeName(), spec.flags).toBe(key);
    const got = await optionsOf([
      '--profile',
      'p',
      '--base-url',
      'https://x.example',
      '--json',
      '--no-color',
      '--debug',
      '--timeout',
      '3',
      '--dry-run',
      '--sandbox',
      '--jq',
      '.',
      '--no-input',
      'caps',
    ]);
    expect(got.verb).toBe('caps');
    expect(got.globals).toEqual({
      profile: 'p',
      baseUrl: 'https://x.example',
      json: true,
      color: false,
      debug: true,
      timeout: '3',
      dryRun: true,
      sandbox: true,
      jq: '.',
      input: false,
    } satisfies Required<Globals>);
    expect((await optionsOf(['caps'])).globals).toEqual({ color: true, input: true });
  });

  it.each(VERBS.map((v) => [v.path.join(' '), v] as const))(
    "%s: the declaration's samples parse to it, with the options its flags declare",
    async (name, v) => {
      for (const args of samplesOf(v)) {
        const got = await optionsOf(args);
        expect(got.verb, args.join(' ')).toBe(name);
        // A verb that deletes takes --yes whether it declares it or not (src/verbs/invoke.ts flagsOf).
        const keys = [...Object.keys(v.verb.args ?? {}), ...flagsOf(v.verb).map(([key]) => key)].sort();
        expect(Object.keys(got.opts as object).sort(), args.join(' ')).toEqual(keys);
      }
    },
  );

  it("the root's one-line description of each noun is the noun's declared summary", async () => {
    for (const noun of await declaredNouns()) {
      expect(noun.declared.name, noun.name).toBe(noun.name);
      expect(noun.declared.summary ?? noun.declared.self?.summary, noun.name).toBe(noun.description);
    }
  });

  it('the tree has no command that is not declared', async () => {
    const { program } = await recordingProgram();
    const declared = new Set(VERBS.map((v) => v.path.join(' ')));
    expect(verbPaths(program).filter((v) => !declared.has(v))).toEqual([]);
  });
});

// A server that fails the test if anything reaches it.
let hits = 0;
const server = createServer((_req, res) => {
  hits++;
  res.end('{}');
});
let env: Record<string, string>;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = {
    WSCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    WSCTL_API_KEY: 'wsk_argv_test_key',
    WSCTL_CONFIG_DIR: tempDir(),
  };
});
afterAll(() => server.close());

/** A folder that does not exist, for --state. */
const MISSING = `${tempDir()}/typo`;

const cases: [args: string[], message: string][] = [
  [['key', 'list'], "Error: unknown command 'key'. Did you mean 'keys'? Run `wsctl --help` for usage."],
  [['keys', 'lst'], "Error: unknown command 'lst'. Did you mean 'list'? Run `wsctl keys --help` for usage."],
  [['keys', 'list', '--jsn'], "Error: Unknown option '--jsn'. Did you mean '--json'? Run `wsctl keys list --help` for usage."],
  [['--profile', 'local', 'api', '/x', '--bad'], "Error: Unknown option '--bad'. Run `wsctl api --help` for usage."],
  [['keys', 'create'], "Error: Missing required argument 'name'. Run `wsctl keys create --help` for usage."],
  [['keys', 'create', ' '], 'Error: The key name must not be empty.'],
  [['keys', 'create', 'k', '--save-as', '-bad'], "Error: Invalid profile name '-bad': use letters, digits, '.', '_' or '-' (at most 64)."],
  [
    ['convo', 'show'],
    "Error: Missing required argument 'conversation_id'. `wsctl caps` shows conversation ids (its text numbers), and `wsctl ids conversation` lists those seen before.",
  ],
  [['convo', 'show', 'c', '--tail', 'x'], "Error: Invalid --tail 'x': give a whole number of messages."],
  [['convo', 'show', ' '], 'Error: conversation_id must not be empty.'],
  [['notes', 'import', 'p', '--to', 'a/../b'], "Error: Invalid --to 'a/../b': give folder names separated by '/', without '.' or '..'."],
  [
    ['conn', 'set-permission', 'gmail', 'pdc_gmail'],
    "Error: Missing required argument 'permission'. Run `wsctl conn set-permission --help` for usage.",
  ],
  [['conn', 'rm', 'gmail', ''], 'Error: pd_conn_id must not be empty.'],
  // A noun's own option, which commander parses wherever it stands, given to a verb that would ignore it.
  [
    ['mcp', 'uninstall', '--client', 'cursor', '--read-only'],
    'Error: --read-only is an option of `wsctl mcp`, which `wsctl mcp uninstall` does not take. Run `wsctl mcp uninstall --help` for usage.',
  ],
  [
    ['mcp', '--upload-dir', '/tmp', 'uninstall', '--client', 'cursor'],
    'Error: --upload-dir is an option of `wsctl mcp`, which `wsctl mcp uninstall` does not take. Run `wsctl mcp uninstall --help` for usage.',
  ],
  [['byok', 'add'], 'Error: Missing required options --name, --provider-url, --format, --model. Run `wsctl byok add --help` for usage.'],
  [
    ['byok', 'add', '--name', 'x', '--format', 'openai'],
    'Error: Missing required options --provider-url, --model. Run `wsctl byok add --help` for usage.',
  ],
  [
    ['byok', 'add', '--name', 'x', '--provider-url', 'p', '--format', 'gpt', '--model', 'm'],
    "Error: Option '--format <format>' argument 'gpt' is invalid. Allowed choices are openai, anthropic, groq. Run `wsctl byok add --help` for usage.",
  ],
  [
    ['byok', 'add', '--name', 'x', '--provider-url', 'ftp://p', '--format', 'groq', '--model', 'm'],
    "Error: Invalid --provider-url 'ftp://p': give an http:// or https:// URL.",
  ],
  [['device', 'rm'], "Error: Missing required argument 'device_id'. Run `wsctl device rm --help` for usage."],
  [['device', 'rm', 'dev_x'], "Error: No terminal to ask on: pass --yes to remove device 'dev_x'."],
  [['pub', 'rm', 'p', '--no-input'], "Error: Prompts are off (--no-input or WSCTL_NO_INPUT=1): pass --yes to remove publication 'p'."],
  [['persona', 'versions', ''], 'Error: persona_id must not be empty.'],
  [['persona', 'upload-avatar', '/nonexistent.png'], 'Error: Cannot read /nonexistent.png: no such file.'],
  [
    ['site', 'create', 'x', '--variant', 'nope'],
    "Error: Option '--variant <variant>' argument 'nope' is invalid. Allowed choices are blank, blog, event, slides, data, marketing. Run `wsctl site create --help` for usage.",
  ],
  [['site', 'create', 'x', '--parent', '/'], "Error: Invalid --parent '/': give folder names separated by '/', without '.' or '..'."],
  [['api', '/x', '-X', 'TRACE'], "Error: Invalid method 'TRACE': use one of GET, POST, PUT, PATCH, DELETE, HEAD."],
  [['api', '/x', '-f', 'novalue'], "Error: Invalid field 'novalue': use key=value."],
  [['api', 'https://elsewhere.example/x'], 'Error: Give a path below the base URL, not a full URL.'],
  [
    ['completion', 'tcsh'],
    "Error: Value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish. Run `wsctl completion --help` for usage.",
  ],
  [['keys', 'list', '--timeout', '0'], "Error: Invalid timeout '0': give a number of seconds above 0 and at most 86400."],
  [['keys', 'list', '--timeout', '-1'], "Error: Invalid timeout '-1': give a number of seconds above 0 and at most 86400."],
  [['keys', 'list', '--timeout', '1e9'], "Error: Invalid timeout '1e9': give a number of seconds above 0 and at most 86400."],
  [['sandbox', 'serve', '--port', '70000'], "Error: Invalid port '70000': give 0-65535."],
  [['convo', 'show', 'c', '--tail', '-1'], "Error: Invalid --tail '-1': give a whole number of messages."],
  [['convo', 'show', 'c', '--follow', '--interval', '0.1x'], "Error: Invalid --interval '0.1x': give a number of seconds (at least 0.5)."],
  [['convo', 'show', 'c', '--interval', '1'], 'Error: --interval goes with --follow.'],
  [['api', '/x', '--input', '/nonexistent'], 'Error: Cannot read /nonexistent: no such file.'],
  [['api', '/x', '-f', 'a=1', '--input', 'x.json'], 'Error: Use --field or --input, not both.'],
  [['api', '/../x'], "Error: Invalid path '/../x': it climbs above the base URL."],
  [['sandbox', 'serve', '--host', '0.0.0.0'], "Error: The sandbox listens on loopback only; '0.0.0.0' is not a loopback address."],
  [['sandbox', 'serve', '--port', 'x'], "Error: Invalid port 'x': give 0-65535."],
  [['completion'], "Error: Missing required argument 'shell'. Run `wsctl completion --help` for usage."],
  [['notes', 'import', 'p', '--account', ''], 'Error: --account must not be empty.'],
  [['--sandbox', 'auth', 'login'], 'Error: `auth login` stores a key for a real service; --sandbox needs none.'],
  [['profile', 'rm', 'nope'], "Error: No profile 'nope'. There are no profiles yet. Create one with `wsctl auth login --profile nope`."],
  [['profile', 'use'], "Error: Missing required argument 'name'. Run `wsctl profile use --help` for usage."],
  [['profile', 'agents', 'work'], "Error: Missing required argument 'policy'. Run `wsctl profile agents --help` for usage."],
  [
    ['profile', 'agents', 'work', 'readonly'],
    "Error: Value 'readonly' is invalid for argument 'policy'. Allowed choices are full, no-destructive, read-only. Did you mean 'read-only'? Run `wsctl profile agents --help` for usage.",
  ],
  [['profile', 'agents', 'a b', 'full'], "Error: Invalid profile name 'a b': use letters, digits, '.', '_' or '-' (at most 64)."],
  [['keys', 'create', 'k', '--save-as'], "Error: Option '--save-as <profile>' argument missing. Run `wsctl keys create --help` for usage."],
  [['keys', 'create', 'k', '--force'], 'Error: --force goes with --save-as: without it no key is saved.'],
  [['keys', 'create', 'k', '--insecure-storage'], 'Error: --insecure-storage goes with --save-as: without it no key is saved.'],
  [
    ['keys', 'create', 'k', '--insecure-storage', '--force'],
    'Error: --force and --insecure-storage go with --save-as: without it no key is saved.',
  ],
  [['site', 'create', ''], 'Error: The site name must not be empty.'],
  [['mcp', 'install'], 'Error: Missing required option --client. Run `wsctl mcp install --help` for usage.'],
  [
    ['mcp', 'uninstall', '--client', 'notepad'],
    "Error: Option '--client <name>' argument 'notepad' is invalid. Allowed choices are claude-desktop, claude-code, cursor, vscode, windsurf, zed, codex, gemini-cli, opencode. Run `wsctl mcp uninstall --help` for usage.",
  ],
  [['mcp', 'config', '--read-only', '--allow-destructive'], 'Error: --read-only and --allow-destructive cannot be used together.'],
  [['--timeout', '5', '--profile'], "Error: Option '--profile <name>' argument missing. Run `wsctl --help` for usage."],
  [
    ['site', 'create', 'x', '--variant', 'blgo'],
    "Error: Option '--variant <variant>' argument 'blgo' is invalid. Allowed choices are blank, blog, event, slides, data, marketing. Did you mean 'blog'? Run `wsctl site create --help` for usage.",
  ],
  [
    ['completion', 'bahs'],
    "Error: Value 'bahs' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish. Did you mean 'bash'? Run `wsctl completion --help` for usage.",
  ],
  [
    ['sandbox', 'serve', '--state', `${MISSING}/x.json`],
    `Error: The folder of --state '${MISSING}/x.json' does not exist (${MISSING}): create it first, or give a file in an existing folder.`,
  ],
  [
    ['profile', 'use', 'constructor'],
    "Error: No profile 'constructor'. There are no profiles yet. Create one with `wsctl auth login --profile constructor`.",
  ],
];

describe('argv → options, with no network', () => {
  it.each(cases)('%j', async (args, message) => {
    const r = await run(args, { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${message}\n`);
    expect(hits).toBe(0);
  });

  it('the same errors under --json are one JSON document on stderr, with nothing on stdout', async () => {
    const r = await run(['key', 'list', '--json'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        message: "unknown command 'key'. Did you mean 'keys'? Run `wsctl --help` for usage.",
        exit_code: 2,
        reason: 'usage',
        next: [{ command: 'wsctl keys list --json', why: "'key' is not a command; 'keys' is." }],
      },
    });
  });

  it('help [command...] prints the same help as --help', async () => {
    for (const words of [[], ['keys'], ['keys', 'create'], ['sandbox', 'serve']]) {
      const viaHelp = await run(['help', ...words], { env });
      const viaFlag = await run([...words, '--help'], { env });
      expect(viaHelp.code, words.join(' ')).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaHelp.stdout).toContain(`Usage: wsctl ${words.join(' ')}`.trim());
    }
  });

  it("a verb's help lists its own options first, then the global ones in a section of their own", async () => {
    const r = await run(['byok', 'add', '--help'], { env: { ...env, COLUMNS: '80' } });
    const text = r.stdout;
    expect(text.indexOf('--provider-url')).toBeLessThan(text.indexOf('Global Options:'));
    expect(text.indexOf('Global Options:')).toBeLessThan(text.indexOf('--no-input'));
    expect(text).toMatch(/--name <name> +a name for the configuration \(required\)/);
    expect(text).toContain('hidden prompt on a terminal');
    for (const line of text.split('\n')) if (!line.trimStart().startsWith('$ ')) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});

describe('hints name the profile and source in use', () => {
  it('--profile nope says the profile does not exist and lists the profiles', async () => {
    const dir = tempDir();
    await run(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'work'], {
      env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: 'https://api.example.com' },
      stdin: 'wsk_work_key_1234',
    });
    const r = await run(['--profile', 'nope', 'keys', 'list'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe("Error: No profile 'nope'. Profiles: work. Create it with `wsctl auth login --profile nope --base-url <url>`.\n");
  });

  it('a first run with nothing configured mentions --sandbox once', async () => {
    const r = await run(['keys', 'list'], { env: { WSCTL_CONFIG_DIR: tempDir() } });
    expect(r.code).toBe(4);
    expect(r.stderr.match(/--sandbox/g)).toHaveLength(1);
  });
});
