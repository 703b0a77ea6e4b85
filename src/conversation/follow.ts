// `convo show --follow`: the transcript of a running conversation, each message printed once, in
// order, as soon as it is complete (a later message exists, or the state is no longer running or
// stopping); then the totals, or with --json newline-delimited JSON. Loaded only with --follow.
import { hash } from 'node:crypto';
import type { Api } from '../http/index.js';
import { InterruptedError } from '../errors.js';
import type { Message } from '../schemas.js';
import { request } from '../service.js';
import { collectorEvery } from '../tricks/registry.js';
import { realClock, type Clock } from '../common/clock.js';
import { Spool } from './spool.js';
import { HeaderGate, lastOf, readConversation, type HeadTexts } from './stream.js';
import { styleFor, transcriptRenderer, type Head } from './transcript.js';
import type { Terminal } from '../terminal/index.js';

export interface FollowOptions {
  id: string;
  tail?: number;
  intervalMs: number;
  markdown: boolean;
  full: boolean;
}

const ACTIVE = new Set(['running', 'stopping']);

/** A message read in a poll, its text as sent, and its digest, worked out when it is needed. */
interface Read {
  message: Message;
  bytes: Uint8Array;
  digest: () => string;
}

/** The first line of --json: the conversation and its state as the service wrote them (a missing or null state reads "idle"). */
function headerText(head: Head, texts: HeadTexts): string | undefined {
  if (texts.conversation === undefined) return undefined;
  const state = head.state === undefined || head.state === null || texts.state === undefined ? '"idle"' : texts.state;
  return `{"conversation":${texts.conversation},"state":${state}}`;
}

const DIGEST = 20; // bytes of SHA-1
// One character a byte ('binary' is latin1): a string is made faster than a Buffer.
const sha1 = (text: string): string => hash('sha1', text, 'binary');

/**
 * What has been printed, known by a digest of each message's bytes as the service sent them (a
 * message has no id). The history is trusted to keep what was printed in place; when it does not
 * (reordered, shrunk, rewritten), a message counts as printed as often as its bytes were. The
 * digests sit side by side in one buffer, which a follow holds throughout: 1.1 MiB for 55,000
 * messages, outside V8's heap.
 */
class Printed {
  // Room for 1,024 digests, doubled as needed (follow.test.ts prints 3,002 messages to grow it).
  private order = Buffer.alloc(DIGEST * 1024);
  private count = 0;
  /** How often each digest was printed: counted once the history first moves. */
  private times?: Map<string, number>;

  add(digest: string): void {
    if ((this.count + 1) * DIGEST > this.order.length) {
      const grown = Buffer.alloc(this.order.length * 2);
      this.order.copy(grown);
      this.order = grown;
    }
    this.order.write(digest, this.count * DIGEST, 'latin1');
    this.count++;
    if (this.times) tally(this.times, digest);
  }

  private key(index: number): string {
    return this.order.toString('latin1', index * DIGEST, (index + 1) * DIGEST);
  }

  private matches(index: number, digest: string): boolean {
    const at = index * DIGEST;
    for (let i = 0; i < DIGEST; i++) if (this.order[at + i] !== digest.charCodeAt(i)) return false;
    return true;
  }

  private counted(): Map<string, number> {
    if (!this.times) {
      this.times = new Map();
      for (let i = 0; i < this.count; i++) tally(this.times, this.key(i));
    }
    return this.times;
  }

  /**
   * One poll's reading: for each message, whether it was printed; and whether the history kept
   * what was printed in place. With `keep`, the digests worked out are kept for first() (--tail).
   */
  reading(onChange: () => void, keep: boolean) {
    // Nothing printed before this poll: nothing in it is known, and no digest is needed until a message is printed.
    const fresh = this.count === 0;
    // While the history keeps what was printed in place, a message is known by its place alone and
    // nothing is kept per message: a poll of 55,000 known messages leaves no garbage that lives
    // through the poll. Counting starts at the first message out of place.
    let seen: Map<string, number> | undefined;
    const digests: string[] = [];
    let changed = false;
    const change = () => {
      if (!changed) onChange();
      changed = true;
    };
    const digest = (index: number, text: string): string => (keep ? (digests[index] ??= sha1(text)) : sha1(text));
    return {
      digest,
      /** The digests of the first n messages (kept ones only). */
      first: (n: number) => digests.slice(0, n),
      known: (index: number, text: string): boolean => {
        if (fresh) return false;
        const d = digests[index] ?? sha1(text);
        if (!seen) {
          if (index >= this.count) return false;
          if (this.matches(index, d)) return true;
          // Out of place: the messages before it were the printed ones, in order.
          seen = new Map();
          for (let i = 0; i < index; i++) tally(seen, this.key(i));
        }
        if (index < this.count && !this.matches(index, d)) change();
        return tally(seen, d) <= (this.counted().get(d) ?? 0);
      },
      /** The history ended with `total` messages: fewer than were printed means some went away. */
      ended: (total: number): void => {
        if (total < this.count) change();
      },
    };
  }
}

