// A speed trick (src/tricks/registry.ts lists them all): `wsctl mcp`'s answer to `initialize`
// before the program loads, given by the boot file (src/boot/). An MCP client's first message is `initialize`, whose answer depends on
// nothing the program loads (./initialize.ts); the boot file reads that first line from stdin,
// answers it, and hands the bytes it read to the program, whose server takes the request again
// (the SDK's Server keeps the client's capabilities) and whose transport leaves out the second
// answer. Part of dist/boot.cjs: it loads nothing but node:fs, which Node has loaded at
// start (not node:tty, which takes 5 ms to load: a terminal is known by fstat).
import { fstatSync, readSync, writeSync } from 'node:fs';
import { DECLARED } from '../common/declared.js';
import { initializeAnswer } from './initialize.js';

/** Whether fd is a terminal, or another character device (/dev/null), or cannot be asked: not read here. */
function onCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return true;
  }
}

/** What the boot file read of stdin, for the program to take first, and what it answered. */
export interface EarlyStart {
  read: Buffer;
  answered?: Answered;
}

export interface Answered {
  /** The id of the `initialize` answered. */
  id: string | number;
  /**
   * Called once the server handles SIGINT and SIGTERM itself. Till then a client that has its
   * answer may already stop the server: either signal ends it, cleanly (exit 0), as it would then.
   */
  handover(): void;
}

/**
 * The flags that cannot make the server refuse to start (mcp/shared.ts check() has the rules between
 * them): `wsctl mcp`'s own, as declared (src/common/declared.ts), and of the global options
 * --sandbox and --profile; with anything else it goes the plain way.
 */
const SWITCHES = new Set([...(DECLARED.nounFlags.mcp?.switches ?? []), '--sandbox']);
const WITH_VALUE = new Set(['--profile', ...(DECLARED.nounFlags.mcp?.values ?? [])]);
/**
/** Variables the server's start reads without checking (the others are checked, and may be exit 2). */
const PLAIN_VARIABLES = new Set(['WSCTL_PROFILE', 'WSCTL_BASE_URL', 'WSCTL_API_KEY', 'WSCTL_CONFIG_DIR']);
/** The most read while looking for the first line: an `initialize` is far smaller. */
const MOST = 256 * 1024;

/** Whether `wsctl mcp <args>` will serve, as far as the boot file can tell without the program. */
export function plainStart(args: string[], env: Record<string, string | undefined>): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (SWITCHES.has(arg)) continue;
    if (!WITH_VALUE.has(arg)) return false;
    const value = args[++i];
    if (value === undefined || value.trim() === '' || value.startsWith('-')) return false;
  }
  if (args.includes('--read-only') && args.includes('--allow-destructive')) return false;
  // The one check of these the program makes at start (config/resolve.ts typedConfigDir).
  if (env.WSCTL_CONFIG_DIR?.startsWith('~')) return false;
  return Object.keys(env).every((name) => !name.startsWith('WSCTL_') || PLAIN_VARIABLES.has(name));
}

/**
 * Reads stdin up to its first line and answers it when it is a plain `initialize`; undefined when
 * nothing was read (stdin a terminal or non-blocking, or the start is not plain). Every byte read is returned.
 */
export function answerEarly(
  args: string[],
  env: Record<string, string | undefined>,
  version: string,
  write: (text: string) => boolean = writeAll,
): EarlyStart | undefined {
  // Windows: variables' names are not case-sensitive there, which the check above does not see.
  if (process.platform === 'win32' || !plainStart(args, env) || onCharacterDevice(0)) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  let newline = -1;
  while (newline < 0 && size < MOST) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch {
      break; // EAGAIN (a non-blocking stdin) or closed: the program reads it the usual way
    }
    if (n === 0) break;
    const at = chunk.subarray(0, n).indexOf(10);
    if (at >= 0) newline = size + at;
    chunks.push(chunk.subarray(0, n));
    size += n;
  }
  if (size === 0) return undefined;
  const read = Buffer.concat(chunks, size);
  if (newline < 0) return { read };
  let message: unknown;
  try {
    message = JSON.parse(read.toString('utf8', 0, newline));
  } catch {
    return { read };
  }
  const answer = initializeAnswer(message, version);
  if (!answer) return { read };
  // Before the answer: a client that has it may stop the server at once.
  const stop = () => process.exit(0);
  const handover = () => process.off('SIGINT', stop).off('SIGTERM', stop);
  process.on('SIGINT', stop).on('SIGTERM', stop);
  if (!write(answer.line)) {
    handover();
    return { read }; // nothing written (stdout closed): the program meets it too, and says so
  }
  return { read, answered: { id: answer.id, handover } };
}

/**
 * Writes the answer to stdout; false when none of it could be written. A non-blocking pipe that
 * is full takes the rest through the stream, which waits for the reader (as bin/wsctl's answers).
 */
function writeAll(text: string): boolean {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done, bytes.length - done);
  } catch (error) {
    if (done === 0 && (error as NodeJS.ErrnoException).code !== 'EAGAIN') return false;
    // Part of the line is out: the rest must follow it, or the client reads a broken line.
    process.stdout.on('error', () => {});
    process.stdout.write(bytes.subarray(done));
  }
  return true;
}
