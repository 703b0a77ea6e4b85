// A conversation read into one document as its body arrives (wsctl mcp's convo_show): only the
// last `tail` messages are kept, and the messages read are counted for whoever listens (an MCP
// call's progress, cli.md §8) while they arrive, not once the whole body is in.
import type { Api, ApiResponse, RequestSpec } from '../http/index.js';
import type { Conversation, Message } from '../schemas.js';
import { lastOf, readConversation } from './stream.js';

/** The least time between two counts told while messages arrive; the last count is always told. */
const EVERY_MS = 100;

export async function readDocument(
  api: Api,
  spec: RequestSpec<'Conversation'>,
  tail: number | undefined,
  progress?: (read: number) => void,
): Promise<Conversation> {
  // A body asked for again counts from 0: a count is told only past the last one told.
  let told = -1;
  let toldAt = 0;
  const tell = (read: number, now = Date.now()) => {
    if (read <= told) return;
    told = read;
    toldAt = now;
    progress?.(read);
  };
  return api.stream(
    spec,
    async (body) => {
      const document: Record<string, unknown> = {};
      const kept = lastOf<Message>(tail ?? Number.MAX_SAFE_INTEGER);
      let read = 0;
      await readConversation(body, {
        field(key, value) {
          document[key] = value;
        },
        messagesStart() {
          document.messages = []; // in its place among the fields
        },
        message(_index, message) {
          kept.add(message as Message);
          read++;
          const now = Date.now();
          if (now - toldAt >= EVERY_MS) tell(read, now);
        },
        messagesEnd() {
          document.messages = kept.items();
        },
      });
      tell(read);
      return document as Conversation;
    },
    () => true,
  );
}

/**
 * The conversation's text as the service wrote it with only its last `tail` messages: the
 * document --json prints with --tail (compact between the fields), for --jq to filter. Read as
 * --json reads it, so a body JSON.parse took but --json refuses (a field written twice) is refused.
 */
export async function tailText(response: ApiResponse<Conversation>, tail: number): Promise<string | undefined> {
  const { text } = response;
  if (text === undefined) return undefined;
  const skipped = Math.max(0, response.body.messages.length - tail);
  const decoder = new TextDecoder();
  const fields: string[] = [];
  let messages: string[] = [];
  let key = '';
  await readConversation(
    {
      ...response,
      chunks: (async function* () {
        yield Buffer.from(text);
      })(),
    },
    {
      field: (_key, _value, valueText, _bytes, keyBytes) => void fields.push(`${decoder.decode(keyBytes)}:${valueText}`),
      messagesStart(keyBytes) {
        key = decoder.decode(keyBytes);
        messages = [];
      },
      // The messages before the last `tail` come undecoded (known), without a message.
      message(_index, message, messageText) {
        if (message !== undefined && messageText !== undefined) messages.push(messageText);
      },
      messagesEnd: () => void fields.push(`${key}:[${messages.join(',')}]`),
    },
    { known: (index) => index < skipped },
  );
  return `{${fields.join(',')}}`;
}
