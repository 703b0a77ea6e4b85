// Images known by their bytes. sniffImageType reads the first bytes (the sandbox's upload route);
// imageProblem walks the whole structure, so that a file which only starts like an image (GIF89a
// and then a secret) is not sent as an avatar; readImage opens a file once and gives the bytes
// it checked, which are the bytes sent.
import { constants, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

export const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The largest image upload-avatar reads and sends: avatars are small, and the file is held in memory once. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export function sniffImageType(head: Buffer): string | undefined {
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  const ascii = head.subarray(0, 12).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Why bytes are not a whole image of the type their first bytes claim, or undefined when they are one. */
export function imageProblem(bytes: Buffer, type: string, crc32: (data: Uint8Array) => number): string | undefined {
  switch (type) {
    case 'image/png':
      return pngProblem(bytes, crc32);
    case 'image/jpeg':
      return jpegProblem(bytes);
    case 'image/gif':
      return gifProblem(bytes);
    case 'image/webp':
      return webpProblem(bytes);
    default:
      return 'not a PNG, JPEG, GIF or WebP image';
  }
}

/** Signature, then chunks (length, type, data, CRC) from IHDR to IEND, nothing after it. */
function pngProblem(b: Buffer, crc32: (data: Uint8Array) => number): string | undefined {
  let at = 8;
  let chunks = 0;
  let sawData = false;
  while (at < b.length) {
    if (at + 12 > b.length) return `a PNG chunk is cut off at byte ${at}`;
    const length = b.readUInt32BE(at);
    const type = b.subarray(at + 4, at + 8).toString('latin1');
    if (length > 0x7fffffff || at + 12 + length > b.length) return `the PNG chunk ${JSON.stringify(type)} runs past the end of the file`;
    if (!/^[A-Za-z]{4}$/.test(type)) return `a PNG chunk at byte ${at} has no valid type`;
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== b.readUInt32BE(at + 8 + length)) return `the PNG chunk ${type} has a wrong CRC`;
    if (chunks === 0 && (type !== 'IHDR' || length !== 13)) return 'a PNG must start with its IHDR chunk';
    if (type === 'IDAT') sawData = true;
    chunks++;
    at += 12 + length;
    if (type === 'IEND') {
      if (!sawData) return 'the PNG has no image data (IDAT)';
      return at === b.length ? undefined : `${b.length - at} bytes follow the end of the PNG (IEND)`;
    }
  }
  return 'the PNG has no IEND chunk';
}

/** SOI, then marker segments (and entropy-coded data after SOS) up to EOI, nothing after it. */
function jpegProblem(b: Buffer): string | undefined {
  let at = 2;
  let sawFrame = false;
  let sawScan = false;
  while (at < b.length) {
    if (b[at] !== 0xff) return `the JPEG has no marker at byte ${at}`;
    while (b[at] === 0xff) at++; // fill bytes
    if (at >= b.length) break;
    const marker = b[at] as number;
    at++;
    if (marker === 0xd9) {
      if (!sawFrame || !sawScan) return 'the JPEG ends before any frame and scan';
      return at === b.length ? undefined : `${b.length - at} bytes follow the end of the JPEG (EOI)`;
    }
    if (marker === 0x00 || marker === 0xd8) return `the JPEG has a stray marker 0x${marker.toString(16)} at byte ${at - 1}`;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // no length
    if (at + 2 > b.length) break;
    const length = b.readUInt16BE(at);
    if (length < 2 || at + length > b.length) return `the JPEG segment 0xff${marker.toString(16)} runs past the end of the file`;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) sawFrame = true;
    at += length;
    if (marker === 0xda) {
      sawScan = true;
      // Entropy-coded data: 0xff is followed by 0x00 (a stuffed byte) or a restart marker; any other is the next marker.
      while (at < b.length) {
        if (b[at] === 0xff && at + 1 < b.length && b[at + 1] !== 0x00 && !((b[at + 1] as number) >= 0xd0 && (b[at + 1] as number) <= 0xd7))
          break;
        at += b[at] === 0xff ? 2 : 1;
      }
    }
  }
  return 'the JPEG has no end (EOI)';
}

