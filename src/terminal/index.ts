// The one terminal object (gh's iostreams): it alone knows the streams, whether each is a
// terminal, the width, colour, whether prompting is allowed, and it starts the pager and the
// spinner. Verbs say what a value is (an id, a time, a secret, a warning); this decides how it
// reads on a TTY, piped, or as JSON. Heavy libraries (chalk, ora) load only when used.
import type { Readable, Writable } from 'node:stream';
import { InterruptedError, UsageError } from '../errors.js';
import { realClock, type Clock } from '../common/clock.js';
import { cleanErrorMessage, cleanLine } from '../common/sanitize.js';
import { displayWidth, label, wrap } from './format.js';
import { bufferedSink, openPager, type Sink } from './pager.js';
import { heldSink, type HeldSink } from './held-sink.js';
import { compactJson, indentedJson, valueJson } from './json.js';
import type { JqFilter } from './jq.js';
import { readFirstLine, readStdin, type Choice, type Prompt } from './prompt.js';
import { renderTable } from './table.js';
import { wrapWords } from './words.js';
import { heartbeat, lineStatus, numberedLines, numberQuestion, typedNumber, typeToConfirm } from './accessible.js';

export { clean, cleanLine } from '../common/sanitize.js';
export { displayWidth, fitPieces, mask, plural, relativeTime, thousands, wrap, type Piece } from './format.js';
export { truncate } from './width.js';
export type { Sink } from './pager.js';
export type { HeldSink } from './held-sink.js';
export { compactJson, indentedJson, JsonObjectWriter, valueJson } from './json.js';

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The terminal's width in columns, when it reports one. */
  columns: number;
  /** Help and version text, written without making the stdout stream (the real process only). */
  writeHelp?(text: string): void;
  /** A pager started: Ctrl-C waits for it to exit (the real process only). */
  onPager?(exited: Promise<void>): void;
  /** What the user must be told if the output cannot be written (the real process only). */
  onLost?(note: string): void;
}

export type Env = Record<string, string | undefined>;

export interface Painter {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

export const plain: Painter = {
  bold: (t) => t,
  dim: (t) => t,
  red: (t) => t,
  green: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
  magenta: (t) => t,
};

/** A terminal that understands no escape sequence at all: no colour, no styling, no spinner, no cursor movement. */
export function dumbTerminal(env: Env): boolean {
  return env.TERM === 'dumb';
}

/**
 * cli.md §1: --no-color and a non-empty NO_COLOR win over everything; FORCE_COLOR or
 * CLICOLOR_FORCE set to anything but 0 force colour (as gh and chalk read them); FORCE_COLOR=0 or
 * CLICOLOR=0 turn it off; otherwise colour on a terminal whose TERM is not dumb. CI changes nothing.
 */
export function colorWanted(isTTY: boolean, env: Env, noColorFlag: boolean): boolean {
  if (noColorFlag || (env.NO_COLOR ?? '') !== '') return false;
  if (colorForced(env)) return true;
  if (env.FORCE_COLOR === '0' || env.CLICOLOR === '0') return false;
  return isTTY && !dumbTerminal(env);
}

/** FORCE_COLOR or CLICOLOR_FORCE set to anything but 0: colour even where it would be off. */
function colorForced(env: Env): boolean {
  return (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') || ((env.CLICOLOR_FORCE ?? '') !== '' && env.CLICOLOR_FORCE !== '0');
}

/** The width to lay out for: $COLUMNS, else the terminal's own, else 80. */
export function terminalWidth(env: Env, reported: number | undefined): number {
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return reported && reported > 0 ? reported : 80;
}

async function painterFor(enabled: boolean): Promise<Painter> {
  if (!enabled) return plain;
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 });
}

export type Cell = string | number | boolean | null | undefined;

export interface Column {
  header: string;
  /** How the cell reads on a TTY (relative time, a marker); piped output keeps the raw value. */
  tty?: (value: Cell) => string;
  /** Never shortened to fit: ids, key prefixes, times. */
  fixed?: boolean;
}

