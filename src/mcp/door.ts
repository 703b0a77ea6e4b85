// The MCP door of the pipeline (src/verbs/invoke.ts): a tool call's JSON arguments become the raw options
// the command line would have read, named as the tool names them; a local file is confined to the
// server's folders; a person confirms what cannot be undone or sends data away (cli.md §8).
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Ctx } from '../verbs/declare.js';
import { didYouMean } from '../help/suggest.js';
import { UsageError } from '../errors.js';
import type { Door, RawOptions } from '../verbs/invoke.js';
import { cleanLine } from '../common/sanitize.js';
import { toolName, type ToolDef } from './tools.js';

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

/** The call's arguments as argv's texts, by key; a wrong type or an unknown property is a usage error (exit 2). */
export function rawOptions(tool: ToolDef, args: Record<string, unknown>): RawOptions {
  const byName = new Map(tool.params.map((p) => [p.name, p]));
  const unknown = Object.keys(args).filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    const known = tool.params.map((p) => p.name);
    throw new UsageError(
      `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${cleanLine(n)}'`).join(', ')} for ${tool.name}. ${known.length ? `Arguments: ${known.join(', ')}.` : 'It takes no arguments.'}`,
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

/** The real path of a file that may not exist: its folder's real path and its name, or the path itself. */
async function real(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    try {
      return resolve(await realpath(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/**
 * A local file the call names, by its real path, only inside the folders the server reads from;
 * anywhere else the error says only that, never whether it exists. Its size when it can be read.
 */
export async function confine(given: string, folders: string[], cwd: string): Promise<{ path: string; size?: number }> {
  const path = await real(resolve(cwd, given));
  const roots = await Promise.all(folders.map((f) => real(resolve(cwd, f))));
  if (!roots.some((root) => inside(path, root))) {
    throw new UsageError(
      `'${cleanLine(given)}' lies outside the folders this server reads files from (its working folder and --upload-dir).`,
    );
  }
  const size = await stat(path).then(
    (s) => (s.isFile() ? s.size : undefined),
    () => undefined,
  );
  return { path, size };
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
  if (named.profile) words.push('--profile', named.profile);
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
  if (tool.verb.flags && 'yes' in tool.verb.flags) words.push('--yes');
  return words.map(shellWord).join(' ');
}
