// `.wsctl-profile`: the pin that chooses a profile for a folder and every folder below it
// (cli.md §2). Found by walking up from the working folder; what it holds is judged in resolve.ts.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import type { PinFile } from './resolve.js';

export const PIN_FILE = '.wsctl-profile';

/** More than a profile's name ever needs: a bigger file is refused unread. */
const MAX_PIN_BYTES = 1024;

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

function readPin(path: string): PinFile | undefined {
  let size: number;
  try {
    // Most folders have no pin: no error is made for them (the walk runs on every command, and every MCP call).
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    if (!stat.isFile())
      throw new UsageError(
        `The pin file ${path} is not a file: remove it, or run \`wsctl profile pin <name>\` in its folder. Nothing was sent.`,
      );
    size = stat.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UsageError(`Cannot read the pin file ${path} (${code ?? (error as Error).message}). Nothing was sent.`);
  }
  if (size > MAX_PIN_BYTES)
    throw new UsageError(
      `The pin file ${path} is larger than a profile name (${size} bytes): a pin holds only the name of an existing profile. Nothing was sent.`,
    );
  const buffer = Buffer.alloc(MAX_PIN_BYTES + 1);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return { path, text: buffer.subarray(0, read).toString('utf8') };
  } catch (error) {
    throw new UsageError(
      `Cannot read the pin file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Nothing was sent.`,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
