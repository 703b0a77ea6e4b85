// The help topics as terminal text and as the README's Markdown tables.
import { EXIT_CODES, SETTINGS, TOPICS, type Topic } from './topics.js';

const TERM_WIDTH = 20;

/** Words wrapped to `width` columns, each line after `indent` spaces. */
export function wrap(text: string, width: number, indent = 0): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(' '.repeat(indent) + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(' '.repeat(indent) + line);
  return lines;
}

const plain = (text: string) => text.replace(/`([^`]*)`/g, '$1');

/** `wsctl help <topic>`: paragraphs and a two-column list, wrapped like the rest of help. */
export function topicText(topic: Topic, width = 80): string {
  const out: string[] = [];
  for (const p of topic.intro) out.push(...wrap(plain(p), width), '');
  // As wide as the longest term that fits in TERM_WIDTH; a longer one gets a line of its own.
  const termWidth = Math.max(0, ...topic.rows.map(([t]) => t.length).filter((n) => n <= TERM_WIDTH));
  const column = 2 + termWidth + 2;
  for (const [term, text] of topic.rows) {
    const body = wrap(plain(text), Math.max(width, column + 20), column);
    if (term.length <= termWidth) out.push(`  ${term.padEnd(termWidth)}  ${(body[0] ?? '').trimStart()}`, ...body.slice(1));
    else out.push(`  ${term}`, ...body);
  }
  for (const p of topic.outro ?? []) out.push('', ...wrap(plain(p), width));
  out.push(
    '',
    ...wrap(
      `Other topics: ${TOPICS.filter((t) => t !== topic)
        .map((t) => `wsctl help ${t.name}`)
        .join(', ')}.`,
      width,
    ),
  );
  return `${out.join('\n')}\n`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
const row = (cells: string[]) => `|${cells.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`;
const code = (text: string) => `\`${text}\``;

/** The README's configuration table: every flag and variable that sets something. */
export function settingsTable(): string {
  const rows = SETTINGS.map((s) => row([s.flag ? code(s.flag) : '', (s.env ?? []).map(code).join(', '), cell(s.meaning)]));
  return ['| option | env | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The README's exit-code table. */
export function exitCodeTable(): string {
  return ['| code | meaning |', '|---|---|', ...EXIT_CODES.map(([c, m]) => row([String(c), cell(m)]))].join('\n');
}

/** Replaces the text between `<!-- name:start … -->` and `<!-- name:end -->` (markers kept). */
export function replaceSection(readme: string, name: string, body: string): string {
  const start = new RegExp(`<!-- ${name}:start[^>]*-->\\n`).exec(readme);
  const end = readme.indexOf(`<!-- ${name}:end -->`);
  if (!start || end < 0) return readme;
  return `${readme.slice(0, start.index + start[0].length) + body}\n${readme.slice(end)}`;
}