const utf8 = new TextDecoder();

/** The text --jq filters: the service's own when the document is its body, else JSON.stringify's. */
function documentText(value: unknown, text: string | Uint8Array | undefined): string {
  if (text === undefined) return JSON.stringify(value);
  return typeof text === 'string' ? text : utf8.decode(text);
}

/** A value as piped output spells it: null is an empty field, booleans are true/false. */
export function rawField(value: Cell): string {
  return value === null || value === undefined ? '' : cleanLine(value);
}

export interface StatusLine {
  /** `topic`: what the line is about (a state); said again at once in accessible mode when it changes. */
  set(text: string, topic?: string): void;
  /** Removes the line, before a result is printed. */
  clear(): void;
}

export interface TerminalOptions {
  json: boolean;
  noColor: boolean;
  noInput: boolean;
  /** Under an AI agent ("claude-code, from CLAUDECODE"): never a prompt, a pager or a spinner, even on a TTY. */
  agent?: string;
  prompt: Prompt;
  /** --jq: every JSON document printed goes through it. */
  jq?: JqFilter;
  /**
   * Accessible mode (cli.md §3): WSCTL_ACCESSIBLE, ACCESSIBLE or `"accessible": true` in config.json.
   * Asked when output needs it, so config.json is read for it only then.
   */
  accessible?: () => boolean;
  /** What the heartbeat of accessible mode counts its 30 seconds on; the real clock when absent. */
  clock?: Clock;
}

export class Terminal {
  /** stdout is a terminal: tables, colour, relative times. */
  readonly tty: boolean;
  readonly width: number;
  /** A person can be asked: stdin and stderr are terminals and --no-input is off. */
  readonly canPrompt: boolean;

  constructor(
    private readonly io: IO,
    /** colours for stdout */
    private readonly stdoutPaint: Painter,
    /** colours for stderr */
    private readonly stderrPaint: Painter,
    private readonly env: Env,
    private readonly options: TerminalOptions,
  ) {
    this.tty = io.stdoutIsTTY;
    this.width = terminalWidth(env, io.columns);
    this.canPrompt = io.stdinIsTTY && io.stderrIsTTY && !options.noInput;
  }

  /** Accessible mode (cli.md §3): numbered lists, progress in lines of words, typed confirmations, no colour. */
  get accessible(): boolean {
    return this.options.accessible?.() ?? false;
  }

  /**
   * Colours for stdout. None in accessible mode unless forced: a screen reader or braille display
   * gets the words without escape sequences, and no meaning is carried by colour alone.
   */
  get paint(): Painter {
    return this.stdoutPaint !== plain && this.accessible && !colorForced(this.env) ? plain : this.stdoutPaint;
  }

  /** Colours for stderr, as paint. */
  get paintErr(): Painter {
    return this.stderrPaint !== plain && this.accessible && !colorForced(this.env) ? plain : this.stderrPaint;
  }

  write(text: string): void {
    this.io.stdout.write(text);
  }

  /** stdin is a terminal (a person types), not a pipe or a file. */
  get stdinIsTTY(): boolean {
    return this.io.stdinIsTTY;
  }

  /** stderr is a terminal (a person reads it). */
  get stderrIsTTY(): boolean {
    return this.io.stderrIsTTY;
  }

  /** All of stdin as text, bounded (api --input -). */
  readInput(): Promise<string> {
    return readStdin(this.io.stdin);
  }

  /** The first line of stdin: a key piped in. */
  readInputLine(): Promise<string> {
    return readFirstLine(this.io.stdin);
  }

  /** stdout as a sink whose every write goes out at once (--follow: `| grep --line-buffered` sees each message). */
  unbuffered(): Sink {
    return bufferedSink(this.io.stdout, undefined, 0);
  }

  /** A line on stderr as it is, for a log (sandbox serve): no prefix, no wrapping. */
  log(line: string): void {
    this.io.stderr.write(`${line}\n`);
  }

