// Everything wsctl prints goes through here: TTY detection, colour, tables, plain lines, JSON,
// sanitising service text, spinners and the pager. Heavy libraries load only when used.
import type { Readable, Writable } from 'node:stream';

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  columns: number;
  /** Help and version text, written without making the stdout stream (the real process only). */
  writeHelp?(text: string): void;
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

const plain: Painter = {
  bold: (t) => t,
  dim: (t) => t,
  red: (t) => t,
  green: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
  magenta: (t) => t,
};

/** cli.md §1: --no-color and NO_COLOR win, then FORCE_COLOR, then whether the stream is a TTY. */
export function colorWanted(isTTY: boolean, env: Env, noColorFlag: boolean): boolean {
  if (noColorFlag || (env.NO_COLOR ?? '') !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0';
  return isTTY;
}

async function painterFor(enabled: boolean): Promise<Painter> {
  if (!enabled) return plain;
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 });
}

// CSI and OSC sequences, other two-byte escapes, then C0/C1 controls except tab and newline.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[@-Z\\-_]?|\x9b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Service text made safe for a terminal: no escape sequences, no control characters. */
const ANY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const ANY_CONTROL_OR_BREAK = /[\x00-\x1f\x7f-\x9f]/;

export function clean(text: unknown): string {
  if (text === null || text === undefined) return '';
  const s = typeof text === 'string' ? text : JSON.stringify(text);
  // Most text has nothing to remove: one scan instead of three replaces (large transcripts).
  if (!ANY_CONTROL.test(s)) return s;
  return s.replace(ESCAPES, '').replace(/\r\n?/g, '\n').replace(CONTROLS, '');
}

/** As clean(), on one line: for table cells and tab-separated fields. */
export function cleanLine(text: unknown): string {
  if (typeof text === 'string' && !ANY_CONTROL_OR_BREAK.test(text)) return text;
  return clean(text).replace(/[\t\n]+/g, ' ');
}

/** cli.md §2: first 4 and last 4 characters around an ellipsis, or **** when short. */
export function mask(secret: string | null | undefined): string {
  if (!secret) return '';
  return secret.length >= 12 ? `${secret.slice(0, 4)}…${secret.slice(-4)}` : '****';
}

export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return cleanLine(iso);
  const seconds = Math.round((now - then) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  const units: [string, number][] = [
    ['year', 31536000],
    ['month', 2592000],
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    const n = Math.round(abs / size);
    if (n >= 1 && abs >= size * 0.75) {
      const label = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return seconds >= 0 ? `${label} ago` : `in ${label}`;
    }
  }
  return 'just now';
}

