// The command tree: the root with its global options, and every noun. Declaring is cheap;
// each action loads what it needs when it runs.
import { Command, Option } from 'commander';
import type { App } from './command.js';
import { register as api } from './commands/api.js';
import { register as auth } from './commands/auth/index.js';
import { register as byok } from './commands/byok/index.js';
import { register as caps } from './commands/caps.js';
import { register as completion } from './commands/completion.js';
import { register as conn } from './commands/conn/index.js';
import { register as convo } from './commands/convo/index.js';
import { register as device } from './commands/device/index.js';
import { register as keys } from './commands/keys/index.js';
import { register as notes } from './commands/notes/index.js';
import { register as persona } from './commands/persona/index.js';
import { register as profile } from './commands/profile/index.js';
import { register as pub } from './commands/pub/index.js';
import { register as sandbox } from './commands/sandbox/index.js';
import { register as settings } from './commands/settings.js';
import { register as site } from './commands/site/index.js';

export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
  /** Commander's own usage errors, formatted by main.ts. */
  onUsageError(message: string): void;
}

export function globalOptions(): Option[] {
  return [
    new Option('--profile <name>', 'config profile to use (env: WSCTL_PROFILE)'),
    new Option('--base-url <url>', 'service base URL (env: WSCTL_BASE_URL)'),
    new Option('--json', 'print machine-readable JSON'),
    new Option('--no-color', 'turn colour off (env: NO_COLOR)'),
    new Option('--debug', 'trace HTTP exchanges on stderr, secrets redacted (env: WSCTL_DEBUG=1)'),
    new Option('--timeout <seconds>', 'timeout of each attempt (env: WSCTL_TIMEOUT, default 30)'),
    new Option('--dry-run', 'print the request instead of sending it'),
    new Option('--sandbox', 'run against the embedded sandbox (env: WSCTL_SANDBOX=1)'),
  ];
}

export function buildProgram(app: App, version: string, output: ProgramOutput): Command {
  const program = new Command('wsctl');
  program
    .description('Administer your AI-assistant workspace from the command line.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: output.writeOut,
      writeErr: output.writeErr,
      outputError: (message) => output.onUsageError(message),
    })
    .addHelpText(
      'after',
      '\nExamples:\n  $ wsctl --sandbox keys list\n  $ wsctl auth login --base-url https://api.example.com\n  $ wsctl convo show conv_demo --tail 5\n',
    );
  for (const option of globalOptions()) program.addOption(option);
  program.helpCommand(false);
  program.configureHelp({ showGlobalOptions: true });

  for (const register of [auth, profile, keys, settings, caps, convo, notes, conn, byok, device, persona, pub, site, api, completion, sandbox]) {
    register(program, app);
  }
  return program;
}