  /** The process's streams, for a door that speaks its own protocol on them (wsctl mcp). */
  get streams(): Pick<IO, 'stdin' | 'stdout' | 'stderr'> {
    return { stdin: this.io.stdin, stdout: this.io.stdout, stderr: this.io.stderr };
  }

  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /**
   * One 2-space-indented document, or its --jq results. `text` is the service's own JSON of the
   * value, when the document is the service's body: printed re-indented (cli.md §3), and what
   * --jq filters, so that jq reads numbers as the service wrote them, as it would read --json.
   */
  async printJson(value: unknown, text?: string | Uint8Array): Promise<void> {
    if (this.options.jq) {
      const sink = bufferedSink(this.io.stdout);
      try {
        await this.options.jq.run(documentText(value, text), this.tty, sink);
      } finally {
        await sink.end();
      }
      return;
    }
    this.printJsonText(value, text);
  }

  /** A JSON document for people (api without --json): the same text as --json prints. */
  printJsonText(value: unknown, text?: string | Uint8Array): void {
    if (text === undefined) this.io.stdout.write(`${valueJson(value, true)}\n`);
    else {
      this.io.stdout.write(indentedJson(text));
      this.io.stdout.write('\n');
    }
  }

  /** One compact JSON line (newline-delimited output), or its --jq results; `text` as for printJson. */
  async printJsonLine(value: unknown, text?: string | Uint8Array): Promise<void> {
    this.io.stdout.write(await this.jsonLine(value, text));
  }

