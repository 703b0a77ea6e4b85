// Renders a conversation for people: a transcript (TTY or plain) or Markdown, piece by piece
// (header, each message, totals), so that a 50 MB conversation never becomes one giant string.
import {
  clean,
  cleanLine,
  fitPieces,
  plural,
  relativeTime,
  thousands,
  truncate,
  wrap,
  type Painter,
  type Piece,
  type Terminal,
} from '../terminal/index.js';
import type { Conversation, Message, MessagePart } from '../schemas.js';

export interface Style {
  tty: boolean;
  paint: Painter;
  width: number;
  full: boolean;
}

const MAX_RESULT_LINES = 20;
const MAX_RESULT_CHARS = 2000;
const TOKEN_LABELS = ['input', 'output', 'cache read', 'cache write'];

type Totals = [number, number, number, number];

const tokens = (n: unknown) => (typeof n === 'number' ? n : 0);

function addTokens(totals: Totals, message: Message): Totals {
  const counts: Totals = [
    tokens(message.input_tokens),
    tokens(message.output_tokens),
    tokens(message.cache_read_tokens),
    tokens(message.cache_write_tokens),
  ];
  for (let i = 0; i < 4; i++) totals[i as 0] += counts[i as 0];
  return counts;
}

function formatTokens(counts: Totals, tty: boolean): string {
  const n = (i: number) => (tty ? thousands(counts[i as 0]) : String(counts[i as 0]));
  return `${TOKEN_LABELS[0]} ${n(0)} · ${TOKEN_LABELS[1]} ${n(1)} · ${TOKEN_LABELS[2]} ${n(2)} · ${TOKEN_LABELS[3]} ${n(3)}`;
}

/** "input 1,840", "output 96", …: each whole, for lines fitted to the terminal. */
function tokenPieces(counts: Totals): Piece[] {
  return TOKEN_LABELS.map((label, i) => ({ text: `${label} ${thousands(counts[i as 0])}`, whole: true }));
}

/** The non-empty ones, joined with " · ". */
function joinPresent(...values: string[]): string {
  let joined = '';
  for (const value of values) if (value) joined = joined ? `${joined} · ${value}` : value;
  return joined;
}

