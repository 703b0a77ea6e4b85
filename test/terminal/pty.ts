// The built bin/wsctl on a pseudo-terminal with a real window size, as a person runs it: the
// spinner, layout and prompt paths that a pipe (or a pty with no size) never takes.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { BIN, ROOT } from '../helpers.js';

export interface PtyResult {
  code: number;
  /** What the terminal showed, escapes included. */
  output: string;
  /** The output with escapes and carriage returns removed: the lines as they read. */
  text: string;
}

/** A step waits for text to appear (or for milliseconds), then types keys. */
export type Step = [wait: string | number, keys: string];

export const plainText = (output: string) =>
  output
    .replace(/\x1b\[\d*G/g, '\r')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b\][^\x07]*\x07/g, '')
    .replace(/[^\n]*\r(?!\n)/g, '')
    .replace(/\r/g, '');

export function runPty(
  args: string[],
  options: { cols: number; rows?: number; env?: Record<string, string | undefined>; steps?: Step[]; timeoutS?: number },
): Promise<PtyResult> {
  const env = {
    PATH: process.env.PATH,
    HOME: options.env?.HOME ?? '/tmp',
    TERM: 'xterm-256color',
    WSCTL_RETRY_BASE_MS: '10',
    PTY_TIMEOUT: String(options.timeoutS ?? 20),
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key as keyof typeof env] === undefined) delete env[key as keyof typeof env];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'python3',
      [join(ROOT, 'test/terminal/pty-run.py'), String(options.cols), String(options.rows ?? 40), '--', process.execPath, BIN, ...args],
      { env: env as NodeJS.ProcessEnv, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error && !stdout) return reject(error);
        const { code, output } = JSON.parse(stdout) as { code: number; output: string };
        resolve({ code, output, text: plainText(output) });
      },
    );
    child.stdin?.end(JSON.stringify(options.steps ?? []));
  });
}

/** Node's crash output or a stack trace: never acceptable on a user's terminal. */
export const crashed = (text: string) => /\n\s+at .+:\d+:\d+|Node\.js v\d+|node:internal|Uncaught|DryRunComplete/.test(text);

/** Lines wider than the terminal, measured as a terminal measures them (string-width: emoji, CJK, marks). */
export function tooWide(text: string, cols: number): string[] {
  return text.split('\n').filter((line) => stringWidth(line) > cols);
}
