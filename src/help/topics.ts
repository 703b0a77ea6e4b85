// The help topics (`wsctl help environment`, `exit-codes`, `formatting`, `config`) as data: the
// same rows print as help, become the man page's ENVIRONMENT, EXIT STATUS and FILES sections
// and the README's tables, so none of them can say something the others do not.
// Text may quote code in `backticks`: each rendering shows it its own way.
import { AGENT_VARIABLES } from '../common/agent.js';
import { REASONS, type Reason } from '../errors.js';

export interface Setting {
  /** The flag, when there is one. */
  flag?: string;
  /** The environment variables, with the value that turns a boolean on (`WSCTL_DEBUG=1`). */
  env?: string[];
  meaning: string;
}

export interface Topic {
  name: string;
  /** One line, for lists of topics. */
  summary: string;
  /** Paragraphs before the rows. */
  intro: string[];
  /** Two columns: a term and what it means. */
  rows: [string, string][];
  /** Paragraphs after the rows. */
  outro?: string[];
}

/** Every flag and variable that sets something, in the README's order: the README's configuration table. */
export const SETTINGS: Setting[] = [
  {
    flag: '--profile <name>',
    env: ['WSCTL_PROFILE'],
    meaning:
      'config profile (default: the pin file `.wsctl-profile` of this folder or one above it, else the current profile, else `default`)',
  },
  {
    flag: '--base-url <url>',
    env: ['WSCTL_BASE_URL'],
    meaning:
      "service base URL; overrides the profile's. A stored key goes only to the origin (scheme, host, port) it was stored with: another is exit 4, nothing sent",
  },
  {
    env: ['WSCTL_API_KEY'],
    meaning: "API key; overrides the profile's stored key (for CI) and goes to whatever base URL is in effect; never written to disk",
  },
  {
    env: ['WSCTL_CONFIG_DIR'],
    meaning:
      'folder of `config.json` (default: Linux `$XDG_CONFIG_HOME/wsctl` or `~/.config/wsctl`; macOS `~/Library/Preferences/wsctl`; Windows `%APPDATA%\\wsctl`); a value starting with a literal `~` (no shell expanded it) is exit 2',
  },
  { flag: '--json', meaning: 'machine output: one JSON document on stdout' },
  {
    flag: '--jq <expression>',
    meaning: 'filter the JSON output with the jq language (jq 1.8, built in; no `jq` needed); implies `--json`',
  },
  {
    flag: '--no-input',
    env: ['WSCTL_NO_INPUT=1'],
    meaning: 'never prompt: where a prompt would be needed, exit 2 naming the flag or variable that answers it',
  },
  {
    flag: '--no-color',
    env: ['NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE'],
    meaning:
      'colour only on a TTY whose `TERM` is not `dumb`; `FORCE_COLOR` or `CLICOLOR_FORCE` (not `0`) forces it; `FORCE_COLOR=0` or `CLICOLOR=0` turns it off; `--no-color` and a non-empty `NO_COLOR` win over everything; `CI` changes nothing',
  },
  { flag: '--debug', env: ['WSCTL_DEBUG=1'], meaning: 'trace every HTTP exchange on stderr, secrets redacted' },
  {
    flag: '--timeout <seconds>',
    env: ['WSCTL_TIMEOUT'],
    meaning:
      'the longest wait without progress in each attempt: for the answer to start (connecting included), then between two pieces of the body, so a large body that keeps arriving is never cut; any positive number of seconds up to 86400 (default 30)',
  },
  {
    flag: '--dry-run',
    meaning:
      'print the request (method, URL, headers, body; secrets redacted) and send nothing; a command that changes local state (`auth login`, `auth logout`, `profile use`, `auth switch`, `profile pin`, `profile unpin`, `profile agents`, `profile rm`, `alias set`, `alias rm`, `sandbox serve`, `sandbox stop`, `sandbox reset`) prints what it would change and changes nothing',
  },
  { flag: '--sandbox', env: ['WSCTL_SANDBOX=1'], meaning: 'use the embedded sandbox instead of a remote service' },
  {
    env: ['WSCTL_PAGER', 'PAGER'],
    meaning:
      'pager of `convo show` on a TTY (default `less -FRX`, with `LESS=FRX` unless `LESS` is set, and none when `TERM=dumb` or in accessible mode; `--no-pager` turns it off). One that cannot be started (not installed) is skipped with one warning and the output printed directly; one that exits with a failure makes the command exit 1',
  },
  { env: ['COLUMNS'], meaning: "the width tables and help fit (default: the terminal's own)" },
  { env: ['PATH'], meaning: "where the pager is looked up before it is started, as the shell would (the shell's default when unset)" },
  { env: ['WSCTL_BYOK_API_KEY'], meaning: 'provider key for `byok add` when not piped with `--api-key-stdin`' },
  { env: ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'], meaning: 'proxies, honoured (lower-case forms too)' },
  {
    env: ['WSCTL_AGENT'],
    meaning:
      "wsctl runs under an AI agent of that name (`claude-code`); `0`, `false`, `no` or `off` says it does not, whatever else is set; `1`, `true`, `yes` or `on` says it does, named by the variables below or `unknown`. Under an agent: never a prompt (as `--no-input`), a pager or a spinner, `User-Agent: wsctl/<version> agent/<name>`, and the profile's agent policy applies (`wsctl profile agents`)",
  },
  {
    env: ['AI_AGENT'],
    meaning:
      'the name of the AI agent running wsctl, when `WSCTL_AGENT` is unset (a name keeps `A-Z a-z 0-9 . _ -`, at most 32 characters)',
  },
  {
    env: AGENT_VARIABLES.map(([variable]) => variable),
    meaning: `set (to anything but empty, \`0\` or \`false\`) by an AI agent for the commands it runs, naming it (${AGENT_VARIABLES.map(([variable, name]) => `\`${variable}\`: \`${name}\``).join(', ')}); read after \`WSCTL_AGENT\` and \`AI_AGENT\``,
  },
  {
    env: ['WSCTL_ACCESSIBLE=1', 'ACCESSIBLE'],
    meaning:
      'accessible mode, for screen readers and braille displays (also `"accessible": true` in `config.json`); `ACCESSIBLE`, shared with other programs, is on for any value but empty, `0`, `false`, `no` or `off`, and never an error. Nothing is redrawn: a list to choose from is printed once, numbered, and answered by typing a number; a spinner is one line when the work starts and `still working: …` every 30 seconds; a destructive confirmation asks to type the target\'s id (anything else cancels); `done:` and `warning:` in words instead of symbols; no colour',
  },
  {
    env: ['TERM'],
    meaning:
      '`dumb`: no escape sequences at all (no colour or other styling, no spinner, no cursor movement); a list to choose from is the numbered list of accessible mode',
  },
  { env: ['CI'], meaning: 'when set, no spinners (colour is not changed by it)' },
  {
    env: ['TMPDIR'],
    meaning: 'where `convo show` spools a large transcript while it waits for the header (the file is deleted as soon as it is opened)',
  },
  {
    env: ['APPDATA', 'USERPROFILE'],
    meaning: "on Windows, where `mcp install` finds each MCP client's config file (`%APPDATA%`, the home folder)",
  },
  { env: ['CODEX_HOME'], meaning: "Codex's folder, where `mcp install --client codex` finds `config.toml` (default `~/.codex`)" },
  {
    env: ['XDG_CACHE_HOME'],
    meaning:
      "wsctl's cache folder is `$XDG_CACHE_HOME/wsctl` (default `~/.cache/wsctl`): the ids it remembers (`wsctl ids`) and V8's compiled code of wsctl (code caches of the program, one per noun and one for `wsctl mcp`'s server, of the modules it shares with the TAB answerer and of the jq engine, one file each per Node version and build; and Node's compile cache on Node 22 and later)",
  },
  { env: ['WSCTL_NO_HISTORY=1'], meaning: 'remember no ids, and offer none to TAB or in a list (`wsctl ids`)' },
  {
    env: ['NODE_OPTIONS'],
    meaning:
      "Node's own options, which Node reads; wsctl reads `--max-http-header-size` there too, Node's limit on a response's headers (16 KiB unless set), which its requests keep",
  },
  {
    env: ['NODE_DISABLE_COMPILE_CACHE=1'],
    meaning: "Node's switch for its compile cache: wsctl keeps no code cache of its own either (slower starts, same behaviour)",
  },
  {
    env: ['WSCTL_RETRY_BASE_MS', 'WSCTL_MAX_RESPONSE_MB'],
    meaning: 'for tests: the first retry delay, and the bound on a response body (default 256)',
  },
];

