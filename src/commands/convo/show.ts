import { arg, call, defineVerb, flag, numeric, option, parseId, type Call, type Ctx } from '../../verbs/declare.js';
import { UsageError } from '../../errors.js';
import { printConversation } from '../../conversation/print.js';
import type { IdRef } from '../../ids/store.js';
import { request } from '../../service.js';
import type { Conversation } from '../../schemas.js';
import { transcriptMarkdown } from '../../conversation/markdown.js';

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
  /** Return the document instead of printing it (wsctl mcp); it is read as it arrives all the same. */
  whole?: boolean;
}

/** The default time between polls of --follow. */
const INTERVAL_MS = 2000;

/** --interval in milliseconds: at least 0.5 s (each poll fetches the whole history). */
export function parseInterval(raw: string, name = '--interval'): number {
  const seconds = /^\s*\d*\.?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds > 0) || seconds > 86_400) throw new UsageError(`Invalid ${name} '${raw}': give a number of seconds (at least 0.5).`);
  return Math.max(500, Math.round(seconds * 1000));
}

export const show = defineVerb({
  name: 'show',
  summary: 'Show a conversation: header, transcript, token totals',
  args: {
    id: arg('<conversation_id>', 'the conversation id (`wsctl caps` shows some; `wsctl ids conversation` lists those seen)', parseId),
  },
  flags: {
    tail: option('--tail <n>', 'only the last n messages', numeric(parseTail)),
    markdown: flag('--markdown', 'print the transcript as Markdown'),
    full: flag('--full', 'do not shorten long tool results'),
    pager: flag('--no-pager', 'do not page the output on a terminal'),
    follow: flag('-f, --follow', 'while the conversation runs, print each message as it completes (never paged)'),
    intervalMs: {
      ...option(
        '--interval <seconds>',
        `with --follow, seconds between polls (default ${INTERVAL_MS / 1000}, at least 0.5)`,
        numeric(parseInterval),
      ),
      implied: INTERVAL_MS / 1000,
    },
  },
  check(opts, said) {
    if (opts.intervalMs !== undefined && !opts.follow) throw new UsageError(`${said('intervalMs')} goes with ${said('follow')}.`);
  },
  examples: [
    'wsctl convo show conv_demo --tail 2',
    'wsctl convo show conv_live --follow',
    "wsctl convo show conv_demo --jq '.messages | length'",
  ],
  endpoints: ['getConversation'],
  sample: ['convo', 'show', 'conv_demo', '--no-pager'],
  moreSamples: [['convo', 'show', 'conv_demo', '--follow']],
  ids: { takes: { id: 'conversation' }, remembers: (opts, shown) => conversationIds(opts.id, shown as Shown | undefined) },
  mcp: {
    note: 'Returns the last `tail` messages (default 50); its text is the transcript as Markdown.',
    drop: ['markdown', 'full', 'pager', 'follow', 'intervalMs'],
    schema: { tail: { type: 'integer', minimum: 0, default: 50 } },
    fixed: { whole: true },
    text: (document) => transcriptMarkdown(document as Conversation),
    less: 'pass a smaller tail',
  },
  run,
});

/** What a conversation's output showed: its title and the personas of its messages. */
type Shown = { conversation?: { title?: string | null }; messages?: { persona_id?: string | null; persona_name?: string | null }[] };

/** The conversation, described by its title, and each message's persona (cli.md §10). */
export function conversationIds(id: string, shown: Shown | undefined): IdRef[] {
  const personas = (shown?.messages ?? [])
    .filter((m) => m?.persona_id)
    .map((m): IdRef => ({ kind: 'persona', id: m.persona_id as string, description: m.persona_name ?? undefined }));
  // The latest message names a persona best; each is remembered once.
  const once = new Map<string, IdRef>();
  for (const p of personas.reverse()) if (!once.has(p.id)) once.set(p.id, p);
  return [{ kind: 'conversation', id, description: shown?.conversation?.title ?? undefined }, ...once.values()];
}

export function parseTail(raw: string, name = '--tail'): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`Invalid ${name} '${raw}': give a whole number of messages.`);
  return Number(raw);
}

export async function run(opts: ShowOptions, ctx: Ctx): Promise<Call> {
  const { tail } = opts;
  const spec = request('getConversation', { params: { conversation_id: opts.id }, what: `conversation '${opts.id}'` });
  if (opts.follow) {
    // The loop polls with requests of its own; --dry-run plans the first.
    return call({
      request: spec,
      async stream(api) {
        const { follow } = await import('../../conversation/follow.js');
        return follow(
          { id: opts.id, tail, intervalMs: opts.intervalMs ?? INTERVAL_MS, markdown: opts.markdown, full: opts.full },
          api,
          ctx,
        );
      },
    });
  }
  if (opts.whole) {
    // An MCP call: the last `tail` messages, read as they arrive, counted for the call's progress.
    return call({
      request: spec,
      async stream(api) {
        const { readDocument } = await import('../../conversation/document.js');
        return { json: await readDocument(api, spec, tail, (read) => ctx.progress?.(read)), human() {} };
      },
    });
  }
  if (ctx.filtered) {
    // jq needs the whole document: with --tail, the one --json prints, from the service's text.
    return call({
      request: spec,
      spinner: 'Loading conversation',
      async answer(response) {
        const { body } = response;
        if (tail === undefined) return { json: body, human() {} };
        const { tailText } = await import('../../conversation/document.js');
        return {
          json: { ...body, messages: tail === 0 ? [] : body.messages.slice(-tail) },
          jsonText: await tailText(response, tail),
          human() {},
        };
      },
    });
  }
  // The body is printed as it arrives (issue 14, P3).
  return call({
    request: spec,
    async stream(api) {
      const shown = await printConversation(api, spec, { tail, markdown: opts.markdown, pager: opts.pager, full: opts.full }, ctx);
      return { json: undefined, human() {}, printed: true, shown };
    },
  });
}
