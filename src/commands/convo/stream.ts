// A conversation read as its body arrives (issue 14, P3): the top-level fields and then each
// message, each checked against its schema and handed on at once, so that `convo show` of 55,000
// messages holds one message at a time, not the body, its text and its objects.
import { NetworkError, type ErrorInfo } from '../../errors.js';
import { checkShape, notJson } from '../../http/decode.js';
import type { StreamedBody } from '../../http/index.js';
import { ObjectSplitter, SplitError, type SplitEvent } from '../../http/split.js';
import { Conversation as ConversationSchema, ConversationDetail, Message as MessageSchema, type Conversation, type Message } from '../../schemas.js';

export type Detail = Conversation['conversation'];

/** What a reader is told, in body order. */
export interface ConversationVisitor {
  /** A top-level field: `conversation` and `state` checked; others (kept by --json) as they came. */
  field(key: string, value: unknown): void | Promise<void>;
  messagesStart(): void | Promise<void>;
  /** Each message in order; undefined for those below `skip`, which are not decoded. */
  message(index: number, message: Message | undefined): void | Promise<void>;
  messagesEnd(count: number): void | Promise<void>;
}

const stateSchema = ConversationSchema.shape.state;

/** Reads the body to its end, telling the visitor as it goes; a body that is not a conversation is exit 3. */
export async function readConversation(body: StreamedBody, visitor: ConversationVisitor, skip = 0): Promise<void> {
  const info: ErrorInfo = { status: body.status, requestId: body.requestId };
  const splitter = new ObjectSplitter('messages');
  splitter.skipItems = skip;
  const seen = new Set<string>();

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
        if (event.text === undefined) return visitor.message(event.index, undefined);
        const message = parse(event.text, `message ${event.index}`);
        checkShape(MessageSchema, message, ['messages', event.index], info);
        return visitor.message(event.index, message as Message);
      }
      case 'field': {
        seen.add(event.key);
        const value = parse(event.text, `the field '${event.key}'`);
        if (event.key === 'conversation') checkShape(ConversationDetail, value, ['conversation'], info);
        else if (event.key === 'state') checkShape(stateSchema, value, ['state'], info);
        else if (event.key === 'messages') checkShape(ConversationSchema.shape.messages, value, ['messages'], info);
        return visitor.field(event.key, value);
      }
      case 'items':
        seen.add('messages');
        return visitor.messagesStart();
      case 'itemsEnd':
        return visitor.messagesEnd(event.count);
    }
  };

  try {
    for await (const chunk of body.chunks) {
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
  if (!seen.has('conversation')) throw new NetworkError(`The service sent JSON of an unexpected shape (conversation: expected object).`, info);
  if (!seen.has('messages')) throw new NetworkError(`The service sent JSON of an unexpected shape (messages: expected array).`, info);
}
