import { resolve } from 'node:path';
import { defineVerb, option, required, type Ctx, type Result } from '../../verbs/declare.js';
import { cleanLine } from '../../common/sanitize.js';
import { WsctlError } from '../../errors.js';
import { CLIENT_NAMES, clientEntry, clientFile, clientLabel, entryPath, type ClientName, type ServerEntry } from './clients.js';
import { oldCommandLine, refuseUnderAgent, refuseWiderThanReplaced, runsOtherwise, uninstallLine } from './command-lines.js';
import { entrySecrets, maskedDiff } from './entry-secrets.js';
import { formatOf } from './formats.js';
import { check, serverEntry, serverFlags, type McpFlags } from './shared.js';

/** How long the server may take to start and list its tools. */
const PROBE_MS = 15_000;

export const fileFlags = {
  client: required('--client <name>', 'the MCP client whose config file to change', CLIENT_NAMES),
  config: option('--config <file>', "the config file to change (default: the client's usual one on this platform)"),
};

export const install = defineVerb({
  name: 'install',
  summary: "Put wsctl's MCP server into a client's config file, then start it and list its tools",
  flags: { ...fileFlags, ...serverFlags },
  notes:
    '\nOther entries and comments stay as they are; the old file is kept as <file>.bak. --dry-run prints the change as a diff.\n' +
    'Undo with `wsctl mcp uninstall --client <name>`.\n',
  examples: [
    'wsctl mcp install --client claude-desktop',
    'wsctl mcp install --client vscode --profile work --read-only --dry-run',
    'wsctl mcp install --client cursor --config ./.cursor/mcp.json --sandbox',
  ],
  endpoints: [],
  sample: ['mcp', 'install', '--client', 'cursor', '--dry-run', '--sandbox'],
  run,
});

type Opts = McpFlags & { client: ClientName; config: string | undefined };

export async function run(opts: Opts, ctx: Ctx): Promise<Result> {
  check(opts, ctx, 'wsctl mcp install');
  const entry = serverEntry(opts, ctx);
  const path = configPath(opts, ctx);
  refuseUnderAgent(opts, ctx.agent, entry, path);
  // The file's parser (jsonc-parser, or TOML's for Codex) loads with these two verbs only.
  const [{ edited, read, valueAt }, { replaceFile }, { unifiedDiff }] = await Promise.all([
    formatOf(opts.client),
    import('./client-file.js'),
    import('./diff.js'),
  ]);
  const file = read(path);
  const where = entryPath(opts.client);
  const value = clientEntry(opts.client, entry);
  const old = valueAt(file, where);
  refuseWiderThanReplaced(opts, ctx.agent, entry, path, old);
  const changed = JSON.stringify(old) !== JSON.stringify(value);
  const replaced = old !== undefined && runsOtherwise(old, entry) ? oldCommandLine(old) : null;
  const label = clientLabel(opts.client);
  const doc = {
    client: opts.client,
    file: path,
    written: null as string | null,
    changed,
    replaced,
    backup: null as string | null,
    tools: null as number | null,
    ...entry,
  };
  const through = file.target === path ? '' : ` (through the symbolic link ${path})`;
  if (ctx.dryRun) {
    const diff = changed ? maskedDiff(unifiedDiff(file.text, edited(file, where, value), path), entrySecrets(valueAt(file, []))) : '';
    return {
      json: { ...doc, diff, dry_run: true },
      human(out) {
        out.write(diff);
        if (replaced) out.line(cleanLine(`It would replace the wsctl entry that runs: ${replaced}`));
        out.line(
          changed ? 'Nothing was changed (--dry-run).' : `${path} already starts wsctl's MCP server this way: nothing would change.`,
        );
      },
    };
  }
  if (changed) {
    doc.backup = replaceFile(file, edited(file, where, value)) ?? null;
    doc.written = file.target;
  }
  try {
    doc.tools = await listTools(entry, ctx);
  } catch (error) {
    const kept = doc.backup ? ` The previous file is kept in ${doc.backup}.` : '';
    throw new WsctlError(
      `${file.target}${through} ${changed ? 'now starts' : 'starts'} wsctl's MCP server, but the server did not answer: ${(error as Error).message}${kept}`,
    );
  }
  return {
    json: doc,
    human(out) {
      if (!changed) out.done(`${path} already starts wsctl's MCP server this way for ${label}: nothing was changed.`);
      else
        out.done(
          `Installed wsctl's MCP server for ${label} in ${file.target}${through}${doc.backup ? ` (the previous file is kept in ${doc.backup})` : ''}.`,
        );
      if (replaced) out.line(cleanLine(`It replaces the wsctl entry that ran: ${replaced}`));
      out.line(`The server offers ${doc.tools} tools. Restart ${label} to load it; \`${uninstallLine(opts, path)}\` removes it.`);
    },
  };
}

/** The config file named with --config (from the working folder), or the client's usual one. */
export function configPath(opts: { client: ClientName; config: string | undefined }, ctx: Ctx): string {
  return opts.config !== undefined ? resolve(ctx.cwd ?? '.', opts.config) : clientFile(opts.client, ctx.env);
}

/**
 * Starts the entry's command as the client would (its own environment, not this shell's, beyond the
 * few variables an MCP client passes on) and lists the tools over MCP: their number.
 */
async function listTools(entry: ServerEntry, ctx: Ctx): Promise<number> {
  const [{ Client }, { StdioClientTransport, DEFAULT_INHERITED_ENV_VARS }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
  ]);
  const env: Record<string, string> = {};
  for (const name of DEFAULT_INHERITED_ENV_VARS) {
    const value = ctx.env[name];
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...env, ...entry.env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const client = new Client({ name: 'wsctl-mcp-install', version: ctx.version });
  const stop = () => void client.close().catch(() => {});
  ctx.signal.addEventListener('abort', stop, { once: true });
  const said = () => stderr.trim().split('\n').filter(Boolean).at(-1);
  try {
    await client.connect(transport, { timeout: PROBE_MS, signal: ctx.signal });
    let count = 0;
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: PROBE_MS, signal: ctx.signal });
      count += page.tools.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return count;
  } catch (error) {
    const last = said();
    throw new Error(`${(error as Error).message.replace(/\.$/, '')}.${last ? ` It said: ${last}` : ''}`);
  } finally {
    ctx.signal.removeEventListener('abort', stop);
    await client.close().catch(() => {});
  }
}
