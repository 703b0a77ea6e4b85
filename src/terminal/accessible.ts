// Accessible mode (cli.md §3, STYLE 22), for screen readers and braille displays: nothing is
// redrawn. A list to choose from is numbered and answered by typing a number (also the list of
// TERM=dumb, which cannot move its cursor), progress is lines of words, and a destructive answer
// is the target's id typed out, never a single key.
import type { Clock } from '../common/clock.js';
import { cleanLine } from '../common/sanitize.js';
import type { Choice } from './choose.js';

/** How long progress may go unsaid: then `still working: …`. */
export const HEARTBEAT_MS = 30_000;

/**
 * ACCESSIBLE, a convention other programs share: on for any value but empty, 0, false, no or off
 * (any case, white space around ignored). Another program's variable is never a reason to stop.
 */
export function sharedAccessibleOn(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

/** A line said in words: the dot that separates pieces on a terminal becomes a comma. */
export function inWords(text: string): string {
  return text.replaceAll(' · ', ', ');
}

/** What the work is, as the end of `still working: …`: "Loading keys" reads "loading keys"; "GET /x" is kept. */
export function working(text: string): string {
  const said = inWords(text).replace(/(?:\u2026|\.\.\.)$/, '');
  return /^\p{Lu}\p{Ll}/u.test(said) ? said.charAt(0).toLowerCase() + said.slice(1) : said;
}

/** The list as printed once: the question, then one numbered line per entry (service text sanitised). */
export function numberedLines(question: string, items: Choice[]): string[] {
  const digits = String(items.length).length;
  return [
    `${question}:`,
    ...items.map((c, i) => {
      const description = cleanLine(c.description);
      return `${String(i + 1).padStart(digits)}. ${cleanLine(c.id)}${description ? `: ${description}` : ''}`;
    }),
  ];
}

export const numberQuestion = (count: number) => `Type a number from 1 to ${count}, or press Enter to cancel: `;

/** What a typed answer to the numbered list means: the entry's index, a cancel (Enter alone), or neither. */
export function typedNumber(answer: string, count: number): number | 'cancel' | undefined {
  const typed = answer.trim();
  if (typed === '') return 'cancel';
  if (!/^\d+$/.test(typed)) return undefined;
  const n = Number(typed);
  return n >= 1 && n <= count ? n - 1 : undefined;
}

/**
 * The typed confirmation of a destructive command: "Type dev_phone to remove device dev_phone:".
 * The action is the question's words up to the target, its quotes dropped ("Remove device
 * 'dev_phone' (profile …)?" asks to remove device dev_phone); `id` is shown as the person types it.
 */
export function typeToConfirm(question: string, id: string): string {
  const at = question.indexOf(id);
  if (at < 0 || id === '') return `Type ${id} to confirm:`;
  const end = at + id.length;
  let action = question.slice(0, end);
  // The quoted word that holds the id ('dev_phone', 'gmail/pdc_gmail') without its quotes.
  const open = question.lastIndexOf("'", at);
  if (question[end] === "'" && open >= 0 && !/\s/.test(question.slice(open, at)))
    action = question.slice(0, open) + question.slice(open + 1, end);
  return `Type ${id} to ${action.charAt(0).toLowerCase()}${action.slice(1)}:`;
}

/**
 * Work under a spinner, said in lines: what the work is when it starts, `still working: …` every
 * 30 seconds of the clock, and nothing when it ends (the result says that).
 */
export async function heartbeat<T>(
  say: (line: string) => void,
  clock: Clock,
  text: string,
  work: Promise<T>,
  progress?: () => string | undefined,
): Promise<T> {
  say(inWords(text));
  const stop = new AbortController();
  const beats = async () => {
    for (;;) {
      await clock.sleep(HEARTBEAT_MS, stop.signal);
      if (stop.signal.aborted) return;
      say(`still working: ${working(progress?.() ?? text)}`);
    }
  };
  beats().catch(() => {}); // the sleep rejects once the work ends
  try {
    return await work;
  } finally {
    stop.abort();
  }
}

/**
 * A status line said in lines instead of redrawn: when what it is about changes (a conversation
 * starts `stopping`), and otherwise `still working: …` once 30 seconds of the clock have passed
 * without a line or other output (clear() says that output came). Nothing when it ends.
 */
export function lineStatus(say: (line: string) => void, clock: Clock) {
  let about: string | undefined;
  let saidAt = 0;
  return {
    set(text: string, topic = text) {
      const now = clock.now();
      if (topic !== about) {
        about = topic;
        saidAt = now;
        say(inWords(text));
      } else if (now - saidAt >= HEARTBEAT_MS) {
        saidAt = now;
        say(`still working: ${working(text)}`);
      }
    },
    clear() {
      if (about !== undefined) saidAt = clock.now();
    },
  };
}
