// A client's config file (JSON with comments), changed in one place: the edit goes through
// jsonc-parser, so every other entry, comment and blank line stays byte for byte; the old file is
// copied to <file>.bak first and the new one replaces it by rename, so a reader (or a crash) sees
// the old file or the new one, never half of one.
import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  applyEdits,
  findNodeAtLocation,
  format,
  getNodeValue,
  modify,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { makeFolder } from '../../config/atomic.js';
import { WsctlError } from '../../errors.js';
import { MAX_BYTES } from './clients.js';

export interface ClientFile {
  /** The path as given or found: what messages name. */
  path: string;
  /** The file written: the path, or the file a symbolic link there points to (the link stays). */
  target: string;
  /** Undefined when the file does not exist yet. */
  text: string | undefined;
  /** Permission bits of the file, kept by the new one. */
  mode?: number;
}

export const BOM = '\uFEFF';

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ?? e.message;
}

/** What a file that is not a regular one is, for a message. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Why a file cannot be a client's config file (not a regular file, or too large), or undefined. */
function unfit(stats: Stats): string | undefined {
  if (!stats.isFile()) return `it is ${kindOf(stats)}, not a config file`;
  if (stats.size > MAX_BYTES) return `it is larger than 10 MiB (${stats.size} bytes), more than a config file holds`;
  return undefined;
}

/**
 * The text of a regular file of at most MAX_BYTES, read from one open file: a FIFO would block a
 * plain read for ever and /dev/zero never end, so the file is opened without waiting, and checked
 * after it is open (what the path names may change between a stat and the open).
 */
function readBounded(path: string, shown: string): { text: string; mode: number } {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  try {
    const stats = fstatSync(fd);
    const why = unfit(stats);
    if (why) throw new WsctlError(`Cannot use ${shown}: ${why}. Nothing was changed.`);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(1 << 20, MAX_BYTES + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      // A file that grew past the bound while it was read.
      if (total > MAX_BYTES)
        throw new WsctlError(`Cannot use ${shown}: it is larger than 10 MiB, more than a config file holds. Nothing was changed.`);
    }
    return { text: Buffer.concat(chunks).toString('utf8'), mode: stats.mode & 0o7777 };
  } finally {
    closeSync(fd);
  }
}

/** What install and uninstall ask of a client's file, whatever its syntax (JSON with comments, or TOML). */
export interface ConfigFormat {
  /** Reads and checks the file; one that cannot be parsed, is not a regular file or is too large is exit 1 and left as it is. */
  read(path: string): ClientFile;
  /** The value at a path of the file, or undefined. */
  valueAt(file: ClientFile, path: string[]): unknown;
  /** The file's text with the value at path set (undefined: removed); exit 1 for a file it cannot edit safely. */
  edited(file: ClientFile, path: string[], value: unknown): string;
}

/**
 * The file's text, read with every check but its syntax: a missing file (text undefined), a symbolic
 * link followed, and one that is not a regular file or is larger than 10 MiB refused unread.
 */
export function readRawFile(path: string): ClientFile {
  let link: boolean;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { path, target: path, text: undefined };
    throw new WsctlError(`Cannot read ${path}: ${reason(error)}.`);
  }
  let target = path;
  try {
    if (link) target = realpathSync(path);
  } catch (error) {
    throw new WsctlError(
      `Cannot use ${path}: it is a symbolic link to ${readlinkSync(path)}, which ${reason(error) === 'ENOENT' ? 'does not exist' : `cannot be read (${reason(error)})`}.`,
    );
  }
  let text: string;
  let mode: number;
  try {
    const stats = statSync(target);
    if (stats.isDirectory()) throw new WsctlError(`Cannot use ${path}: it is a folder, not a config file.`);
    // Refused before it is opened: a FIFO's writer, a device's driver never hear from wsctl.
    const why = unfit(stats);
    if (why) throw new WsctlError(`Cannot use ${path}: ${why}. Nothing was changed.`);
    ({ text, mode } = readBounded(target, path));
  } catch (error) {
    if (error instanceof WsctlError) throw error;
    throw new WsctlError(`Cannot read ${path}: ${reason(error)}.`);
  }
  return { path, target, text, mode };
}

