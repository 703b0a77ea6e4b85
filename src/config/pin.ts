// `.wsctl-profile`: the pin that chooses a profile for a folder and every folder below it
// (cli.md §2). Found by walking up from the working folder; what it holds is judged in resolve.ts.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import type { PinFile } from './resolve.js';

export const PIN_FILE = '.wsctl-profile';

/** More than a profile's name ever needs: a bigger file is refused unread. */
const MAX_PIN_BYTES = 1024;

/** Not on every platform (Windows): there lstat alone guards. With them, a link or FIFO swapped in after lstat is neither followed nor waited on. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

/** The pin of that folder. */
export function pinPath(dir: string): string {
  return join(dir, PIN_FILE);
}

/** The nearest pin from cwd up to the file-system root, or undefined. */
export function findPin(cwd: string): PinFile | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const path = join(dir, PIN_FILE);
    const pin = readPin(path);
    if (pin) return pin;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * A pin is a regular file, read as itself: a symbolic link (a dangling one too) is refused, never
 * followed, since a committed link can point at any one-line file (a token) outside the repository.
 * No message here or in resolve.ts repeats what the file holds.
 */
function readPin(path: string): PinFile | undefined {
  const refuse = (what: string) =>
    new UsageError(
      `The pin file ${path} ${what}: a pin is a file holding only the name of an existing profile (run \`wsctl profile pin <name>\` in its folder, which replaces it, or remove it). Nothing was sent.`,
    );
  const cannotRead = (error: unknown) =>
    new UsageError(
      `Cannot read the pin file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Nothing was sent.`,
    );
  let stat: Stats | undefined;
  try {
    // Most folders have no pin: no error is made for them (the walk runs on every command, and every MCP call).
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw cannotRead(error);
  }
  if (stat === undefined) return undefined;
  if (stat.isSymbolicLink()) throw refuse('is a symbolic link');
  if (!stat.isFile()) throw refuse('is not a file');
  if (stat.size > MAX_PIN_BYTES) throw refuse(`is larger than a profile name (${stat.size} bytes)`);
  const buffer = Buffer.alloc(MAX_PIN_BYTES + 1);
  let fd: number | undefined;
  try {
    // Opened without following a link, and checked to be the file just looked at: a link put in its place in between is not read.
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
    const opened = fstatSync(fd);
    if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev) throw refuse('changed while it was read');
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return { path, text: buffer.subarray(0, read).toString('utf8') };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw refuse('is a symbolic link');
    throw cannotRead(error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