/** Boolean variables take these values, in any case. */
export const BOOLEAN_VALUES =
  'on for `1`, `true`, `yes` or `on`, off for `0`, `false`, `no`, `off` or empty (any case, white space around ignored); any other value is exit 2';

/** What each `reason` word of an error document means (cli.md §4); errors.ts gives each its exit code. */
export const REASON_MEANINGS: Record<Reason, string> = {
  service_error: 'the service refused or failed',
  service_failure: 'a 2xx body reporting failure',
  output_lost: 'the output could not be written',
  local_error: 'wsctl failed on its own: a file it reads or writes cannot be used, or an internal error',
  usage: 'unknown command or flag, wrong value',
  missing_argument: 'a required argument or option not given',
  invalid_input: 'fails a check before sending',
  rejected_input: 'HTTP 422',
  confirmation_required: 'a destructive or confirmed command without `--yes` and nobody to ask',
  jq_error: 'a `--jq` expression that does not compile or fails',
  insecure_url: 'plain `http://` to a host that is not loopback',
  declined: 'a person said no',
  network: 'unreachable, TLS failure, a redirect or a proxy that fails',
  timeout: 'no answer within `--timeout`',
  bad_response: 'a body that is not the JSON expected',
  not_logged_in: 'no base URL or key',
  auth_rejected: 'HTTP 401 or 403',
  wrong_origin: 'a stored key and another base URL',
  policy_refused: "a profile's agent policy",
  credential_store: 'the credential store cannot be read',
  not_found: 'HTTP 404',
  interrupted: 'Ctrl-C',
};

