import { resolve } from 'node:path';
import type { Command } from 'commander';
import { defineNoun, defineVerb, flag, option, type Ctx, type Globals, type Result } from '../command.js';
import { checkProfileName } from '../config/index.js';
import { timeoutMs } from '../config/resolve.js';
import { UsageError } from '../errors.js';
import { checkBaseUrl } from '../http/url.js';

export type { McpOptions as McpFlags } from '../mcp/mcp-server.js';
import type { McpOptions as McpFlags } from '../mcp/mcp-server.js';

const serverFlags = {
  readOnly: flag('--read-only', 'offer only the tools that read'),
  allowDestructive: flag('--allow-destructive', 'also offer the tools that delete (a person still confirms each call)'),
  showSecrets: flag('--show-secrets', 'return the key made by keys_create in full, not masked'),
  noConfirm: flag('--no-confirm', 'run deletions, uploads and other calls a person would confirm without asking anyone: only for an unattended agent set up on purpose'),
  uploadDir: option('--upload-dir <dir>', 'a folder persona_upload_avatar may read files from, besides the working folder'),
};

const config = defineVerb({
  name: 'config',
  summary: 'Print the JSON an MCP client (Claude Desktop, Claude Code, Cursor, VS Code) needs to start wsctl mcp',
  flags: serverFlags,
  examples: ['wsctl mcp config', 'wsctl mcp config --sandbox', 'wsctl mcp config --profile work --read-only'],
  endpoints: [],
  sample: ['mcp', 'config'],
  run: (opts, ctx) => configRun(opts, ctx, launcher()),
});

export const mcp = defineNoun({
  name: 'mcp',
  summary: 'Serve the workspace to AI agents as MCP tools (Claude, Cursor, VS Code)',
  verbs: [config],
  self: defineVerb({
    name: 'mcp',
    summary: 'Serve the workspace to AI agents as MCP tools over stdin/stdout (Model Context Protocol)',
    flags: serverFlags,
    examples: ['wsctl mcp --sandbox', 'wsctl mcp --read-only --profile work', 'wsctl mcp config --allow-destructive'],
    endpoints: [],
    sample: ['mcp', '--read-only'],
    async run(flags, ctx, here) {
      check(flags, ctx.globals);
      if (ctx.io.stdinIsTTY) ctx.term.info('wsctl mcp speaks the Model Context Protocol on stdin and stdout, for an MCP client to start (see `wsctl mcp config`). Ctrl-C stops it.');
      const { serve } = await import('../mcp/mcp-server.js');
      // A '--no-x' flag reads false when given: its key names the flag, its value says whether to confirm.
      await serve({ ...flags, noConfirm: flags.noConfirm === false }, ctx, here.verbs);
    },
  }),
});

function check(flags: McpFlags, globals: Globals): void {
  if (flags.readOnly && flags.allowDestructive) throw new UsageError('--read-only and --allow-destructive cannot be used together.');
  if (globals.jq !== undefined) throw new UsageError('wsctl mcp does not take --jq: tool results are JSON documents already.');
  if (globals.dryRun) throw new UsageError('wsctl mcp does not take --dry-run.');
}

/** The path of the wsctl that runs: the launcher argv names, made absolute. */
function launcher(): string {
  const script = process.argv[1];
  return script ? resolve(script) : 'wsctl';
}

/** snake_case of an option's or argument's name, as tools name their parameters. */
export function snake(name: string): string {
  return name.replace(/-/g, '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A command's description and what each argument and option means, by its tool name. */
export function describe(root: Command, path: string[]): { description: string; params: Record<string, string> } | undefined {
  let command: Command | undefined = root;
  for (const word of path) command = command?.commands.find((c) => c.name() === word);
  if (!command) return undefined;
  const params: Record<string, string> = {};
  for (const argument of command.registeredArguments) params[snake(argument.name())] = argument.description;
  for (const option of command.options) params[snake(option.attributeName())] = option.description;
  return { description: command.description(), params };
}

/** `wsctl mcp config`: the mcpServers entry, with the flags given on this command line. */
// A client starts the server with an environment of its own: the WSCTL_* settings in effect here
// go into the entry (as flags, or as its env for the config folder), checked as a request checks them.
// The API key never does: it comes from the profile, or from the client's env for the server.
export async function configRun(flags: McpFlags, ctx: Ctx, command: string): Promise<Result> {
  check(flags, ctx.globals);
  const g = ctx.globals;
  const env = ctx.env;
  const profile = g.profile || env.WSCTL_PROFILE || undefined;
  const baseUrl = g.baseUrl || env.WSCTL_BASE_URL || undefined;
  const timeout = g.timeout ?? (env.WSCTL_TIMEOUT || undefined);
  if (profile !== undefined) checkProfileName(profile);
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  if (timeout !== undefined) timeoutMs({ timeout }, env);
  const args = ['mcp'];
  if (g.sandbox || env.WSCTL_SANDBOX === '1') args.push('--sandbox');
  if (profile !== undefined) args.push('--profile', profile);
  if (baseUrl !== undefined) args.push('--base-url', baseUrl);
  if (timeout !== undefined) args.push('--timeout', timeout);
  if (g.debug) args.push('--debug');
  if (flags.readOnly) args.push('--read-only');
  if (flags.allowDestructive) args.push('--allow-destructive');
  if (flags.showSecrets) args.push('--show-secrets');
  const entry: { command: string; args: string[]; env?: Record<string, string> } = { command, args };
  if (env.WSCTL_CONFIG_DIR) entry.env = { WSCTL_CONFIG_DIR: resolve(env.WSCTL_CONFIG_DIR) };
  if (env.WSCTL_API_KEY) ctx.term.info("WSCTL_API_KEY is not put in the entry: the server takes its key from the profile, or from WSCTL_API_KEY in the client's env for it.");
  const json = { mcpServers: { wsctl: entry } };
  return { json, human: (out) => out.printJson(json) };
}
