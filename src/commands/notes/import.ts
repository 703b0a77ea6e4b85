import type { Command } from 'commander';
import { examples, requireId, splitPath, type App, type Ctx, type Result } from '../../command.js';
import type { NotesImportBody } from '../../schemas.js';
import { request } from '../../service.js';
import { cleanLine } from '../../terminal/index.js';

export interface ImportOptions {
  pageId: string;
  title?: string;
  to?: string;
  account?: string;
}

export function register(notes: Command, app: App): void {
  notes
    .command('import')
    .description('Import a page as markdown into the workspace; prints the created file name')
    .argument('<page_id>', 'the page in the note-taking app')
    .option('--title <title>', 'title of the imported file')
    .option('--to <a/b/c>', 'folder to import into, split on /')
    .option('--account <account_id>', 'the connected account to read the page from')
    .addHelpText('after', examples('wsctl notes import page_demo', 'wsctl notes import page_roadmap --to projects/2027 --title "Roadmap"', "wsctl notes import page_demo --jq '.filename'"))
    .action((pageId: string, flags: Omit<ImportOptions, 'pageId'>, command: Command) => app.run(command, { pageId, ...flags }, run));
}

export async function run(opts: ImportOptions, ctx: Ctx): Promise<Result> {
  requireId(opts.pageId, 'page_id');
  const body: NotesImportBody = { page_id: opts.pageId };
  if (opts.title !== undefined) body.title = opts.title;
  if (opts.to !== undefined) body.target_path = splitPath(opts.to, '--to');
  if (opts.account !== undefined) body.account_id = requireId(opts.account, '--account');
  const api = await ctx.api();
  const { body: imported } = await ctx.term.spin(
    'Importing page',
    api.request(request('importNote', { body, what: `page '${opts.pageId}'` })),
  );
  return {
    json: imported,
    human: (out) => (out.tty ? out.done(`Imported '${opts.pageId}' as ${cleanLine(imported.filename)}`) : out.tsv([[imported.filename]])),
  };
}
