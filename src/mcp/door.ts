// The MCP door of the pipeline (src/verbs/invoke.ts): a tool call's JSON arguments become the raw options
// the command line would have read, named as the tool names them; a local file is confined to the
// server's folders; a person confirms what cannot be undone or sends data away (cli.md §8).
import { homedir } from 'node:os';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Ctx } from '../verbs/declare.js';
import { didYouMean } from '../help/suggest.js';
import { UsageError } from '../errors.js';
import type { Door, RawOptions } from '../verbs/invoke.js';
import { cleanLine } from '../common/sanitize.js';
import { namedPath, readImage, type Image } from '../common/images.js';
import { JQ_ARGUMENT, toolName, type ToolDef } from './tools.js';
import { sendsDelete } from '../verbs/changes.js';

/** The command line's messages, in the tool's names (test/mcp/rules.test.ts compares them). */
export const mcpDoor: Door = {
  name: toolName,
  missing: (names, kind) =>
    kind === 'arg'
      ? `Missing required argument${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')}.`
      : `Missing required option${names.length > 1 ? 's' : ''} ${names.join(', ')}.`,
  notAChoice: (name, value, choices) =>
    `Option '${name}' argument '${cleanLine(value)}' is invalid. Allowed choices are ${choices.join(', ')}.${didYouMean(value, choices)}`,
};

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The call's `jq` filter (cli.md §8), which the door runs on the command's document; the command never sees it. */
export function jqOf(args: Record<string, unknown>): string | undefined {
  const given = args[JQ_ARGUMENT];
  if (given === undefined || typeof given === 'string') return given;
  throw new UsageError(`Invalid ${JQ_ARGUMENT}: expected a string, got ${typeOf(given)}.`);
}

/** The call's arguments as argv's texts, by key; a wrong type or an unknown property is a usage error (exit 2). */
export function rawOptions(tool: ToolDef, args: Record<string, unknown>): RawOptions {
  const byName = new Map(tool.params.map((p) => [p.name, p]));
  const unknown = Object.keys(args).filter((name) => !byName.has(name) && name !== JQ_ARGUMENT);
  if (unknown.length > 0) {
    const known = [...tool.params.map((p) => p.name), JQ_ARGUMENT];
    throw new UsageError(
      `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${cleanLine(n)}'`).join(', ')} for ${tool.name}. Arguments: ${known.join(', ')}.`,
    );
  }
  const raw: RawOptions = {};
  for (const p of tool.params) {
    const given = args[p.name] === undefined ? p.schema.default : args[p.name];
    if (given === undefined) continue;
    const wrong = (expected: string) => new UsageError(`Invalid ${p.name}: expected ${expected}, got ${typeOf(given)}.`);
    switch (p.schema.type) {
      case 'boolean':
        if (typeof given !== 'boolean') throw wrong('a boolean');
        raw[p.key] = given;
        break;
      case 'integer':
        if (typeof given !== 'number' || !Number.isInteger(given)) throw wrong('a whole number');
        raw[p.key] = String(given);
        break;
      case 'array':
        if (!Array.isArray(given) || given.some((v) => typeof v !== 'string')) throw wrong('an array of strings');
        raw[p.key] = given;
        break;
      default:
        if (typeof given !== 'string') throw wrong('a string');
        raw[p.key] = given;
    }
  }
  return raw;
}

/** Whether `path` is `folder` or lies below it. */
function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Where the server reads local files from (cli.md §8). */
export interface Folders {
  /** Its working folder: it counts unless it is / or the home folder, which confine nothing. */
  working: string;
  /** --upload-dir, relative to the working folder. */
  uploadDirs: string[];
  /** The user's home folder; the process's when not given. */
  home?: string;
}

/** The process's home folder; none when the system knows of none (homedir throws then). */
function userHome(): string {
  try {
    return homedir();
  } catch {
    return '/';
  }
}

/** The real paths of the folders a file may lie in, and why the working folder is not one of them. */
async function rootsOf(folders: Folders): Promise<{ roots: string[]; nothing?: string }> {
  const working = await namedPath(resolve(folders.working));
  const home = await namedPath(resolve(folders.home || userHome()));
  const uploadDirs = await Promise.all(folders.uploadDirs.map((f) => namedPath(resolve(folders.working, f))));
  // A server a client starts in / (Claude Desktop on macOS) or in the home folder would otherwise read every file the user has.
  const nothing = dirname(working) === working ? 'the root folder' : working === home ? 'the home folder' : undefined;
  return { roots: nothing ? uploadDirs : [working, ...uploadDirs], nothing };
}

/**
 * The image a call names, opened once and checked on the open file before anyone is asked: its
 * real path inside the folders the server reads from, a regular file, a whole image. Anywhere
 * else the error says only that, never whether the file exists. A path outside is refused before
 * it is opened; a link swapped to a file outside between that check and the open may be opened
 * (without blocking, so a FIFO or a device does not hang it), but is refused by the real path of
 * the open file before a byte is read or anyone is asked, and nothing is sent.
 */
export async function openLocalImage(given: string, folders: Folders): Promise<Image> {
  const { roots, nothing } = await rootsOf(folders);
  if (roots.length === 0)
    throw new UsageError(
      `This server reads no local file: its working folder is ${nothing}, which confines nothing, and it was started without --upload-dir. Start it with --upload-dir <folder> to let it send the files in that folder.`,
    );
  const allow = async (realPath: string) => {
    if (roots.some((root) => inside(realPath, root))) return;
    throw new UsageError(
      `'${cleanLine(given)}' lies outside the folders this server reads files from (${nothing ? `--upload-dir alone: its working folder is ${nothing}, which confines nothing` : 'its working folder and --upload-dir'}).`,
    );
  };
  const path = resolve(folders.working, given);
  // Checked before opening too, so that a path naming a device or a FIFO outside is not opened
  // (one swapped in after this check is refused on the open file, unread).
  await allow(await namedPath(path));
  return readImage(path, { allow });
}

/** A shell word, quoted only where the shell would read it otherwise. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line a person can run instead: the command, its arguments and flags as the call gave
 * them (its extra arguments, the provider key, left to the command's own prompt), --yes where the
 * command asks, and the server's own profile, base URL and sandbox.
 */
export function commandLine(tool: ToolDef, opts: Record<string, unknown>, raw: RawOptions, ctx: Ctx): string {
  const words = ['wsctl', ...tool.path];
  const named = ctx.named();
  // A profile from a pin in the server's working folder is named too: the person runs the line elsewhere.
  const profile = named.profile ?? (!ctx.sandbox && ctx.resolution().profileSource === 'pin' ? ctx.resolution().profile : undefined);
  if (profile) words.push('--profile', profile);
  if (named.baseUrlFrom === 'flag') words.push('--base-url', named.baseUrl as string);
  if (named.sandbox) words.push('--sandbox');
  for (const p of tool.params) {
    if (tool.spec.extra && p.key in tool.spec.extra) continue;
    const value = p.key === tool.spec.localFile ? opts[p.key] : raw[p.key];
    if (value === undefined || value === false) continue;
    const flag = p.kind === 'flag' ? (p.param.syntax.match(/--[\w-]+/g) ?? []).pop() : undefined;
    if (value === true) words.push(flag as string);
    else for (const v of Array.isArray(value) ? value : [value]) words.push(...(flag ? [flag] : []), String(v));
  }
  if (sendsDelete(tool.verb, opts)) words.push('--yes');
  // The secret the tool never takes: the command reads it from stdin, or asks with input hidden.
  if (tool.spec.secret) words.push(tool.spec.secret.flag);
  return words.map(shellWord).join(' ');
}
