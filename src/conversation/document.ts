// A conversation read into one document as its body arrives (wsctl mcp's convo_show): only the
// last `tail` messages are kept, and the messages read are counted for whoever listens (an MCP
// call's progress, cli.md §8) while they arrive, not once the whole body is in.
import { notJson } from '../http/decode.js';
import type { Api, ApiResponse, RequestSpec } from '../http/index.js';
import type { Conversation, Message } from '../schemas.js';
import { ObjectSplitter, SplitError } from './split.js';
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
 * document --json prints with --tail (compact between the fields), for --jq to filter. A body
 * JSON.parse took but the splitter does not (a field written twice) is refused as --json refuses it.
 */
export function tailText(response: ApiResponse<Conversation>, tail: number): string | undefined {
  const { text, body } = response;
  if (text === undefined) return undefined;
  const splitter = new ObjectSplitter('messages');
  splitter.skipItems = Math.max(0, body.messages.length - tail);
  const decoder = new TextDecoder();
  const fields: string[] = [];
  let items: string[] = [];
  let array = '';
  try {
    for (const event of splitter.push(Buffer.from(text))) {
      if (event.kind === 'field') fields.push(`${decoder.decode(event.keyBytes)}:${event.text}`);
      else if (event.kind === 'items') {
        array = `${decoder.decode(event.keyBytes)}:[`;
        items = [];
      } else if (event.kind === 'item') {
        if (event.text !== undefined) items.push(event.text);
      } else fields.push(`${array}${items.join(',')}]`);
    }
    splitter.end();
  } catch (error) {
    if (!(error instanceof SplitError)) throw error;
    throw notJson(response.status, response.headers, error.message, { status: response.status, requestId: response.requestId });
  }
  return `{${fields.join(',')}}`;
}
