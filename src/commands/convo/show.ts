import type { Command } from 'commander';
import { examples, requireId, type App, type Ctx, type Result } from '../../command.js';
import { UsageError } from '../../errors.js';
import { printConversation } from '../../conversation/print.js';
import { request } from '../../service.js';

export interface ShowOptions {
  id: string;
  /** Only the last n messages. */
  tail?: number;
  markdown: boolean;
  pager: boolean;
  full: boolean;
  follow?: boolean;
  /** Milliseconds between polls of --follow; undefined when --interval is not given. */
  intervalMs?: number;
  /** Return the whole document instead of printing it as it arrives (as --jq does; wsctl mcp). */
  whole?: boolean;
}

/** The default time between polls of --follow. */
const INTERVAL_MS = 2000;

/** --interval in milliseconds: at least 0.5 s (each poll fetches the whole history). */
export function parseInterval(raw: string): number {
  const seconds = /^\s*\d*\.?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds > 0) || seconds > 86_400) throw new UsageError(`Invalid --interval '${raw}': give a number of seconds (at least 0.5).`);
  return Math.max(500, Math.round(seconds * 1000));
}

export function register(convo: Command, app: App): void {
  convo
    .command('show')
    .description('Show a conversation: header, transcript, token totals')
    .argument('<conversation_id>', 'the conversation id')
    .option('--tail <n>', 'only the last n messages', parseTail)
    .option('--markdown', 'print the transcript as Markdown')
    .option('--full', 'do not shorten long tool results')
    .option('--no-pager', 'do not page the output on a terminal')
    .option('-f, --follow', 'while the conversation runs, print each message as it completes (never paged)')
    .option('--interval <seconds>', 'with --follow, seconds between polls (default 2, at least 0.5)', parseInterval)
    .addHelpText('after', examples('wsctl convo show conv_demo --tail 2', 'wsctl convo show conv_live --follow', "wsctl convo show conv_demo --jq '.messages | length'"))
    .action((id: string, flags: { tail?: number; markdown?: boolean; pager: boolean; full?: boolean; follow?: boolean; interval?: number }, command: Command) =>
      app.run(command, { id, tail: flags.tail, markdown: !!flags.markdown, pager: flags.pager, full: !!flags.full, follow: !!flags.follow, intervalMs: flags.interval }, run),
    );
}

export function parseTail(raw: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`Invalid --tail '${raw}': give a whole number of messages.`);
  return Number(raw);
}

export async function run(opts: ShowOptions, ctx: Ctx): Promise<Result | void> {
  requireId(opts.id, 'conversation_id');
  const { tail } = opts;
  if (opts.intervalMs !== undefined && !opts.follow) throw new UsageError('--interval goes with --follow.');
  if (opts.follow) {
    const { follow } = await import('../../conversation/follow.js');
    return follow({ id: opts.id, tail, intervalMs: opts.intervalMs ?? INTERVAL_MS, markdown: opts.markdown, full: opts.full }, ctx);
  }
  const api = await ctx.api();
  const spec = request('getConversation', { params: { conversation_id: opts.id }, what: `conversation '${opts.id}'` });
  if (opts.whole || ctx.globals.jq !== undefined) {
    // jq needs the whole document.
    const { body } = await ctx.term.spin('Loading conversation', api.request(spec));
    return { json: tail === undefined ? body : { ...body, messages: tail === 0 ? [] : body.messages.slice(-tail) }, human() {} };
  }
  // The body is printed as it arrives (issue 14, P3).
  await printConversation(api, spec, { tail, markdown: opts.markdown, pager: opts.pager, full: opts.full }, ctx);
}
