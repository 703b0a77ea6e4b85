import { defineVerb, type Ctx, type Result } from '../../verbs/declare.js';
import { clientFile, entryPath, isToml, snippet, type ClientName } from './clients.js';
import { check, clientFlag, serverEntry, serverFlags, type McpFlags } from './shared.js';

export const config = defineVerb({
  name: 'config',
  summary: "Print the entry an MCP client needs to start wsctl mcp, in that client's shape (JSON, or TOML for Codex)",
  flags: { ...clientFlag, ...serverFlags },
  notes: "\n`wsctl mcp install` puts the same entry into the client's config file.\n",
  examples: [
    'wsctl mcp config',
    'wsctl mcp config --client vscode --sandbox',
    'wsctl mcp config --client cursor --profile work --read-only',
  ],
  endpoints: [],
  sample: ['mcp', 'config', '--sandbox'],
  run,
});

/** The snippet; with --json, also which client and the file it usually goes in. */
export async function run(opts: McpFlags & { client: ClientName }, ctx: Ctx): Promise<Result> {
  check(opts, ctx, 'wsctl mcp config');
  const entry = serverEntry(opts, ctx);
  const json = snippet(opts.client, entry);
  const file = clientFile(opts.client, ctx.env, process.platform, undefined, false);
  if (isToml(opts.client)) {
    // Codex's file is TOML: the table itself, as a person pastes it (--json keeps the same keys as JSON).
    const { tableText } = await import('./toml-text.js');
    const text = `${tableText(entryPath(opts.client), entry as unknown as Record<string, unknown>, '\n')}\n`;
    return { json: { client: opts.client, file, snippet: json }, human: (out) => out.write(text) };
  }
  return { json: { client: opts.client, file, snippet: json }, human: (out) => out.printJson(json) };
}
