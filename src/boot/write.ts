// The boot file's own output: an answer given before the program loads, written without making
// the stdout stream (which loads node:stream and net, a few ms).
import { fstatSync, statSync, writeSync } from 'node:fs';

/**
 * Writes text to stdout. A non-blocking pipe or socket may take part of it: the rest is written
 * again, and when it is full (EAGAIN) the stream takes the rest and waits for the reader. A closed
 * pipe (`| head`) is quiet; any other failure is one line on stderr and exit code 1.
 */
export function writeAnswer(text: string, argv: readonly string[]): void {
  const bytes = Buffer.from(text);
  let done = 0;
  const failed = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return;
    const message = `Cannot write the output: ${error.code ?? error.message}.`;
    // Under --json (or --jq) every error is one JSON document, as the program writes them.
    const json = argv.includes('--json') || argv.includes('--jq');
    process.stderr.write(json ? `${JSON.stringify({ error: { message, exit_code: 1, reason: 'output_lost' } })}\n` : `Error: ${message}\n`);
    process.exitCode = 1;
  };
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done, bytes.length - done);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return failed(error as NodeJS.ErrnoException);
    process.stdout.on('error', failed);
    process.stdout.write(bytes.subarray(done));
  }
}

/**
 * Whether help would wrap at 80 columns: $COLUMNS says 80, or is unset and stdout is no terminal.
 * A pipe, file, socket or /dev/null is known by fstat, without loading node:tty to ask isatty.
 * Another character device may be a terminal: the program decides.
 */
export function helpAt80(env: Record<string, string | undefined>): boolean {
  const columns = env.COLUMNS;
  if (columns !== undefined && columns !== '') return Number(columns) === 80;
  try {
    const out = fstatSync(1);
    return !out.isCharacterDevice() || out.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}
