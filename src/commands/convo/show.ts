import type { Command } from 'commander';
import { path } from '../../api.js';
import { examples, requireId, type App, type Ctx, type Result } from '../../command.js';
import { UsageError } from '../../errors.js';
import { renderMarkdown, renderTranscript } from './transcript.js';

export interface ShowOptions {
  id: string;
  tail?: string;
  markdown: boolean;
  pager: boolean;
  full: boolean;
}

export function register(convo: Command, app: App): void {
  convo
    .command('show')
    .description('Show a conversation: header, transcript, token totals')
    .argument('<conversation_id>', 'the conversation id')
    .option('--tail <n>', 'only the last n messages')
    .option('--markdown', 'print the transcript as Markdown')
    .option('--full', 'do not shorten long tool results')
    .option('--no-pager', 'do not page the output on a terminal')
    .addHelpText('after', examples('wsctl convo show conv_demo', 'wsctl convo show conv_live --follow', "wsctl convo show conv_demo --jq '.messages | length'", 'wsctl convo show conv_demo --markdown > transcript.md'))
    .action((id: string, flags: { tail?: string; markdown?: boolean; pager: boolean; full?: boolean }, command: Command) =>
      app.run(command, (ctx) => run({ id, tail: flags.tail, markdown: !!flags.markdown, pager: flags.pager, full: !!flags.full }, ctx)),
    );
}

function parseTail(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`Invalid --tail '${raw}': give a whole number of messages.`);
  return Number(raw);
}

export async function run(opts: ShowOptions, ctx: Ctx): Promise<Result> {
  requireId(opts.id, 'conversation_id');
  const tail = parseTail(opts.tail);
  const api = await ctx.api();
  const { body } = await ctx.term.spin(
    'Loading conversation',
    api.request({ method: 'GET', path: path`/conversations/${opts.id}`, schema: 'Conversation', what: `conversation '${opts.id}'` }),
  );
  const messages = tail === undefined ? body.messages : tail === 0 ? [] : body.messages.slice(-tail);
  const shown = { ...body, messages };
  return {
    json: tail === undefined ? body : shown,
    async human(out) {
      const sink = await out.pager(opts.pager);
      const style = { tty: out.tty, paint: out.paint, width: out.width, full: opts.full };
      await (opts.markdown ? renderMarkdown(shown, sink, style) : renderTranscript(shown, sink, style));
      await sink.end();
    },
  };
}