/** "key_prefix" → "Key prefix", "id" → "ID": TTY labels from field names. */
export function label(field: string): string {
  const words = field.replace(/_/g, ' ').replace(/\bid\b/gi, 'ID').replace(/\burl\b/gi, 'URL');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export type Cell = string | number | boolean | null | undefined;

export interface Column {
  header: string;
  /** How the cell reads on a TTY (relative time, a marker); piped output keeps the raw value. */
  tty?: (value: Cell) => string;
}

export class Output {
  readonly tty: boolean;
  readonly columns: number;

  constructor(
    readonly io: IO,
    /** colours for stdout */
    readonly paint: Painter,
    /** colours for stderr */
    readonly paintErr: Painter,
    private readonly env: Env,
  ) {
    this.tty = io.stdoutIsTTY;
    this.columns = io.columns > 0 ? io.columns : 80;
  }

  write(text: string): void {
    this.io.stdout.write(text);
  }

  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** One 2-space-indented document; a large top-level array is written item by item. */
  async printJson(value: unknown): Promise<void> {
    const big = value && typeof value === 'object' && !Array.isArray(value) && Object.values(value).some((v) => Array.isArray(v) && v.length > 1000);
    if (!big) {
      this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      return;
    }
    // The same text as JSON.stringify(value, null, 2), without holding all of it at once.
    const sink = bufferedSink(this.io.stdout);
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function');
    await sink.write('{');
    for (const [i, [key, item]] of entries.entries()) {
      await sink.write(`${i ? ',' : ''}\n  ${JSON.stringify(key)}: `);
      if (Array.isArray(item) && item.length > 0) {
        await sink.write('[');
        for (const [j, element] of item.entries()) {
          const text = JSON.stringify(element === undefined ? null : element, null, 2) ?? 'null';
          await sink.write(`${j ? ',' : ''}\n    ${text.replace(/\n/g, '\n    ')}`);
        }
        await sink.write('\n  ]');
      } else await sink.write(JSON.stringify(item, null, 2).replace(/\n/g, '\n  '));
    }
    await sink.write('\n}\n');
    await sink.end();
  }

  /** Tab-separated records, one a line: what piped output is made of. */
  tsv(rows: Cell[][]): void {
    for (const row of rows) this.line(row.map(cleanLine).join('\t'));
  }

  /** A list: a bordered table with headers on a TTY, tab-separated raw values when piped. */
  async table(columns: Column[], rows: Cell[][]): Promise<void> {
    if (!this.tty) return this.tsv(rows);
    const { default: Table } = await import('cli-table3');
    const table = new Table({
      head: columns.map((c) => this.paint.bold(c.header)),
      style: { head: [], border: [] },
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
      wordWrap: true,
    });
    for (const row of rows) {
      table.push(row.map((cell, i) => cleanLine(columns[i]?.tty ? columns[i].tty(cell) : cell)));
    }
    this.line(table.toString());
  }

  /** A record: aligned "label  value" lines on a TTY, key<TAB>value when piped. */
  detail(pairs: [key: string, value: Cell, tty?: string][]): void {
    if (!this.tty) {
      for (const [key, value] of pairs) this.line(`${key}\t${cleanLine(value)}`);
      return;
    }
    const labels = pairs.map(([key]) => label(key));
    const width = Math.max(...labels.map((l) => l.length));
    pairs.forEach(([, value, shown], i) => {
      this.line(`${this.paint.bold(`${labels[i]}:`.padEnd(width + 1))}  ${shown ?? cleanLine(value)}`);
    });
  }

  /** A confirmation that is the command's result; the check mark only on a TTY. */
  done(message: string): void {
    this.line(this.tty ? `${this.paint.green('✓')} ${message}` : message);
  }

  info(message: string): void {
    this.io.stderr.write(`${message}\n`);
  }

  warn(message: string): void {
    this.io.stderr.write(`${this.paintErr.yellow('!')} ${message}\n`);
  }

  /** Runs work under a spinner on stderr, only on a TTY and outside CI. */
  async spin<T>(text: string, work: Promise<T>, progress?: () => string | undefined): Promise<T> {
    // ora cannot draw on a terminal that reports no width.
    const width = (this.io.stderr as { columns?: number }).columns ?? 0;
    if (!this.io.stderrIsTTY || this.env.CI !== undefined || width <= 0) return work;
    const { default: ora } = await import('ora');
    const spinner = ora({ text, stream: this.io.stderr as NodeJS.WriteStream, isEnabled: true, discardStdin: false }).start();
    const ticker = progress && setInterval(() => (spinner.text = progress() ?? text), 100);
    try {
      return await work;
    } finally {
      if (ticker) clearInterval(ticker);
      spinner.stop();
    }
  }
}

export interface Sink {
  write(text: string): void | Promise<void>;
  end(): Promise<void>;
}

/** Batches many small writes into large ones, waiting when the stream asks for it. */
export function bufferedSink(stream: Writable, onEnd: () => Promise<void> = async () => {}): Sink {
  let pending: string[] = [];
  let size = 0;
  let broken = false;
  stream.on('error', () => {
    broken = true; // the reader went away (a pager quit early): stop writing, quietly
  });
  const flush = async () => {
    if (pending.length === 0 || broken) return;
    const text = pending.join('');
    pending = [];
    size = 0;
    if (!stream.write(text) && !broken) await new Promise<void>((resolve) => {
      stream.once('drain', resolve);
      stream.once('error', resolve);
      stream.once('close', resolve);
    });
  };
  return {
    write(text) {
      pending.push(text);
      size += text.length;
      if (size >= 1 << 20) return flush();
    },
    async end() {
      await flush();
      await onEnd();
    },
  };
}

/** Where long detail output goes: through $WSCTL_PAGER, $PAGER or less on a TTY, else stdout. */
export async function openPager(io: IO, env: Env, wanted: boolean): Promise<Sink> {
  const command = env.WSCTL_PAGER ?? env.PAGER ?? 'less -FRX';
  if (!wanted || !io.stdoutIsTTY || command.trim() === '' || command.trim() === 'cat') return bufferedSink(io.stdout);
  const { spawn } = await import('node:child_process');
  const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { ...env, LESS: env.LESS ?? 'FRX' } as NodeJS.ProcessEnv });
  const exited = new Promise<void>((resolve) => {
    child.on('close', () => resolve());
    child.on('error', () => resolve());
  });
  return bufferedSink(child.stdin, async () => {
    child.stdin.end();
    await exited;
  });
}

export async function createOutput(io: IO, env: Env, options: { json: boolean; noColor: boolean }): Promise<Output> {
  const stdoutColor = !options.json && colorWanted(io.stdoutIsTTY, env, options.noColor);
  const stderrColor = colorWanted(io.stderrIsTTY, env, options.noColor);
  const [paint, paintErr] = await Promise.all([painterFor(stdoutColor), painterFor(stderrColor)]);
  return new Output(io, paint, paintErr, env);
}