function when(iso: string | null | undefined, tty: boolean): string {
  if (!iso) return '';
  if (!tty) return cleanLine(iso);
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return cleanLine(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Tool arguments pretty-printed when they are JSON (a string of JSON or an object). */
function formatArgs(args: unknown): string {
  if (args === undefined || args === null || args === '') return '';
  if (typeof args === 'string') {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  return JSON.stringify(args, null, 2);
}

function shorten(text: string, full: boolean): { text: string; note?: string } {
  if (full) return { text };
  const lines = text.split('\n');
  if (lines.length <= MAX_RESULT_LINES && text.length <= MAX_RESULT_CHARS) return { text };
  let kept = lines.slice(0, MAX_RESULT_LINES).join('\n');
  if (kept.length > MAX_RESULT_CHARS) kept = kept.slice(0, MAX_RESULT_CHARS);
  const hidden = text.length - kept.length;
  return { text: kept, note: `… ${thousands(hidden)} more characters (use --full to see all)` };
}

const indentBlock = (text: string, indent: string) => indent + (text.includes('\n') ? text.replace(/\n/g, `\n${indent}`) : text);

function isResult(kind: string): boolean {
  return kind === 'tool-return' || kind === 'retry-prompt' || kind === 'tool-result';
}

function renderPart(part: MessagePart, style: Style): string {
  const { paint, tty, width } = style;
  const kind = part.part_kind ?? '';
  const tool = part.tool_name ? cleanLine(part.tool_name) : '';
  if (kind === 'tool-call') {
    const call = `→ ${tool}(${clean(formatArgs(part.args))})`.split('\n');
    // On a terminal every line fits its width (cli.md §3); piped, lines stay whole.
    const lines = call.map((line, i) => (tty ? wrap(line, width, i === 0 ? '  ' : '    ') : `${i === 0 ? '  ' : '    '}${line}`));
    return lines
      .join('\n')
      .split('\n')
      .map((l) => paint.cyan(l))
      .join('\n');
  }
  if (isResult(kind)) {
    const { text, note } = shorten(clean(part.content), style.full);
    const body = tty ? wrap(text, width, '    ') : indentBlock(text, '    ');
    const name = tty ? truncate(`← ${tool || kind}`, width - 2) : `← ${tool || kind}`;
    const noteLines =
      note &&
      (tty ? wrap(note, width, '    ') : `    ${note}`)
        .split('\n')
        .map((l) => paint.dim(l))
        .join('\n');
    return `  ${paint.magenta(name)}\n${body}${noteLines ? `\n${noteLines}` : ''}`;
  }
  const content = clean(part.content);
  const prefix =
    kind === 'system-prompt'
      ? paint.dim('system: ')
      : kind && kind !== 'text' && kind !== 'user-prompt'
        ? paint.dim(`[${cleanLine(kind)}] `)
        : '';
  return tty ? wrap(prefix + content, width, '  ') : indentBlock(prefix + content, '  ');
}

/** The state in its colour; shown is the text as laid out (cut to fit). */
function stateLabel(state: string | null | undefined, paint: Painter, shown: string): string {
  if (!state) return '';
  return state === 'running' ? paint.green(shown) : state === 'stopping' ? paint.yellow(shown) : paint.dim(shown);
}

/** How the terminal wants a transcript drawn; full keeps long tool results whole. */
export function styleFor(term: Terminal, full: boolean): Style {
  return { tty: term.tty, paint: term.paint, width: term.width, full };
}

/** What the header shows: the conversation and its state (absent means idle). */
export type Head = Pick<Conversation, 'conversation' | 'state'>;

/** The state as people read it: a missing or null state is idle (interface rule 2, cli.md §5). */
const stateOf = (head: Head): string => head.state ?? 'idle';

/** The text of a conversation piece by piece: the header, each message as it comes, the totals. */
export interface Renderer {
  header(head: Head): string;
  message(message: Message): string;
  /** The totals of the `shown` messages; `of` is how many the conversation has, when --tail left some out. */
  end(shown: number, of?: number): string;
}

/** "6 messages", or with --tail "2 of 6 messages": what the totals count. */
function counted(shown: number, of: number | undefined): string {
  return of === undefined ? plural(shown, 'message') : `${thousands(shown)} of ${plural(of, 'message')}`;
}

function plainRenderer(style: Style): Renderer {
  const { paint, tty } = style;
  const totals: Totals = [0, 0, 0, 0];
  return {
    header(head) {
      const c = head.conversation;
      if (tty) {
        // Every line fits the terminal; the id and the times are never cut (cli.md §3).
        const title = wrap(cleanLine(c.title) || '(untitled)', style.width)
          .split('\n')
          .map((l) => paint.bold(l))
          .join('\n');
        const meta = fitPieces(
          [
            { text: cleanLine(c.id), whole: true },
            { text: cleanLine(c.type) },
            { text: cleanLine(stateOf(head)), paint: (s) => stateLabel(stateOf(head), paint, s) },
            { text: c.created_at ? `created ${relativeTime(c.created_at)}` : '', whole: true },
            { text: c.updated_at ? `updated ${relativeTime(c.updated_at)}` : '', whole: true },
          ],
          style.width,
        );
        const deleted = c.deleted_at ? `${paint.red(`deleted ${relativeTime(c.deleted_at)}`)}\n` : '';
        return `${title}\n${meta}\n${deleted}`;
      }
      const fields: [string, unknown][] = [
        ['title', c.title],
        ['id', c.id],
        ['type', c.type],
        ['state', stateOf(head)],
        ['created_at', c.created_at],
        ['updated_at', c.updated_at],
      ];
      if (c.deleted_at) fields.push(['deleted_at', c.deleted_at]);
      return fields.map(([k, v]) => `${k}\t${cleanLine(v)}\n`).join('');
    },
    // Built by concatenation, not arrays joined: this runs 55,000 times for a large transcript.
    message(message) {
      const counts = addTokens(totals, message);
      const time = when(message.timestamp, tty);
      const kind = cleanLine(message.kind) || 'message';
      let text = tty
        ? `\n${fitPieces([{ text: time, whole: true }, { text: kind }, { text: cleanLine(message.persona_name) }, { text: cleanLine(message.model_name) }], style.width, { indent: '▸ ', continuation: '  ', paintLine: paint.bold })}`
        : `\n${paint.bold(`▸ ${joinPresent(time, kind, cleanLine(message.persona_name), cleanLine(message.model_name))}`)}`;
      if (message.parts) for (const part of message.parts) text += `\n${renderPart(part, style)}`;
      if (counts[0] > 0 || counts[1] > 0 || counts[2] > 0 || counts[3] > 0) {
        text += tty
          ? `\n${fitPieces(
              tokenPieces(counts).map((p, i) => (i === 0 ? { ...p, text: `tokens: ${p.text}` } : p)),
              style.width,
              { indent: '  ', continuation: '          ', paintLine: paint.dim },
            )}`
          : `\n${paint.dim(`  tokens: ${formatTokens(counts, tty)}`)}`;
      }
      return `${text}\n`;
    },
    end(shown, of) {
      if (!tty) return `\n${paint.bold('Totals')}  ${formatTokens(totals, tty)} (${counted(shown, of)})\n`;
      const pieces: Piece[] = [
        { text: 'Totals', paint: paint.bold },
        ...tokenPieces(totals),
        { text: `(${counted(shown, of)})`, whole: true, sep: ' ' },
      ];
      pieces[1] = { ...(pieces[1] as Piece), sep: '  ' };
      return `\n${fitPieces(pieces, style.width, { continuation: '        ' })}\n`;
    },
  };
}

// A line Markdown reads as structure (CommonMark): after up to three spaces, and then inside any block
// quote or list markers, an ATX heading, a setext underline (`-` under a paragraph is one, not an
// empty list item), a thematic break, a code fence, or an HTML block (`<h2>`). A thematic break may
// look like list markers itself (`- - -`), so the whole line is tried first.
const RULE = /^( {0,3})([-*_])(?:[ \t]*\2){2,}[ \t]*$/;
const CONTAINERS = /^(?: {0,3}(?:>|[-+*]|\d{1,9}[.)])(?:[ \t]+|$))*/;
const STRUCTURE = /^( {0,3})(?:#{1,6}(?:[ \t]|$)|`{3,}|~{3,}|=+[ \t]*$|-+[ \t]*$|([-*_])(?:[ \t]*\2){2,}[ \t]*$|<[A-Za-z/!?])/;

/** One line of service text that Markdown would read as a heading, a rule or a fence, escaped with a backslash. */
function escapeStructure(line: string): string {
  const rule = RULE.exec(line) ?? STRUCTURE.exec(line);
  if (rule) return `${rule[1]}\\${line.slice((rule[1] as string).length)}`;
  // Inside a block quote or list item (`> ## x`, `1. ---`).
  const containers = (CONTAINERS.exec(line) as RegExpExecArray)[0];
  const structure = containers ? STRUCTURE.exec(line.slice(containers.length)) : null;
  if (!structure) return line;
  const at = containers.length + (structure[1] as string).length;
  return `${line.slice(0, at)}\\${line.slice(at)}`;
}

/**
 * Message text as Markdown paragraphs that cannot add to the transcript's structure (cli.md §5):
 * every line that Markdown would read as a heading, a rule or a fence is escaped, so the transcript
 * has exactly one heading per message.
 */
export function markdownText(text: string): string {
  if (!MAY_BE_STRUCTURE.test(text)) return text;
  return text.split('\n').map(escapeStructure).join('\n');
}

// The characters a line of structure starts with (after spaces and markers): most text has none at a line's start.
const MAY_BE_STRUCTURE = /(?:^|\n)[ \t>+*\d.)-]*[-#=`~*_<]/;

function fence(text: string, lang = ''): string {
  // A loop, not Math.max(...fences): a text with 130,000 fences would overflow the stack.
  let longest = 2;
  for (const f of text.match(/`{3,}/g) ?? []) longest = Math.max(longest, f.length);
  const marks = '`'.repeat(longest + 1);
  return `${marks}${lang}\n${text}\n${marks}`;
}

/**
 * Markdown fitted to a terminal (cli.md §3): lines outside fenced code blocks wrapped to the width
 * (a list item's continuation indented under it); fenced code is left exactly as it is.
 */
function fitMarkdown(text: string, width: number): string {
  let fence: string | undefined;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const marks = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marks && marks[0] === fence[0] && marks.length >= fence.length && line.trim() === marks) fence = undefined;
      out.push(line);
    } else if (marks) {
      fence = marks;
      out.push(line);
    } else out.push(fitLine(line, width));
  }
  return out.join('\n');
}

/**
 * A line of prose wrapped to the width. A break may start a line with what Markdown reads as
 * structure (`a ## b` → `## b`): such a line is escaped, the whole wrapped again a column
 * narrower so that the backslash still fits.
 */
function fitLine(line: string, width: number): string {
  const wrapped = (w: number) => (line.startsWith('- ') ? `- ${wrap(line.slice(2), w, '  ').slice(2)}` : wrap(line, w));
  const lines = wrapped(width).split('\n');
  if (lines.length === 1 || lines.every((l, i) => i === 0 || escapeStructure(l) === l)) return lines.join('\n');
  return wrapped(Math.max(1, width - 1))
    .split('\n')
    .map((l, i) => (i === 0 ? l : escapeStructure(l)))
    .join('\n');
}

function markdownRenderer(style: Style): Renderer {
  const rendered = markdownRendering(style);
  if (!style.tty) return rendered;
  // On a terminal every line of prose fits; piped, Markdown goes out as written.
  return {
    header: (head) => fitMarkdown(rendered.header(head), style.width),
    message: (message) => fitMarkdown(rendered.message(message), style.width),
    end: (shown, of) => fitMarkdown(rendered.end(shown, of), style.width),
  };
}

function markdownRendering(style: Style): Renderer {
  const totals: Totals = [0, 0, 0, 0];
  return {
    header(head) {
      const c = head.conversation;
      const lines = [`# ${cleanLine(c.title) || 'Untitled conversation'}`, ''];
      const facts: [string, unknown][] = [
        ['ID', c.id],
        ['Type', c.type],
        ['State', stateOf(head)],
        ['Created', c.created_at],
        ['Updated', c.updated_at],
      ];
      if (c.deleted_at) facts.push(['Deleted', c.deleted_at]);
      for (const [k, v] of facts) if (v) lines.push(`- **${k}:** ${cleanLine(v)}`);
      return `${lines.join('\n')}\n`;
    },
    message(message) {
      const counts = addTokens(totals, message);
      const kind = cleanLine(message.kind) || 'message';
      const who = message.persona_name
        ? `${cleanLine(message.persona_name)}${message.model_name ? ` (${cleanLine(message.model_name)})` : ''}`
        : cleanLine(message.model_name);
      const title = [kind.charAt(0).toUpperCase() + kind.slice(1), who, cleanLine(message.timestamp)].filter(Boolean).join(' · ');
      const blocks = [`\n## ${title}`];
      for (const part of message.parts ?? []) {
        const partKind = part.part_kind ?? '';
        if (partKind === 'tool-call')
          blocks.push(`**Tool call:** \`${cleanLine(part.tool_name)}\`\n\n${fence(clean(formatArgs(part.args)), 'json')}`);
        else if (isResult(partKind)) {
          const { text, note } = shorten(clean(part.content), style.full);
          blocks.push(`**Tool result:** \`${cleanLine(part.tool_name)}\`\n\n${fence(text)}${note ? `\n\n_${note}_` : ''}`);
        } else blocks.push(markdownText(clean(part.content)));
      }
      if (counts.some((n) => n > 0)) blocks.push(`_Tokens: ${formatTokens(counts, false)}_`);
      return `${blocks.join('\n\n')}\n`;
    },
    end(shown, of) {
      return `\n---\n\n**Totals:** ${formatTokens(totals, false)} (${counted(shown, of)})\n`;
    },
  };
}

/** The transcript for people (TTY or plain) or as Markdown. */
export function transcriptRenderer(style: Style, markdown: boolean): Renderer {
  return markdown ? markdownRenderer(style) : plainRenderer(style);
}
