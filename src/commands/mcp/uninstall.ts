import { defineVerb, type Ctx, type Result } from '../../verbs/declare.js';
import { clientLabel, entryPath, type ClientName } from './clients.js';
import { formatOf } from './formats.js';
import { configPath, fileFlags } from './install.js';

export const uninstall = defineVerb({
  name: 'uninstall',
  summary: "Remove wsctl's MCP server from a client's config file, keeping everything else",
  flags: fileFlags,
  notes: '\nThe old file is kept as <file>.bak. --dry-run prints the change as a diff.\n',
  examples: ['wsctl mcp uninstall --client claude-desktop', 'wsctl mcp uninstall --client vscode --dry-run'],
  endpoints: [],
  sample: ['mcp', 'uninstall', '--client', 'cursor', '--dry-run'],
  run,
});

export async function run(opts: { client: ClientName; config: string | undefined }, ctx: Ctx): Promise<Result> {
  const path = configPath(opts, ctx);
  // The file's parser (jsonc-parser, or TOML's for Codex) loads with these two verbs only.
  const [{ edited, read, valueAt }, { replaceFile }, { unifiedDiff }] = await Promise.all([
    formatOf(opts.client),
    import('./client-file.js'),
    import('./diff.js'),
  ]);
  const file = read(path);
  const where = entryPath(opts.client);
  const changed = valueAt(file, where) !== undefined;
  const doc = { client: opts.client, file: path, written: null as string | null, changed, backup: null as string | null };
  const through = file.target === path ? '' : ` (through the symbolic link ${path})`;
  const none = `${path} has no wsctl entry for ${clientLabel(opts.client)}: nothing to remove.`;
  if (ctx.dryRun) {
    const diff = changed ? unifiedDiff(file.text, edited(file, where, undefined), path) : '';
    return {
      json: { ...doc, diff, dry_run: true },
      human(out) {
        out.write(diff);
        out.line(changed ? 'Nothing was changed (--dry-run).' : none);
      },
    };
  }
  if (changed) {
    doc.backup = replaceFile(file, edited(file, where, undefined)) ?? null;
    doc.written = file.target;
  }
  return {
    json: doc,
    human: (out) =>
      out.done(
        changed
          ? `Removed wsctl's MCP server from ${file.target}${through} (the previous file is kept in ${doc.backup}). Restart ${clientLabel(opts.client)} to unload it.`
          : none,
      ),
  };
}