/** Header, logical screen (and its colour table), blocks and extensions up to the trailer 0x3B, nothing after it. */
function gifProblem(b: Buffer): string | undefined {
  if (b.length < 13) return 'the GIF is cut off in its header';
  let at = 13;
  const packed = b[10] as number;
  if (packed & 0x80) at += 3 * 2 ** ((packed & 7) + 1);
  let images = 0;
  const subBlocks = (): string | undefined => {
    for (;;) {
      if (at >= b.length) return 'a GIF data block runs past the end of the file';
      const size = b[at] as number;
      at += 1 + size;
      if (size === 0) return undefined;
    }
  };
  while (at < b.length) {
    const introducer = b[at++];
    if (introducer === 0x3b) {
      if (images === 0) return 'the GIF has no image';
      return at === b.length ? undefined : `${b.length - at} bytes follow the end of the GIF (its trailer)`;
    }
    if (introducer === 0x21) {
      at++; // the extension's label
      const problem = subBlocks();
      if (problem) return problem;
    } else if (introducer === 0x2c) {
      if (at + 9 > b.length) return 'a GIF image descriptor is cut off';
      const local = b[at + 8] as number;
      at += 9;
      if (local & 0x80) at += 3 * 2 ** ((local & 7) + 1);
      const codeSize = b[at++];
      if (codeSize === undefined || codeSize < 1 || codeSize > 12) return 'a GIF image has no valid LZW code size';
      const problem = subBlocks();
      if (problem) return problem;
      images++;
    } else {
      return `the GIF has an unknown block 0x${(introducer ?? 0).toString(16)} at byte ${at - 1}`;
    }
  }
  return 'the GIF has no trailer (0x3B)';
}

/** RIFF whose size is the file's, WEBP, then chunks led by VP8, VP8L or VP8X, each within the file. */
function webpProblem(b: Buffer): string | undefined {
  if (b.length < 20) return 'the WebP is cut off in its header';
  if (b.readUInt32LE(4) + 8 !== b.length)
    return `the WebP's RIFF size (${b.readUInt32LE(4) + 8} bytes) is not the file's (${b.length} bytes)`;
  let at = 12;
  let first: string | undefined;
  let sawImage = false;
  while (at < b.length) {
    if (at + 8 > b.length) return `a WebP chunk is cut off at byte ${at}`;
    const fourcc = b.subarray(at, at + 4).toString('latin1');
    const size = b.readUInt32LE(at + 4);
    const data = at + 8;
    if (data + size > b.length) return `the WebP chunk ${JSON.stringify(fourcc)} runs past the end of the file`;
    first ??= fourcc;
    if (fourcc === 'VP8 ') {
      if (size < 10 || b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a)
        return 'the WebP VP8 chunk has no valid frame header';
      sawImage = true;
    } else if (fourcc === 'VP8L') {
      if (size < 5 || b[data] !== 0x2f) return 'the WebP VP8L chunk has no valid signature';
      sawImage = true;
    } else if (fourcc === 'VP8X') {
      if (size < 10) return 'the WebP VP8X chunk is too short';
    } else if (fourcc === 'ANMF') {
      sawImage = true;
    }
    at = data + size + (size % 2);
  }
  if (first !== 'VP8 ' && first !== 'VP8L' && first !== 'VP8X') return 'a WebP must start with a VP8, VP8L or VP8X chunk';
  if (!sawImage) return 'the WebP has no image data';
  return at === b.length ? undefined : 'the WebP has a chunk that runs past the end of the file';
}

export interface Image {
  /** The bytes read and checked: send these, never the file again. */
  bytes: Buffer;
  type: string;
  /** The real path of the file that was opened (symbolic links resolved). */
  realPath: string;
  size: number;
}

/** What readImage asks of the file it opened, besides being a whole image. */
export interface ReadImageOptions {
  maxBytes?: number;
  /**
   * Refuses a file by its real path (by throwing) before anything else is said of it: the MCP
   * door's folders. Given the real path of the file opened, or, when the path cannot be opened,
   * the real path it names, so that a refusal never says whether a file exists.
   */
  allow?: (realPath: string) => Promise<void>;
}

/**
 * The image at path, opened once and read whole (up to maxBytes): a missing, unreadable or
 * special file, one larger than maxBytes, or one that is not a whole PNG, JPEG, GIF or WebP
 * image is a UsageError (exit 2). Every check is made on the open file, whatever the path names
 * meanwhile. For upload-avatar and the MCP server's upload tool.
 */
