// The one sanitiser for text that comes from the service on its way to a terminal (cli.md §3),
// used by the terminal and by the HTTP client for the service text its error messages quote:
// no escape sequences, no C0/C1 controls, no bidi overrides or zero-width characters, so a
// transcript, a file name or an error message can never drive the user's terminal.

// CSI and OSC sequences, other two-byte escapes, then C1 CSI.
const ESCAPES =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[@-Z\\-_]?|\x9b[0-?]*[ -/]*[@-~]/g;
// C0 and C1 controls but tab and newline; bidi marks, embeddings, overrides and isolates
// (U+061C, U+200E-F, U+202A-E, U+2066-9); invisible format characters: soft hyphen, zero-width
// spaces and joiners, word joiner and invisible operators, deprecated format controls, the BOM,
// interlinear annotations, Egyptian, shorthand and musical format controls, tag characters; and
// every other Default_Ignorable_Code_Point (the combining grapheme joiner, Hangul fillers, Khmer
// inherent vowels, Mongolian variation selectors, variation selectors 1-14 and 17-256, unassigned
// ones), but for U+FE0E/U+FE0F (text or emoji presentation). The prepended number marks of
// Arabic, Syriac and Kaithi are format characters too, but visible: kept.
const INVISIBLE = String.raw`\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0d\ufeff\uffa0\ufff0-\ufffb\u{13430}-\u{1343f}\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}`;
// Line and paragraph separators break lines in some terminals: they become newlines.
const SEPARATORS = /\u2028|\u2029/g;
const CONTROLS = new RegExp(`[${INVISIBLE}]`, 'gu');
// The quick checks that most text passes: one class without the u flag (a 40 MB transcript
// scans in about 0.8 of the time), the astral ranges by their lead surrogates; a false alarm
// only takes the exact path.
const SUSPECT = String.raw`\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0d\ufeff\uffa0\ufff0-\ufffb\u2028\u2029\ud80d\ud82f\ud834\udb40-\udb43`;
const ANY_CONTROL = new RegExp(`[${SUSPECT}]`);
const ANY_CONTROL_OR_BREAK = new RegExp(`[${SUSPECT}\\t\\n]`);
// Kept: the zero-width joiner where it joins emoji (👨‍👩‍👧 is one family, two columns), and the
// tag sequence of a subdivision flag (🏴 then tag letters then the cancel tag: England, Scotland).
const SUBDIVISION_FLAG = String.raw`\u{1f3f4}[\u{e0020}-\u{e007e}]+\u{e007f}`;
const CONTROLS_BUT_EMOJI_JOINERS = new RegExp(
  `(${SUBDIVISION_FLAG})|(?<=[\\p{Extended_Pictographic}\\u{1f3fb}-\\u{1f3ff}\\ufe0f])\\u200d(?=\\p{Extended_Pictographic})|([${INVISIBLE}])`,
  'gu',
);

/** Service text made safe for a terminal; newlines and tabs stay. */
export function clean(text: unknown): string {
  if (text === null || text === undefined) return '';
  const s = typeof text === 'string' ? text : JSON.stringify(text);
  // Most text has nothing to remove: one scan instead of three replaces (large transcripts).
  if (!ANY_CONTROL.test(s)) return s;
  const stripped = s.replace(ESCAPES, '').replace(/\r\n?/g, '\n').replace(SEPARATORS, '\n');
  if (!stripped.includes('\u200d') && !stripped.includes('\u{1f3f4}')) return stripped.replace(CONTROLS, '');
  return stripped.replace(CONTROLS_BUT_EMOJI_JOINERS, (kept, flag: string | undefined, removed: string | undefined) =>
    flag !== undefined || removed === undefined ? kept : '',
  );
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

/** JSON text with the characters JSON leaves raw but a terminal acts on (or hides) written as \u escapes. */
export function escapeInvisible(json: string): string {
  if (!ANY_CONTROL.test(json)) return json;
  return json.replace(JSON_INVISIBLE, (ch) =>
    Array.from({ length: ch.length }, (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

const JSON_INVISIBLE = new RegExp(`[${INVISIBLE}\\u2028\\u2029]`, 'gu');
