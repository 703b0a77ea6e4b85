// `convo show --follow`: the transcript of a running conversation, each message printed once, in
// order, as soon as it is complete (a later message exists, or the state is no longer running or
// stopping); then the totals, or with --json newline-delimited JSON. Loaded only with --follow.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ctx } from '../../command.js';
import { InterruptedError } from '../../errors.js';
import type { Message } from '../../schemas.js';
import { request } from '../../service.js';
import { bufferedSink } from '../../terminal/pager.js';
import { HeaderGate, lastOf, readConversation } from './stream.js';
import { styleFor, transcriptRenderer, type Head } from './transcript.js';

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
  const term = ctx.term;
  // Every write goes out at once, so `| grep --line-buffered` sees each message as it completes.
  const sink = bufferedSink(ctx.io.stdout, undefined, 0);
  const renderer = ctx.json ? undefined : transcriptRenderer(styleFor(term, opts.full), opts.markdown);
  const show = {
    header: (head: Head) => (renderer ? renderer.header(head) : term.jsonLine({ conversation: head.conversation, state: head.state ?? 'idle' })),
    message: (message: Message) => (renderer ? renderer.message(message) : term.jsonLine(message)),
    end: (count: number) => (renderer ? renderer.end(count) : term.jsonLine({ state: 'idle' })),
  };

  let printed = 0; // messages printed so far: later polls skip them undecoded
  let lastMessageAt = Date.now();
  const status = await term.statusLine();
  const spool = term.spool();
  const gate = new HeaderGate(sink, spool, show.header);

  const print = async (message: Message) => {
    const text = await show.message(message);
    status.clear();
    await gate.write(text);
    printed++;
    lastMessageAt = Date.now();
  };

  /** One poll: prints each message once a later one exists; returns the state and the message count. */
  const poll = async (first: boolean) =>
    api.stream(
      request('getConversation', { params: { conversation_id: opts.id }, what: `conversation '${opts.id}'` }),
      async (body) => {
        let state: string | null | undefined;
        let pending: Message | undefined;
        let count = 0;
        // --tail applies to the first answer: its messages wait until the count is known.
        const tailing = first && opts.tail !== undefined;
        const kept = lastOf<Message>(tailing ? opts.tail : undefined);
        const next = async (message: Message) => {
          if (pending) await print(pending);
          pending = message;
        };
        await readConversation(
          body,
          {
            field(key, value) {
              if (key === 'state') state = value as string | null | undefined;
              return gate.field(key, value, tailing);
            },
            messagesStart() {},
            message(_index, message) {
              if (message && !kept.add(message)) return next(message);
            },
            async messagesEnd(total) {
              count = total;
              if (!tailing) return;
              const last = kept.items();
              printed = total - last.length;
              for (const message of last) await next(message);
            },
          },
          printed,
        );
        await gate.show();
        // The last message of a running conversation may still be growing: the next poll reads it again.
        if (pending && !ACTIVE.has(state ?? 'idle')) await print(pending);
        return { state: state ?? 'idle', count };
      },
      () => true, // what was printed is skipped when the answer is asked for again
    );

  try {
    let answer = await poll(true);
    while (ACTIVE.has(answer.state)) {
      status.set(`${answer.state} · ${since(Date.now() - lastMessageAt)} since the last message`);
      try {
        await sleep(opts.intervalMs, undefined, { signal: ctx.signal });
      } catch {
        throw new InterruptedError();
      }
      answer = await poll(false);
    }
    status.clear();
    await sink.write(await show.end(answer.count));
    await sink.end();
  } finally {
    status.clear();
    spool.close();
  }
}