/** "; `reason`: `network` (…), `timeout` (…)" for the words of an exit code. */
function reasonsOf(code: number): string {
  const words = (Object.keys(REASONS) as Reason[]).filter((r) => REASONS[r] === code);
  return words.length === 0 ? '' : `; \`reason\`: ${words.map((r) => `\`${r}\` (${REASON_MEANINGS[r]})`).join(', ')}`;
}

export const EXIT_CODES: [number, string][] = (
  [
    [0, 'success'],
    [
      1,
      "the service refused or failed (HTTP 4xx/5xx not below), or said so in a 2xx body (`success: false`, a create-website `error`); also a result that could not be written (a full disk: one line, after waiting for all of the output; `keys create` then names the new key's id and name so that it can be deleted; only a reader that closed the pipe, `| head`, ends it quietly), a file wsctl reads or writes that it cannot use (a `config.json` that is not JSON, a client's config file that does not parse), and a Node.js older than wsctl needs",
    ],
    [
      2,
      'usage: bad arguments or flags, input that fails validation before sending, HTTP 422, a destructive command without `--yes` off a TTY or with `--no-input`, a no to a confirmation (`Cancelled: nothing was sent.`, without `Error:`), plain `http://` to a non-loopback host, a `--jq` expression that does not compile or fails',
    ],
    [
      3,
      'network: unreachable, timeout, TLS failure, a body that is not the JSON expected (or nested more than 512 levels), a redirect wsctl will not follow, a proxy that refuses',
    ],
    [4, 'authentication: no base URL or key configured, HTTP 401 or 403'],
    [5, 'not found: HTTP 404'],
    [130, 'interrupted (Ctrl-C)'],
  ] as [number, string][]
).map(([code, meaning]) => [code, `${meaning}${reasonsOf(code)}`]);

/** The files wsctl reads and writes: the config topic and the man page's FILES. */
export const FILES: [string, string][] = [
  [
    '<config dir>/config.json',
    'profiles: base URL, where the key is stored, what AI agents may do (`agents`), the current profile, aliases, accessible mode (`"accessible": true`) (mode 0600, folder 0700); written under a lock by atomic rename',
  ],
  ['.wsctl-profile', 'a pin (`wsctl profile pin`): the name of the profile used in its folder and the folders below it, and nothing else'],
  ['<config dir>/sandbox.json', "the embedded sandbox's state (`wsctl sandbox reset` restores its seed)"],
  ['<config dir>/sandbox-serve.log', 'the log of `wsctl sandbox serve --detach`'],
  ['~/.cache/wsctl', "V8's compiled code of wsctl (`$XDG_CACHE_HOME/wsctl`; deleting it is safe)"],
];

/** wsctl's boolean variables: those the settings table turns on with `=1`. */
const booleanVariables = () =>
  SETTINGS.flatMap((s) => s.env ?? [])
    .filter((e) => e.endsWith('=1'))
    .map((e) => e.slice(0, -'=1'.length));

/** The variables with what each means (and its flag): the environment topic and the man page's ENVIRONMENT. */
export const environmentRows = (): [string, string][] =>
  SETTINGS.filter((s) => s.env).map((s) => [s.env!.join(', '), s.flag ? `${s.meaning}; flag \`${s.flag.split(' ')[0]}\`` : s.meaning]);

