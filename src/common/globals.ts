// The global options (cli.md §1), declared once as data: program.ts makes commander's options
// from them, and Globals, the type of their values, is inferred from them.

/** A global option: its flags and help, and (for the type of Globals) the value it gives. */
interface GlobalSpec<T> {
  flags: string;
  help: string;
  value?: T;
  /** Its value is a number (help --json says so); commander gives it as text all the same. */
  number?: boolean;
  /** The value when neither the flag nor its variable is given (help --json says so). */
  fallback?: T;
}
const TIMEOUT_S = '30';
const text = (flags: string, help: string): GlobalSpec<string> => ({ flags, help });
const flag = (flags: string, help: string): GlobalSpec<boolean> => ({ flags, help });

/**
 * The global options, declared once: keyed by the name commander gives their value (a test
 * checks each key against it), so Globals, the type of their values, is inferred from here.
 */
export const GLOBAL_OPTIONS = {
  profile: text('--profile <name>', 'config profile to use (env: WSCTL_PROFILE)'),
  baseUrl: text('--base-url <url>', 'service base URL (env: WSCTL_BASE_URL)'),
  json: flag('--json', 'print machine-readable JSON'),
  color: flag('--no-color', 'turn colour off (env: NO_COLOR, CLICOLOR=0; TERM=dumb has none)'),
  debug: flag('--debug', 'trace HTTP exchanges on stderr, secrets redacted (env: WSCTL_DEBUG=1)'),
  timeout: {
    ...text('--timeout <seconds>', `longest wait without progress, per attempt (env: WSCTL_TIMEOUT, default ${TIMEOUT_S})`),
    number: true,
    fallback: TIMEOUT_S,
  },
  dryRun: flag('--dry-run', 'print the request instead of sending it'),
  sandbox: flag('--sandbox', 'run against the embedded sandbox (env: WSCTL_SANDBOX=1)'),
  jq: text('--jq <expression>', 'filter the JSON output with a jq expression (implies --json)'),
  /** false with --no-input */
  input: flag('--no-input', 'never prompt; fail naming the flag that answers instead (env: WSCTL_NO_INPUT=1)'),
};

/** The global options' values as commander gives them (absent when not given). */
export type Globals = { [K in keyof typeof GLOBAL_OPTIONS]?: NonNullable<(typeof GLOBAL_OPTIONS)[K]['value']> };

/** The global options' long flags: kept out of an alias's $1, $2, … wherever they are typed. */
export const GLOBAL_FLAGS = new Set(Object.values(GLOBAL_OPTIONS).map((spec) => spec.flags.split(' ')[0] as string));

/** The global options that take a value: `--profile <name>` and the like. */
export const VALUE_OPTIONS = new Set(
  Object.values(GLOBAL_OPTIONS)
    .filter((spec) => spec.flags.includes('<'))
    .map((spec) => spec.flags.split(' ')[0] as string),
);
