// The one sanitiser for text that comes from the service on its way to a terminal (cli.md §3),
// used by the terminal and by the HTTP client for the service text its error messages quote:
// no escape sequences, no C0/C1 controls, no bidi overrides or zero-width characters, so a
// transcript, a file name or an error message can never drive the user's terminal.

// CSI and OSC sequences, other two-byte escapes, then C1 CSI.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[@-Z\\-_]?|\x9b[0-?]*[ -/]*[@-~]/g;
// C0 and C1 controls but tab and newline; bidi embeddings, overrides and isolates; zero-width
// characters and the BOM.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const ANY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const ANY_CONTROL_OR_BREAK = /[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** Service text made safe for a terminal; newlines and tabs stay. */
export function clean(text: unknown): string {
  if (text === null || text === undefined) return '';
  const s = typeof text === 'string' ? text : JSON.stringify(text);
  // Most text has nothing to remove: one scan instead of three replaces (large transcripts).
  if (!ANY_CONTROL.test(s)) return s;
  return s.replace(ESCAPES, '').replace(/\r\n?/g, '\n').replace(CONTROLS, '');
}

/** As clean(), on one line: for table cells, tab-separated fields and error messages. */
export function cleanLine(text: unknown): string {
  if (typeof text === 'string' && !ANY_CONTROL_OR_BREAK.test(text)) return text;
  return clean(text).replace(/[\t\n]+/g, ' ');
}

/** An error message, line by line: service text inside it is already one line (src/http/decode.ts), so
 *  the only line breaks are the ones wsctl puts there (a 422's details). */
export function cleanErrorMessage(message: string): string {
  return message.split('\n').map(cleanLine).join('\n');
}

/** JSON text with the characters JSON leaves raw but a terminal acts on written as \u escapes. */
export function escapeInvisible(json: string): string {
  return json.replace(/[\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
