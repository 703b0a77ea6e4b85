import type { Command } from 'commander';
import { path } from '../../http/index.js';
import { examples, requireId, type App, type Ctx, type Result } from '../../command.js';
import { UsageError } from '../../errors.js';
import { renderConversation, styleFor } from './transcript.js';

export interface ShowOptions {
  id: string;
  tail?: string;
  markdown: boolean;
  pager: boolean;
  full: boolean;
  follow?: boolean;
  interval?: string;
}

/** --interval in milliseconds: default 2 s, at least 0.5 s (each poll fetches the whole history). */
export function parseInterval(raw: string | undefined): number {
  if (raw === undefined) return 2000;
  const seconds = /^\s*\d*\.?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds > 0) || seconds > 86_400) throw new UsageError(`Invalid --interval '${raw}': give a number of seconds (at least 0.5).`);
  return Math.max(500, Math.round(seconds * 1000));
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
    .option('-f, --follow', 'while the conversation runs, print each message as it completes (never paged)')
    .option('--interval <seconds>', 'with --follow, seconds between polls (default 2, at least 0.5)')
    .addHelpText('after', examples('wsctl convo show conv_demo --tail 2', 'wsctl convo show conv_live --follow', "wsctl convo show conv_demo --jq '.messages | length'"))
    .action((id: string, flags: { tail?: string; markdown?: boolean; pager: boolean; full?: boolean; follow?: boolean; interval?: string }, command: Command) =>
      app.run(command, (ctx) => run({ id, tail: flags.tail, markdown: !!flags.markdown, pager: flags.pager, full: !!flags.full, follow: !!flags.follow, interval: flags.interval }, ctx)),
    );
}

function parseTail(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`Invalid --tail '${raw}': give a whole number of messages.`);
  return Number(raw);
}

export async function run(opts: ShowOptions, ctx: Ctx): Promise<Result | void> {
  requireId(opts.id, 'conversation_id');
  const tail = parseTail(opts.tail);
  if (opts.interval !== undefined && !opts.follow) throw new UsageError('--interval goes with --follow.');
  if (opts.follow) {
    const intervalMs = parseInterval(opts.interval);
    const { follow } = await import('./follow.js');
    return follow({ id: opts.id, tail, intervalMs, markdown: opts.markdown, full: opts.full }, ctx);
  }
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
      await renderConversation(shown, sink, styleFor(out, opts.full), opts.markdown);
      await sink.end();
    },
  };
}
