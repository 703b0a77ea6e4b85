// `convo show` without --follow: the conversation printed as its body arrives (issue 14, P3),
// as the transcript or, with --json, as the body's fields and messages.
import type { Api, RequestSpec } from '../http/index.js';
import type { Message } from '../schemas.js';
import { JsonObjectWriter, type Sink, type Terminal } from '../terminal/index.js';
import { collectorEvery } from '../tricks/registry.js';
import { Spool } from './spool.js';
import { HeaderGate, lastOf, readConversation, type ConversationVisitor } from './stream.js';
import { styleFor, transcriptRenderer, type Renderer } from './transcript.js';

export interface PrintOptions {
  /** Only the last n messages. */
  tail?: number;
  markdown: boolean;
  pager: boolean;
  full: boolean;
}

/** Asks for the conversation and prints it as it arrives; a small answer that fails part-way is asked for again. */
/** What a printed conversation showed, for the ids wsctl remembers: its title and each message's persona. */
export interface ConversationShown {
  conversation: { title?: string | null };
  messages: { persona_id?: string | null; persona_name?: string | null }[];
}

export async function printConversation(
  api: Api,
  spec: RequestSpec<'Conversation'>,
  opts: PrintOptions,
  ctx: { term: Terminal; json: boolean },
): Promise<ConversationShown> {
  const { tail } = opts;
  const shown: ConversationShown = { conversation: {}, messages: [] };
  const out = ctx.term.streamOutput('Loading conversation', opts.pager && !ctx.json);
  try {
    await api.stream(
      spec,
      async (body) => {
        out.restart();
        const spool = new Spool(ctx.term.tempDir);
        const printer = ctx.json
          ? jsonPrinter(out, tail)
          : transcriptPrinter(out, transcriptRenderer(styleFor(ctx.term, opts.full), opts.markdown), tail, spool);
        shown.conversation = {};
        const personas = new Map<string, string | null | undefined>();
        try {
          await readConversation(body, noting(printer, shown, personas), { collect: collectorEvery(48 << 20) });
          await printer.done();
          shown.messages = [...personas].map(([persona_id, persona_name]) => ({ persona_id, persona_name }));
        } finally {
          spool.close();
        }
      },
      () => !out.shown,
    );
  } catch (error) {
    await out.abandon();
    throw error;
  }
  await out.end();
  return shown;
}

/**
 * The printer, with the title and personas noted on the way: each persona once, by its name in its
 * latest message, in the order of those messages (what conversationIds keeps of a list of every
 * message's persona, in memory that does not grow with the transcript).
 */
function noting<V extends ConversationVisitor>(printer: V, shown: ConversationShown, personas: Map<string, string | null | undefined>): V {
  return {
    ...printer,
    field(key, value, ...rest) {
      if (key === 'conversation' && value && typeof value === 'object')
        shown.conversation = { title: (value as { title?: string | null }).title };
      return printer.field(key, value, ...rest);
    },
    message(index, message, ...rest) {
      if (message?.persona_id) {
        personas.delete(message.persona_id);
        personas.set(message.persona_id, message.persona_name);
      }
      return printer.message(index, message, ...rest);
    },
  };
}

/**
 * --json as the body arrives: the fields in the order the service sent them, each message as it
 * comes (with --tail, the last n once the array ends), each checked and then written as the
 * service wrote it, re-indented.
 */
function jsonPrinter(out: Sink, tail: number | undefined): ConversationVisitor & { done(): Promise<void> } {
  const writer = new JsonObjectWriter(out);
  const kept = lastOf<Uint8Array>(tail);
  return {
    field: (_key, _value, _text, bytes, keyBytes) => writer.field(keyBytes, bytes),
    messagesStart: (keyBytes) => writer.arrayStart(keyBytes),
    message(_index, _message, _text, bytes) {
      if (!kept.add(bytes as Uint8Array)) return writer.item(bytes as Uint8Array);
    },
    async messagesEnd() {
      for (const bytes of kept.items()) await writer.item(bytes);
      await writer.arrayEnd();
    },
    done: async () => writer.end(),
  };
}

/** The transcript as the body arrives; the header waits for the state (HeaderGate). */
function transcriptPrinter(
  out: Sink,
  renderer: Renderer,
  tail: number | undefined,
  spool: Spool,
): ConversationVisitor & { done(): Promise<void> } {
  const gate = new HeaderGate(out, spool, (head) => renderer.header(head));
  const kept = lastOf<Message>(tail);
  let count = 0;
  let total = 0;
  const print = (message: Message) => {
    count++;
    return gate.write(renderer.message(message));
  };
  return {
    field: (key, value) => gate.field(key, value),
    messagesStart() {},
    message(_index, message) {
      if (!kept.add(message as Message)) return print(message as Message);
    },
    async messagesEnd(all) {
      total = all;
      for (const message of kept.items()) await print(message);
    },
    async done() {
      await gate.show();
      await out.write(renderer.end(count, tail === undefined ? undefined : total));
    },
  };
}