/** Reads and checks a file of JSON with comments. */
export function readClientFile(path: string): ClientFile {
  const file = readRawFile(path);
  const text = file.text;
  // An empty file (or one of blanks alone) holds no settings yet: filled as a missing one would be.
  if (text === undefined || body(text).trim() === '') return file;
  const errors: ParseError[] = [];
  const tree = parseTree(body(text), errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = position(body(text), first.offset);
    throw new WsctlError(
      `Cannot parse ${path}: ${printParseErrorCode(first.error)} at line ${line}, column ${column}. Nothing was changed; fix the file, or name another with --config.`,
    );
  }
  if (tree && tree.type !== 'object')
    throw new WsctlError(`Cannot use ${path}: it holds a JSON ${tree.type}, not an object. Nothing was changed.`);
  return file;
}

/** The file's text now, undefined when it is gone, null when it is no longer a file wsctl reads. */
function currentText(file: ClientFile): string | undefined | null {
  try {
    return readBounded(file.target, file.path).text;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
  }
}

export function body(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

export function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

/** The value at a path of the file, or undefined. */
export function valueAt(file: ClientFile, path: string[]): unknown {
  const tree = file.text === undefined ? undefined : parseTree(body(file.text));
  const node = tree && findNodeAtLocation(tree, path);
  return node && getNodeValue(node);
}

/** The file's text with the value at path set (undefined: removed), indented as the file is. */
export function edited(file: ClientFile, path: string[], value: unknown): string {
  const text = file.text ?? '';
  const bom = text.startsWith(BOM) ? BOM : '';
  const json = body(text);
  const eol = json.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^[ \t]+(?=\S)/m.exec(json)?.[0] ?? '  ';
  const formattingOptions = { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol };
  if (json.trim() === '') return value === undefined ? text : `${JSON.stringify(nest(path, value), null, 2).replace(/\n/g, eol)}${eol}`;
  const parent = valueAt(file, path.slice(0, -1));
  if (parent !== undefined && (parent === null || typeof parent !== 'object' || Array.isArray(parent))) {
    throw new WsctlError(`Cannot use ${file.path}: its "${path.slice(0, -1).join('.')}" is not an object. Nothing was changed.`);
  }
  if (value === undefined) return bom + removed(json, path);
  // An empty object is replaced whole, so that the new entry sits on lines of its own.
  const parentNode = findNodeAtLocation(parseTree(json) as Node, path.slice(0, -1));
  const whole = parentNode && /^\{\s*\}$/.test(json.slice(parentNode.offset, parentNode.offset + parentNode.length));
  const edits = whole ? modify(json, path.slice(0, -1), { [path[path.length - 1] as string]: value }, {}) : modify(json, path, value, {});
  // The edit alone, then only the text it put in is formatted: modify()'s own formatting would
  // reformat the whole lines around it (`"other": {"command": "x"}` among them).
  let out = applyEdits(json, edits);
  for (const edit of edits) {
    const start = edit.offset;
    const end = start + edit.content.length;
    out = applyEdits(
      out,
      format(out, { offset: start, length: end - start }, { ...formattingOptions, keepLines: false }).filter(
        (e) => e.offset >= start && e.offset + e.length <= end,
      ),
    );
  }
  return bom + out;
}

/** The text without the property at path: its lines go, and the commas around it stay right. */
function removed(json: string, path: string[]): string {
  const prop = findNodeAtLocation(parseTree(json) as Node, path)?.parent;
  const parent = prop?.parent;
  if (!prop || !parent?.children) return json;
  const at = parent.children.indexOf(prop);
  const propEnd = prop.offset + prop.length;
  // Where this one's first line begins, with the line break before it, when only blanks precede it there.
  let lineBegin = prop.offset;
  const start = json.lastIndexOf('\n', prop.offset - 1) + 1;
  if (/^[ \t]*$/.test(json.slice(start, prop.offset)) && start > 0) lineBegin = json[start - 2] === '\r' ? start - 2 : start - 1;
  if (parent.children[at + 1]) {
    // Up to its own comma, and a comment after that on its last line; comments around stay.
    const tail = /^[ \t]*,[ \t]*(\/\/[^\n\r]*)?/.exec(json.slice(propEnd))?.[0].length;
    if (tail !== undefined) return json.slice(0, lineBegin) + json.slice(propEnd + tail);
    return json.slice(0, prop.offset) + json.slice((parent.children[at + 1] as Node).offset);
  }
  const previous = parent.children[at - 1];
  if (previous) {
    // The last one: the comma after the one before goes, and this one's lines.
    const comma = /^\s*,/.exec(json.slice(previous.offset + previous.length))?.[0].length;
    if (comma === undefined) return json.slice(0, previous.offset + previous.length) + json.slice(propEnd);
    const commaAt = previous.offset + previous.length + comma - 1;
    return json.slice(0, commaAt) + json.slice(commaAt + 1, Math.max(lineBegin, commaAt + 1)) + json.slice(propEnd);
  }
  // The only one: the object is left empty, unless a comment inside it would go too.
  const inside = json.slice(parent.offset + 1, prop.offset) + json.slice(propEnd, parent.offset + parent.length - 1);
  if (/^\s*$/.test(inside)) return json.slice(0, parent.offset + 1) + json.slice(parent.offset + parent.length - 1);
  return json.slice(0, lineBegin) + json.slice(propEnd);
}

function nest(path: string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/**
 * Writes <target>.bak (a copy of the old file, when there is one), then the new text by rename in
 * the same folder. The new file keeps the old one's permissions; a new one gets the usual ones.
 * Returns the backup's path. Nothing is half-written: a failure leaves the old file as it was.
 */
export function replaceFile(file: ClientFile, text: string): string | undefined {
  const dir = dirname(file.target);
  const temp = join(dir, `.${basename(file.target)}.wsctl-${process.pid}-${Math.random().toString(36).slice(2)}`);
  let backup: string | undefined;
  try {
    if (file.text === undefined) {
      try {
        // The usual modes for a client's folders (the umask decides), not wsctl's own 0700.
        makeFolder(dir, 0o777);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' || code === 'ENOTDIR')
          throw new WsctlError(`Cannot write ${file.path}: part of the path to ${dir} is a file, not a folder. Nothing was written.`);
        if (code === 'ENOENT') {
          const folder = (error as NodeJS.ErrnoException).path ?? dir;
          throw new WsctlError(`Cannot write ${file.path}: the folder ${folder} cannot be made there. Nothing was written.`);
        }
        throw error;
      }
    } else {
      backup = `${file.target}.bak`;
      copyFileSync(file.target, temp);
      renameSync(temp, backup);
    }
    const fd = openSync(temp, 'wx', file.mode ?? 0o666);
    try {
      if (file.mode !== undefined) fchmodSync(fd, file.mode);
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // A client that rewrites its file while it runs (Claude Code does) must not lose its change to ours.
    if (file.text !== currentText(file)) {
      throw new WsctlError(
        `Cannot write ${file.path}: it changed while wsctl was editing it (the client may be writing it). It was not changed; run the command again.`,
      );
    }
    renameSync(temp, file.target);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // no folder to hold it: nothing was written
    }
    if (error instanceof WsctlError) throw error;
    throw new WsctlError(`Cannot write ${file.path}: ${reason(error)}. The file was not changed.`);
  }
  return backup;
}

/** JSON with comments, the syntax of every client's file but Codex's. */
export const jsonc: ConfigFormat = { read: readClientFile, valueAt, edited };
