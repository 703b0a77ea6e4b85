// A whole conversation document as the Markdown transcript `convo show --markdown` prints (control
// characters removed), as one text: what an MCP tool and resource return.
import type { Conversation } from '../schemas.js';
import { plain } from '../terminal/index.js';
import { transcriptRenderer } from './transcript.js';

export function transcriptMarkdown(conversation: Conversation): string {
  const renderer = transcriptRenderer({ tty: false, paint: plain, width: 0, full: false }, true);
  let text = renderer.header(conversation);
  for (const message of conversation.messages) text += renderer.message(message);
  return text + renderer.end(conversation.messages.length);
}
