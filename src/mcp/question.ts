// What `wsctl mcp` asks a person before a call that cannot be undone or sends data away (cli.md §8):
// the facts first, each labelled, then the question. Every value the agent chose is quoted, on one
// line and at most 64 characters long, so that no argument can push the action, the profile or the
// base URL out of view (a name padded with wide spaces, a path as long as a screen).
import { cleanLine, escapeInvisible } from '../common/sanitize.js';
import type { Question } from '../verbs/changes.js';
import { snake, type ToolDef } from './tools.js';

/** The most characters of an argument's value a question shows. */
export const SHOWN_CHARS = 64;

/**
 * A value from the call as the question shows it: control characters removed, each run of white
 * space (any Unicode space or line break) one space, cut to 64 characters with `…` (a path in its
 * middle, so that its last component stays), quoted as a JSON string.
 */
export function quoted(value: string, isPath = false): string {
  const chars = [...cleanLine(value).replace(/\s+/gu, ' ')];
  let shown = chars.join('');
  if (chars.length > SHOWN_CHARS) {
    const slash = chars.lastIndexOf('/');
    const tail = isPath && slash >= 0 ? chars.slice(slash) : [];
    shown =
      tail.length > 0 && tail.length < SHOWN_CHARS - 1
        ? `${chars.slice(0, SHOWN_CHARS - 1 - tail.length).join('')}…${tail.join('')}`
        : isPath && tail.length > 0
          ? `…${tail.slice(-(SHOWN_CHARS - 1)).join('')}`
          : `${chars.slice(0, SHOWN_CHARS - 1).join('')}…`;
  }
  return escapeInvisible(JSON.stringify(shown));
}

/** Where the call would act: the profile, and the base URL (the sandbox as `the sandbox`: its port changes on every start). */
export interface Where {
  profile: string;
  baseUrl?: string;
  sandbox: boolean;
}

/** The question's text: the action, the values it names (a local file with its size), the profile and the base URL, then the question. */
export function questionText(tool: ToolDef, question: Question, where: Where, size?: number): string {
  const label = (key: string) => tool.params.find((p) => p.key === key)?.name ?? snake(key);
  const lines = [`Action: ${question.action}${question.said ? `. ${question.said}` : ''}`];
  for (const [key, value] of question.facts) {
    const file = key === tool.spec.localFile;
    lines.push(`${label(key)}: ${quoted(value, file)}${file && size !== undefined ? ` (${size} bytes)` : ''}`);
  }
  lines.push(`Profile: '${cleanLine(where.profile)}'`);
  lines.push(`Base URL: ${where.sandbox ? 'the sandbox' : cleanLine(where.baseUrl ?? 'none')}`);
  lines.push('Allow the agent to do this?');
  return lines.join('\n');
}