export const TOPICS: Topic[] = [
  {
    name: 'environment',
    summary: 'every environment variable wsctl reads',
    intro: [
      'Environment variables wsctl reads. Precedence everywhere: flag, then environment, then profile, then built-in default.',
      `Boolean variables (${booleanVariables()
        .map((v) => `\`${v}\``)
        .join(', ')}) are ${BOOLEAN_VALUES}, naming the variable.`,
    ],
    get rows() {
      return environmentRows();
    },
  },
  {
    name: 'exit-codes',
    summary: 'what each exit status means',
    intro: [
      'wsctl exits with one of these codes; scripts can branch on them. An error is one or two lines on stderr (with `--json`, a JSON document).',
      'With `--json` that document is `{"error": {"message", "exit_code", "reason", "next"?, "status"?, "request_id"?, "details"?}}`: `reason` is one of the words below, which never change meaning, and `next`, where wsctl knows it, lists `{"command", "why"}`, the exact command line that goes on. Under an AI agent the last line of an error is `Next: <command>`. `wsctl help --json <command>` lists the codes and words each command can end with.',
    ],
    rows: EXIT_CODES.map(([code, meaning]) => [String(code), meaning]),
  },
  {
    name: 'formatting',
    summary: 'output on a terminal, piped, --json, --jq and colour',
    intro: ['stdout carries results only; progress, warnings and errors go to stderr. The same result prints three ways:'],
    rows: [
      [
        'on a TTY',
        'tables that fit the width (`COLUMNS`, else the terminal), colour, relative times ("3 hours ago"), spinners (not when `CI` is set); ids, key prefixes and times are never cut',
      ],
      [
        'piped',
        'no colour, no borders, no header; one record per line, tab-separated; ISO 8601 times; an empty field for a missing value; detail views print `key<TAB>value` lines',
      ],
      [
        '--json',
        'exactly one 2-space-indented JSON document: the service\'s body with its field names; errors go to stderr as `{"error": {"message", "exit_code", ...}}`',
      ],
      [
        '--jq <expr>',
        'the `--json` document filtered with the jq language (built in): each result on its own line, strings raw, other values as compact JSON',
      ],
      [
        'help --json',
        'wsctl described for programs and agents: every command with what it changes (`none`, `write`, `destructive`); `wsctl help --json <command>` (or `wsctl <command> --help --json`) gives its arguments, options and their types, whether it asks, the agent policies that refuse it, its exit codes with their reasons and the JSON Schema of its `--json` document',
      ],
      [
        'colour',
        'only on a TTY whose `TERM` is not `dumb`; `NO_COLOR` or `--no-color` turn it off, `FORCE_COLOR` or `CLICOLOR_FORCE` force it (see `wsctl help environment`)',
      ],
    ],
    outro: [
      'Text from the service is printed without terminal control characters or escape sequences. Confirmations of changes go to stdout, with the check mark only on a TTY.',
    ],
  },
  {
    name: 'config',
    summary: 'profiles, the config file, and where keys live',
    intro: [
      'A profile names a service (its base URL) and an API key. `wsctl auth login` stores them, `wsctl profile use` (or `wsctl auth switch`, which offers a list on a terminal) picks the current one, `--profile` or `WSCTL_PROFILE` another for one command.',
      '`wsctl profile pin <name>` writes `.wsctl-profile` (the name and nothing else) in the current folder: there and in every folder below it, that profile is used after `--profile` and `WSCTL_PROFILE` and before the current one. A pin holding anything but the name of an existing profile stops every command (exit 2, nothing sent). `wsctl auth status` shows where the profile came from; `wsctl profile unpin` removes the pin.',
      "Aliases (`wsctl alias set <name> '<command line>'`) are kept in `config.json` too; `$1`, `$2`, … take the arguments after the alias.",
      "A profile also says what an AI agent running wsctl may do with it: `wsctl profile agents <profile> <full|no-destructive|read-only>` (default `full`). It guards against an agent's mistakes; it is not an authorization boundary.",
      "Keys live in the operating system's credential store (macOS Keychain, Windows Credential Manager, the Secret Service on Linux), one entry per profile; where none can be reached, in `config.json` with a warning (`--insecure-storage` chooses the file on purpose). `WSCTL_API_KEY` overrides the stored key and is never written anywhere.",
      'Accessible mode, for screen readers and braille displays: `"accessible": true` at the top level of `config.json`, or `WSCTL_ACCESSIBLE=1` or `ACCESSIBLE=1` (see `wsctl help environment`). Nothing is redrawn, a list to choose from is numbered and answered by typing a number, progress is lines of words, a destructive confirmation asks to type the target\'s id, and `done:` and `warning:` are said in words.',
      "A store entry is named from the config folder's real path (`wsctl:<folder>`): a symbolic link to the folder is the same folder. An entry an earlier version named from a relative folder (`wsctl:.wsctl`) may be any project's: it is never read, moved, sent or deleted, and such a profile asks for `wsctl auth login` again.",
      'A stored key belongs to the base URL stored with it: with `--base-url` or `WSCTL_BASE_URL` naming another origin (scheme, host, port), it is not sent and the command exits 4; log in for that URL, or set `WSCTL_API_KEY`.',
      'The config dir is `WSCTL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/wsctl` or `~/.config/wsctl` on Linux, `~/Library/Preferences/wsctl` on macOS, `%APPDATA%\\wsctl` on Windows. Files:',
    ],
    rows: FILES,
  },
];

export function findTopic(name: string): Topic | undefined {
  return TOPICS.find((t) => t.name === name);
}