  /** The text printJsonLine prints: the line, or the --jq results a line each (empty when none). */
  async jsonLine(value: unknown, text?: string | Uint8Array): Promise<string> {
    if (!this.options.jq) return `${text === undefined ? valueJson(value, false) : compactJson(text)}\n`;
    const parts: string[] = [];
    const decoder = new TextDecoder();
    await this.options.jq.run(documentText(value, text), this.tty, {
      write: (chunk) => void parts.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })),
      end: async () => {},
    });
    return parts.join('') + decoder.decode();
  }

  /** Tab-separated records, one a line: what piped output is made of. */
  tsv(rows: Cell[][]): void {
    for (const row of rows) this.line(row.map(rawField).join('\t'));
  }

  /** A list: a table that fits the terminal on a TTY, tab-separated raw values when piped. */
  table(columns: Column[], rows: Cell[][]): void {
    if (!this.tty) return this.tsv(rows);
    const cells = rows.map((row) => row.map((cell, i) => cleanLine(columns[i]?.tty ? columns[i].tty(cell) : rawField(cell))));
    for (const line of renderTable(columns, cells, this.width, (s) => this.paint.bold(s))) this.line(line);
  }

  /**
   * A record: aligned "Label:  value" lines on a TTY, key<TAB>value when piped. The third element
   * is what a TTY shows instead of the value: text wrapped like a value (with a muted note after
   * it), or already-painted short words such as yes/no.
   */
  detail(pairs: [key: string, value: Cell, tty?: string | { text: string; note?: string }][]): void {
    if (!this.tty) {
      for (const [key, value] of pairs) this.line(`${key}\t${rawField(value)}`);
      return;
    }
    const labels = pairs.map(([key]) => label(key));
    const width = Math.max(...labels.map((l) => l.length));
    const indent = ' '.repeat(width + 3);
    pairs.forEach(([, value, shown], i) => {
      // Long values wrap under themselves, within the terminal's width.
      const text =
        typeof shown === 'object'
          ? this.wrapNoted(shown, indent)
          : shown !== undefined
            ? shown.includes('\x1b')
              ? shown
              : wrap(cleanLine(shown), this.width, indent).slice(indent.length)
            : value === null || value === undefined
              ? this.paint.dim('(none)')
              : wrap(cleanLine(value), this.width, indent).slice(indent.length);
      this.line(`${this.paint.bold(`${labels[i]}:`.padEnd(width + 1))}  ${text}`);
    });
  }

  /** Text wrapped under itself with a muted note after it: "Ada Lovelace (suggested)". */
  private wrapNoted(shown: { text: string; note?: string }, indent: string): string {
    const note = shown.note ? cleanLine(shown.note) : '';
    const text = cleanLine(shown.text);
    const wrapped = wrap(note ? `${text} ${note}` : text, this.width, indent).slice(indent.length);
    if (!note || !wrapped.endsWith(note)) return wrapped;
    return wrapped.slice(0, wrapped.length - note.length) + this.paint.dim(note);
  }

  /** A section title on a TTY. */
  heading(text: string): void {
    this.line(this.paint.bold(text));
  }

  /** Secondary text on a TTY: "(suggested)", an empty section. */
  muted(text: string): string {
    return this.paint.dim(text);
  }

  /** A yes/no fact: coloured words on a TTY, true/false piped (one spelling for scripts). */
  flag(value: boolean): string {
    if (!this.tty) return String(value);
    return value ? this.paint.green('yes') : this.paint.red('no');
  }

  /** A confirmation that is the command's result; the check mark (in accessible mode the word) only on a TTY. */
  done(message: string): void {
    const text = cleanLine(message);
    if (!this.tty) return this.line(text);
    // Wrapped at the terminal's width between words, as talk on stderr is: a path it names stays whole.
    const wrapped = wrapWords(`${this.accessible ? 'done:' : '✓'} ${text}`, this.width, displayWidth);
    this.line(this.accessible ? wrapped : `${this.paint.green('✓')}${wrapped.slice(1)}`);
  }

  /**
   * Text for stderr: on a terminal, wrapped at its width between words (an id, a URL, a path or a
   * `command` is never cut); piped, one line as it is.
   */
  forStderr(text: string): string {
    return this.io.stderrIsTTY ? wrapWords(text, this.width, displayWidth) : text;
  }

  /** Talk on stderr; whatever it quotes cannot drive the terminal. */
  info(message: string): void {
    this.io.stderr.write(`${this.forStderr(cleanErrorMessage(message))}\n`);
  }

  warn(message: string): void {
    if (this.accessible) return void this.io.stderr.write(`${this.forStderr(`warning: ${cleanErrorMessage(message)}`)}\n`);
    const text = this.forStderr(`! ${cleanErrorMessage(message)}`);
    this.io.stderr.write(`${this.paintErr.yellow('!')}${text.slice(1)}\n`);
  }

  /** A dim line on stderr (debug traces). */
  trace(message: string): void {
    this.io.stderr.write(`${this.paintErr.dim(message)}\n`);
  }

  /** Progress is shown: stderr is a terminal (a person reads it), outside CI and not under an agent. */
  private get showsProgress(): boolean {
    return this.io.stderrIsTTY && this.env.CI === undefined && this.options.agent === undefined;
  }

  /** Spinners and status lines: progress is shown, on a terminal with a size (ora cannot draw without one) that moves its cursor. */
  private get animated(): boolean {
    const width = (this.io.stderr as { columns?: number }).columns ?? 0;
    return this.showsProgress && width > 0 && !dumbTerminal(this.env) && !this.accessible;
  }

  /** Progress said in lines instead of drawn (accessible mode). */
  private get saysProgress(): boolean {
    return this.showsProgress && this.accessible;
  }

  /** A line of progress on stderr, wrapped like any talk there. */
  private say = (line: string): void => {
    this.io.stderr.write(`${this.forStderr(cleanErrorMessage(line))}\n`);
  };

  /** The spinner's colour follows stderr's colour rules (ora's own would ignore CLICOLOR=0). */
  private get spinnerColor(): 'cyan' | false {
    return this.paintErr === plain ? false : 'cyan';
  }

  /** Runs work under a spinner on stderr, only on a TTY with a size and outside CI. */
  async spin<T>(text: string, work: Promise<T>, progress?: () => string | undefined): Promise<T> {
    // Handled now: the work may fail while the spinner module is still loading.
    work.catch(() => {});
    if (this.saysProgress) return heartbeat(this.say, this.options.clock ?? realClock, text, work, progress);
    if (!this.animated) return work;
    const { default: ora } = await import('ora');
    const spinner = ora({
      text,
      stream: this.io.stderr as NodeJS.WriteStream,
      isEnabled: true,
      discardStdin: false,
      color: this.spinnerColor,
    }).start();
    const ticker = progress && setInterval(() => (spinner.text = progress() ?? text), 100);
    try {
      return await work;
    } finally {
      if (ticker) clearInterval(ticker);
      spinner.stop();
    }
  }

  /** A one-line status on stderr while waiting (a spinner), only on a TTY with a size and outside CI. */
  async statusLine(): Promise<StatusLine> {
    if (this.saysProgress) return lineStatus(this.say, this.options.clock ?? realClock);
    if (!this.animated) return { set: () => {}, clear: () => {} };
    const { default: ora } = await import('ora');
    const spinner = ora({ stream: this.io.stderr as NodeJS.WriteStream, isEnabled: true, discardStdin: false, color: this.spinnerColor });
    return {
      set(text) {
        spinner.text = text;
        if (!spinner.isSpinning) spinner.start();
      },
      clear() {
        if (spinner.isSpinning) spinner.stop();
      },
    };
  }

  /**
   * Where long output goes: the pager on a TTY unless turned off, else stdout. On TERM=dumb only a
   * pager the user names is started (less would stop to warn that the terminal is not functional),
   * and so in accessible mode, where nothing is redrawn: the output is printed once, as it reads.
   */
  async pager(wanted: boolean): Promise<Sink> {
    const named = this.env.WSCTL_PAGER ?? this.env.PAGER;
    if (named === undefined && (dumbTerminal(this.env) || this.accessible)) return bufferedSink(this.io.stdout);
    const command = (named ?? 'less -FRX').trim();
    if (!wanted || !this.tty || command === '' || command === 'cat' || this.options.agent !== undefined)
      return bufferedSink(this.io.stdout);
    return openPager({
      command,
      env: this.env,
      onStart: this.io.onPager,
      direct: () => bufferedSink(this.io.stdout),
      warn: (m) => this.warn(m),
    });
  }

  /**
   * Where a long answer goes as it arrives: held, under a spinner, until it is complete or passes
   * 1 MiB (so a small answer that fails shows nothing), then the pager (when wanted) or stdout.
   */
  streamOutput(spinnerText: string, pager: boolean): HeldSink {
    let stop = () => {};
    const spinning = this.spin(spinnerText, new Promise<void>((resolve) => (stop = resolve)));
    const stopSpinner = async () => {
      stop();
      await spinning;
    };
    return heldSink(
      async () => {
        await stopSpinner();
        return this.pager(pager);
      },
      1 << 20,
      stopSpinner,
    );
  }

  /** Where temporary files go: $TMPDIR, or the system's default when unset. */
  get tempDir(): string | undefined {
    return this.env.TMPDIR || undefined;
  }

  /** Asks for a secret with input hidden; without a terminal (or with --no-input) names what answers it instead. */
  async secret(question: string, instead: string): Promise<string> {
    if (!this.canPrompt) throw new UsageError(this.noPrompt(instead), { reason: 'missing_argument' });
    return this.options.prompt.secret(this.question(cleanLine(question)));
  }

  /** Asks for a line of text, echoed; without a terminal (or with --no-input) names what answers it instead. */
  async ask(question: string, instead: string): Promise<string> {
    if (!this.canPrompt || !this.options.prompt.text) throw new UsageError(this.noPrompt(instead), { reason: 'missing_argument' });
    return this.options.prompt.text(this.question(question));
  }

  /**
   * Asks [y/N]; without a terminal (or with --no-input) names what answers it instead. `typed`, the
   * target's id of a destructive command: in accessible mode the answer is that id typed out, and
   * anything else is no (cli.md §5).
   */
  async confirm(question: string, instead: string, typed?: string): Promise<boolean> {
    if (!this.canPrompt) throw new UsageError(this.noPrompt(instead), { reason: 'confirmation_required' });
    // The question repeats arguments (a pasted id): none of it may drive the terminal (cli.md §5).
    const asked = cleanLine(question);
    if (typed !== undefined && this.accessible && this.options.prompt.text) {
      const id = cleanLine(typed);
      const answer = await this.options.prompt.text(this.question(`${asked}\n${typeToConfirm(asked, id)} `));
      return id !== '' && answer.trim() === id;
    }
    return this.options.prompt.confirm(this.question(asked, ' [y/N]'));
  }

  /**
   * A question wrapped at the terminal's width, its trailing spaces kept; `suffix` is what the
   * prompt adds after it ([y/N]), kept on the question's last line.
   */
  private question(text: string, suffix = ''): string {
    const tail = /\s*$/.exec(text)![0];
    const glue = '\u0000';
    const wrapped = wrapWords(`${text.trimEnd()}${suffix.replace(/ /g, glue)}`, this.width, (word) =>
      displayWidth(word.replaceAll(glue, ' ')),
    );
    return wrapped.slice(0, wrapped.length - suffix.length) + tail;
  }

  /** The list to choose from is printed once, numbered, and answered by typing: accessible mode, and a terminal that cannot move its cursor. */
  private get numberedList(): boolean {
    return this.accessible || dumbTerminal(this.env);
  }

  /** A list can be shown to choose from: prompting is allowed (canPrompt, the one place that decides) and the prompt can show it. */
  get canChoose(): boolean {
    return this.canPrompt && !!(this.numberedList ? this.options.prompt.text : this.options.prompt.choose);
  }

  /** Shows the items to choose one from; without a terminal (or with --no-input) names what answers it instead. */
  async choose(question: string, items: Choice[], instead: string): Promise<string> {
    if (!this.canChoose) throw new UsageError(this.noPrompt(instead), { reason: 'missing_argument' });
    if (this.numberedList) return this.chooseByNumber(cleanLine(question), items);
    return this.options.prompt.choose!(cleanLine(question), items, this.width);
  }

  /** The numbered list: printed once, then a number is typed; Enter alone cancels (exit 130, as Esc does in the drawn list). */
  private async chooseByNumber(question: string, items: Choice[]): Promise<string> {
    for (const line of numberedLines(question, items)) this.io.stderr.write(`${this.forStderr(line)}\n`);
    // A few wrong answers are asked again; then the choice ends, as a cancel would.
    for (let tries = 0; tries < 3; tries++) {
      const answer = await this.options.prompt.text!(this.question(numberQuestion(items.length)));
      const picked = typedNumber(answer, items.length);
      if (picked === 'cancel') break;
      if (picked !== undefined) return (items[picked] as Choice).id;
      this.io.stderr.write(`${this.forStderr(`'${cleanLine(answer.trim())}' is not a number from 1 to ${items.length}.`)}\n`);
    }
    throw new InterruptedError();
  }

  private noPrompt(instead: string): string {
    const why = this.options.agent
      ? `Prompts are off under an AI agent (${this.options.agent})`
      : this.options.noInput
        ? 'Prompts are off (--no-input or WSCTL_NO_INPUT=1)'
        : 'No terminal to ask on';
    return `${why}: ${instead}.`;
  }
}

export async function createTerminal(io: IO, env: Env, options: TerminalOptions): Promise<Terminal> {
  const stdoutColor = !options.json && colorWanted(io.stdoutIsTTY, env, options.noColor);
  const stderrColor = colorWanted(io.stderrIsTTY, env, options.noColor);
  const [paint, paintErr] = await Promise.all([painterFor(stdoutColor), painterFor(stderrColor)]);
  return new Terminal(io, paint, paintErr, env, options);
}
