// A conversation read as its body arrives (issue 14, P3): the top-level fields and then each
// message, each checked against its schema and handed on at once, so that `convo show` of 55,000
// messages holds one message at a time, not the body, its text and its objects.
import { BadResponseError, type ErrorInfo } from '../errors.js';
import { checkShape, notJson } from '../http/decode.js';
import type { StreamedBody } from '../http/index.js';
import { ObjectSplitter, SplitError, type SplitEvent } from './split.js';
import { Conversation as ConversationSchema, Message as MessageSchema, type Message } from '../schemas.js';
import type { Sink } from '../terminal/index.js';
import type { Spool } from './spool.js';
import type { Head } from './transcript.js';

/** What a reader is told, in body order. */
export interface ConversationVisitor {
  /** A top-level field: `conversation` and `state` checked; others (kept by --json) as they came. Its key and value as the body wrote them too. */
  field(key: string, value: unknown, text: string, bytes: Uint8Array, keyBytes: Uint8Array): void | Promise<void>;
  /** The messages begin; keyBytes is their key as the body wrote it. */
  messagesStart(keyBytes: Uint8Array): void | Promise<void>;
  /** Each message in order, its text and bytes as sent; undefined for those `known` says were seen, which are not decoded. */
  message(index: number, message: Message | undefined, text: string | undefined, bytes: Uint8Array | undefined): void | Promise<void>;
  messagesEnd(count: number): void | Promise<void>;
}

export interface ReadOptions {
  /** Shown each message's text first: true means it was seen before (a follow poll printed it), and it is passed on undecoded. */
  known?: (index: number, text: string) => boolean;
  /** Told the size of each chunk read (collectorEvery: a follow gives one for all its polls). */
  collect?: (read: number) => void;
}

/** Reads the body to its end, telling the visitor as it goes; a body that is not a conversation is exit 3. */
export async function readConversation(
  body: StreamedBody,
  visitor: ConversationVisitor,
  { known, collect }: ReadOptions = {},
): Promise<void> {
  const info: ErrorInfo = { status: body.status, requestId: body.requestId };
  const splitter = new ObjectSplitter('messages');
  const seen = new Set<string>();
  const conversationSchema = ConversationSchema();
  const messageSchema = MessageSchema();

  const parse = (text: string, what: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      throw notJson(body.status, body.headers, `${what} is not valid JSON`, info);
    }
  };

  const handle = (event: SplitEvent): void | Promise<void> => {
    switch (event.kind) {
      case 'item': {
        if (event.text === undefined || known?.(event.index, event.text))
          return visitor.message(event.index, undefined, event.text, event.bytes);
        const message = parse(event.text, `message ${event.index}`);
        checkShape(messageSchema, message, ['messages', event.index], info);
        return visitor.message(event.index, message as Message, event.text, event.bytes);
      }
      case 'field': {
        seen.add(event.key);
        const value = parse(event.text, `the field '${event.key}'`);
        if (event.key === 'conversation') checkShape(conversationSchema.shape.conversation, value, ['conversation'], info);
        else if (event.key === 'state') checkShape(conversationSchema.shape.state, value, ['state'], info);
        else if (event.key === 'messages') checkShape(conversationSchema.shape.messages, value, ['messages'], info);
        return visitor.field(event.key, value, event.text, event.bytes, event.keyBytes);
      }
      case 'items':
        seen.add('messages');
        return visitor.messagesStart(event.keyBytes);
      case 'itemsEnd':
        return visitor.messagesEnd(event.count);
    }
  };

  try {
    for await (const chunk of body.chunks) {
      collect?.(chunk.length);
      for (const event of splitter.push(chunk)) {
        // Most messages are handled without waiting: no promise per message unless output waits.
        const waiting = handle(event);
        if (waiting) await waiting;
      }
    }
    splitter.end();
  } catch (error) {
    if (error instanceof SplitError) throw notJson(body.status, body.headers, error.message, info);
    throw error;
  }
  if (!seen.has('conversation'))
    throw new BadResponseError(`The service sent JSON of an unexpected shape (conversation: expected object).`, info);
  if (!seen.has('messages')) throw new BadResponseError(`The service sent JSON of an unexpected shape (messages: expected array).`, info);
}

/**
 * The header shows the state, which the interface sends after the messages. Until the
 * conversation and its state are both known, what is printed waits in a spool (memory, then a
 * temporary file), not as objects; then the header goes out first and the spool after it.
 */
export class HeaderGate {
  private readonly head: Partial<Head> = {};
  /** The conversation and state as the body wrote them (--follow --json prints them). */
  private readonly texts: HeadTexts = {};
  private stateKnown = false;
  private shown = false;

  constructor(
    private readonly out: Sink,
    private readonly spool: Spool,
    private readonly header: (head: Head, texts: HeadTexts) => string | Promise<string>,
  ) {}

  /** A top-level field; the header goes out as soon as it can, unless held (--tail waits for the count). */
  async field(key: string, value: unknown, hold = false, text?: string): Promise<void> {
    if (this.shown) return;
    if (key === 'conversation') {
      this.head.conversation = value as Head['conversation'];
      this.texts.conversation = text;
    } else if (key === 'state') {
      this.head.state = value as Head['state'];
      this.texts.state = text;
      this.stateKnown = true;
    } else return;
    if (this.head.conversation && this.stateKnown && !hold) await this.show();
  }

  write(text: string): void | Promise<void> {
    if (this.shown) return this.out.write(text);
    this.spool.write(text);
  }

  /** The header (its state absent when the body had none), then what waited for it. */
  async show(): Promise<void> {
    if (this.shown) return;
    this.shown = true;
    await this.out.write(await this.header(this.head as Head, this.texts));
    await this.spool.drainInto(this.out);
  }
}

/** The header's fields as the body wrote them. */
export interface HeadTexts {
  conversation?: string;
  state?: string;
}

/** With --tail n, keeps the last n of what it is given; without, keeps nothing (add says false: print it now). */
export function lastOf<T>(n: number | undefined): { add(item: T): boolean; items(): T[] } {
  let kept: T[] = [];
  return {
    add(item) {
      if (n === undefined) return false;
      if (n === 0) return true;
      kept.push(item);
      if (kept.length >= 2 * n) kept = kept.slice(-n); // trimmed now and then, not shifted each time
      return true;
    },
    items: () => (n === undefined || n === 0 ? [] : kept.slice(-n)),
  };
}
