// `convo show --follow`: the transcript of a running conversation, each message printed once, in
// order, as soon as it is complete (a later message exists, or the state is no longer running or
// stopping); then the totals, or with --json newline-delimited JSON. Loaded only with --follow.
import { setTimeout as sleep } from 'node:timers/promises';
import { path } from '../../http/index.js';
import type { Ctx } from '../../command.js';
import { InterruptedError } from '../../errors.js';
import { bufferedSink } from '../../terminal/pager.js';
import type { Conversation } from '../../schemas.js';
import { styleFor, transcriptRenderer } from './transcript.js';

export interface FollowOptions {
  id: string;
  tail?: number;
  intervalMs: number;
  markdown: boolean;
  full: boolean;
}

const ACTIVE = new Set(['running', 'stopping']);

function since(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

export async function follow(opts: FollowOptions, ctx: Ctx): Promise<void> {
  const api = await ctx.api();
  const fetch = async (): Promise<Conversation> =>
    (await api.request({ method: 'GET', path: path`/conversations/${opts.id}`, schema: 'Conversation', what: `conversation '${opts.id}'` })).body;
  const term = ctx.term;
  // Every write goes out at once, so `| grep --line-buffered` sees each message as it completes.
  const sink = bufferedSink(ctx.io.stdout, undefined, 0);
  const renderer = ctx.json ? undefined : transcriptRenderer(sink, styleFor(term, opts.full), opts.markdown);

  let convo = await fetch();
  const stateOf = (c: Conversation) => c.state ?? 'idle';
  if (renderer) await renderer.header(convo);
  else await term.printJsonLine({ conversation: convo.conversation, state: stateOf(convo) });

  let printed = opts.tail === undefined ? 0 : Math.max(0, convo.messages.length - opts.tail);
  let lastMessageAt = Date.now();
  const status = await term.statusLine();
  try {
    for (;;) {
      const active = ACTIVE.has(stateOf(convo));
      // The last message of a running conversation may still be growing: it waits for a later one.
      const complete = active ? convo.messages.length - 1 : convo.messages.length;
      if (complete > printed) status.clear();
      for (; printed < complete; printed++) {
        const message = convo.messages[printed];
        if (renderer) await renderer.message(message as Conversation['messages'][number]);
        else await term.printJsonLine(message);
        lastMessageAt = Date.now();
      }
      if (!active) break;
      status.set(`${stateOf(convo)} · ${since(Date.now() - lastMessageAt)} since the last message`);
      try {
        await sleep(opts.intervalMs, undefined, { signal: ctx.signal });
      } catch {
        throw new InterruptedError();
      }
      convo = await fetch();
    }
  } finally {
    status.clear();
  }
  if (renderer) await renderer.end(convo.messages.length);
  else await term.printJsonLine({ state: 'idle' });
  await sink.end();
}