export async function readImage(path: string, options: ReadImageOptions = {}): Promise<Image> {
  const { maxBytes = MAX_IMAGE_BYTES, allow } = options;
  const shown = path;
  // Loaded here, not with the module: every command holds this module (through upload-avatar), and
  // node:fs/promises brings readline and the file watchers with it.
  const [fs, { crc32 }] = await Promise.all([import('node:fs/promises'), import('node:zlib')]);
  let handle;
  try {
    // Non-blocking: a FIFO in the file's place is refused below instead of waiting for a writer.
    handle = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    if (allow) await allow(await namedPath(path, fs));
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `Cannot read ${shown}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message}.`,
      { reason: 'invalid_input' },
    );
  }
  try {
    const info = await handle.stat();
    const realPath = await openedPath(handle.fd, info, path, fs);
    if (allow) await allow(realPath);
    if (!info.isFile()) throw new UsageError(`${shown} is not a regular file.`, { reason: 'invalid_input' });
    if (info.size > maxBytes)
      throw new UsageError(
        `${shown} is ${info.size} bytes; an avatar may have at most ${maxBytes} bytes (${maxBytes / 1024 / 1024} MiB).`,
        { reason: 'invalid_input' },
      );
    // Read to the end, not to the size stat gave: a file that grows meanwhile is caught by the bound.
    const pieces: Buffer[] = [];
    let size = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(Math.min(Math.max(info.size - size, 64 * 1024), maxBytes + 1 - size));
      const { bytesRead } = await handle.read(piece, 0, piece.length, size);
      if (bytesRead === 0) break;
      pieces.push(piece.subarray(0, bytesRead));
      size += bytesRead;
      if (size > maxBytes)
        throw new UsageError(`${shown} has more than ${maxBytes} bytes (${maxBytes / 1024 / 1024} MiB), the most an avatar may have.`, {
          reason: 'invalid_input',
        });
    }
    const read = Buffer.concat(pieces, size);
    const type = sniffImageType(read);
    if (!type) throw new UsageError(`${shown} is not a PNG, JPEG, GIF or WebP image.`, { reason: 'invalid_input' });
    const problem = imageProblem(read, type, crc32);
    if (problem)
      throw new UsageError(`${shown} is not a whole ${IMAGE_EXTENSIONS[type]?.toUpperCase()} image: ${problem}.`, {
        reason: 'invalid_input',
      });
    return { bytes: read, type, realPath, size };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read ${shown}: ${(error as Error).message}.`, { reason: 'invalid_input' });
  } finally {
    await handle.close().catch(() => {});
  }
}

type Fs = typeof import('node:fs/promises');

/**
 * The real path of the file behind an open descriptor. Linux names it (/proc/self/fd/N: the
 * kernel's own path, no link in it); elsewhere the real path of the path, taken after opening.
 * Either holds only while it leads to that same file (a name of a deleted file does not).
 */
async function openedPath(fd: number, opened: Stats, path: string, fs: Fs): Promise<string> {
  const leadsThere = async (candidate: string | undefined) => {
    const now = candidate === undefined ? undefined : await fs.stat(candidate).catch(() => undefined);
    return now !== undefined && now.dev === opened.dev && now.ino === opened.ino;
  };
  const named = await fs.readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
  if (named?.startsWith('/') && (await leadsThere(named))) return named;
  const real = await fs.realpath(path).catch(() => undefined);
  if (real !== undefined && (await leadsThere(real))) return real;
  throw new UsageError(`${path} was replaced while it was opened: nothing was read.`, { reason: 'invalid_input' });
}

/**
 * The real path a path names, even when nothing is there: a dangling link by its target, else its
 * folder's real path and its name. Where a file would be, without opening it.
 */
export async function namedPath(path: string, fs?: Fs, hops = 0): Promise<string> {
  fs ??= await import('node:fs/promises');
  try {
    return await fs.realpath(path);
  } catch {
    const folder = await fs.realpath(dirname(path)).catch(() => dirname(path));
    const here = resolve(folder, basename(path));
    // 40 hops, as the kernel's own limit (ELOOP): past it the path names no file, and is taken as it is.
    const target = hops < 40 ? await fs.readlink(here).catch(() => undefined) : undefined;
    return target === undefined ? here : namedPath(resolve(folder, target), fs, hops + 1);
  }
}