/** One more of key in counts; returns how many there are now. */
function tally(counts: Map<string, number>, key: string): number {
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  return n;
}

function since(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** What the loop prints with and waits on: the verb's context. */
export interface FollowCtx {
  term: Terminal;
  json: boolean;
  signal: AbortSignal;
  clock?: Clock;
}

/**
 * Follows until the conversation is no longer running, polling with the client the call was given
 * (the pipeline's: src/verbs/declare.ts settle); clock is the context's (tests) or the real one.
 */
export async function follow(opts: FollowOptions, api: Api, ctx: FollowCtx, clock: Clock = ctx.clock ?? realClock): Promise<void> {
  const term = ctx.term;
  // Every write goes out at once, so `| grep --line-buffered` sees each message as it completes.
  const sink = ctx.term.unbuffered();
  const renderer = ctx.json ? undefined : transcriptRenderer(styleFor(term, opts.full), opts.markdown);
  const show = {
    header: (head: Head, texts: HeadTexts) =>
      renderer
        ? renderer.header(head)
        : term.jsonLine({ conversation: head.conversation, state: head.state ?? 'idle' }, headerText(head, texts)),
    // The message as the service sent it (its bytes, on one line).
    message: (read: Read) => (renderer ? renderer.message(read.message) : term.jsonLine(read.message, read.bytes)),
    end: (shown: number, total: number) =>
      renderer ? renderer.end(shown, opts.tail === undefined ? undefined : total) : term.jsonLine({ state: 'idle' }),
  };

  const printed = new Printed(); // later polls pass these over undecoded
  // Every poll reads the whole history: garbage is collected by what all polls read, more often
  // than for one transcript (a follow's peak matters more than its first poll's speed).
  const collect = collectorEvery(12 << 20);
  let warned = false;
  let lastMessageAt = clock.now();
  const status = await term.statusLine();
  const spool = new Spool(term.tempDir);
  const gate = new HeaderGate(sink, spool, show.header);

  let shown = 0;
  const print = async (read: Read) => {
    const text = await show.message(read);
    shown++;
    status.clear();
    await gate.write(text);
    printed.add(read.digest());
    lastMessageAt = clock.now();
  };
  // Said once: a message the history moved or dropped is not printed again, and one it rewrote is printed as new.
  const historyChanged = () => {
    if (warned) return;
    warned = true;
    status.clear();
    term.warn(
      `The history of conversation '${opts.id}' changed between polls (messages moved, removed or rewritten); no message is printed twice.`,
    );
  };

  /** One poll: prints each message once a later one exists; returns the state and the message count. */
  const poll = async (first: boolean) =>
    api.stream(
      request('getConversation', { params: { conversation_id: opts.id }, what: `conversation '${opts.id}'` }),
      async (body) => {
        let state: string | null | undefined;
        let pending: Read | undefined;
        let count = 0;
        // --tail applies to the first answer: its messages wait until the count is known.
        const tailing = first && opts.tail !== undefined;
        const reading = printed.reading(historyChanged, tailing);
        const kept = lastOf<Read>(tailing ? opts.tail : undefined);
        const next = async (read: Read) => {
          if (pending) await print(pending);
          pending = read;
        };
        await readConversation(
          body,
          {
            field(key, value, text) {
              if (key === 'state') state = value as string | null | undefined;
              return gate.field(key, value, tailing, text);
            },
            messagesStart() {},
            message(index, message, text, bytes) {
              if (!message) return;
              const read = { message, bytes: bytes as Uint8Array, digest: () => reading.digest(index, text as string) };
              // The messages --tail leaves out count as printed: their digests are needed at the end.
              if (tailing) read.digest();
              if (!kept.add(read)) return next(read);
            },
            async messagesEnd(total) {
              count = total;
              reading.ended(total);
              if (!tailing) return;
              const last = kept.items();
              // The messages --tail leaves out count as printed. In an answer asked for again (a body
              // cut after its messages), those already added were passed over: they have no digest.
              for (const digest of reading.first(total - last.length)) if (digest !== undefined) printed.add(digest);
              for (const read of last) await next(read);
            },
          },
          { known: reading.known, collect },
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
      // About the state: said again at once, where nothing is redrawn, when it changes.
      status.set(`${answer.state} · ${since(clock.now() - lastMessageAt)} since the last message`, answer.state);
      try {
        await clock.sleep(opts.intervalMs, ctx.signal);
      } catch {
        throw new InterruptedError();
      }
      answer = await poll(false);
    }
    status.clear();
    await sink.write(await show.end(shown, answer.count));
    await sink.end();
  } finally {
    status.clear();
    spool.close();
  }
}
