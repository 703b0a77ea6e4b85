import { arg, call, defineVerb, option, parseId, splitPath, type Call, type Ctx } from '../../verbs/declare.js';
import type { NotesImportBody } from '../../schemas.js';
import { request } from '../../service.js';
import { cleanLine } from '../../terminal/index.js';

export interface ImportOptions {
  pageId: string;
  title?: string;
  /** Folder names, in order. */
  to?: string[];
  account?: string;
}

export const importPage = defineVerb({
  name: 'import',
  summary: 'Import a page as markdown into the workspace; prints the created file name',
  args: { pageId: arg('<page_id>', 'the page in the note-taking app', parseId) },
  flags: {
    title: option('--title <title>', 'title of the imported file'),
    to: option('--to <a/b/c>', 'folder to import into, split on /', splitPath),
    account: option('--account <account_id>', 'the connected account to read the page from (`wsctl caps` shows them)', parseId),
  },
  examples: [
    'wsctl notes import page_demo',
    'wsctl notes import page_roadmap --to projects/2027 --title "Roadmap"',
    "wsctl notes import page_demo --jq '.filename'",
  ],
  endpoints: ['importNote'],
  sample: ['notes', 'import', 'page_demo'],
  ids: { takes: { account: 'account' } },
  mcp: { openWorld: true },
  run,
});

export async function run(opts: ImportOptions, _ctx: Ctx): Promise<Call> {
  const body: NotesImportBody = { page_id: opts.pageId };
  if (opts.title !== undefined) body.title = opts.title;
  if (opts.to !== undefined) body.target_path = opts.to;
  if (opts.account !== undefined) body.account_id = opts.account;
  return call({
    request: request('importNote', { body, what: `page '${opts.pageId}'` }),
    spinner: 'Importing page',
    answer: ({ body: imported }) => ({
      json: imported,
      human: (out) => (out.tty ? out.done(`Imported '${opts.pageId}' as ${cleanLine(imported.filename)}`) : out.tsv([[imported.filename]])),
    }),
  });
}
