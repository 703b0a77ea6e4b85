// Codex's config.toml, changed in one place. toml-eslint-parser parses the file and tells where
// each table lies in the text; only the `[mcp_servers.wsctl]` table is put in (at the end),
// replaced or taken out, as text, so every comment, other table and blank line stays byte for
// byte. A shape that cannot be edited so (an inline `mcp_servers = {…}`, dotted keys that define
// the entry) is refused untouched, and every edit is parsed again and must change that entry alone.
import { isDeepStrictEqual } from 'node:util';
import { type AST, getStaticTOMLValue, ParseError, parseTOML } from 'toml-eslint-parser';
import { WsctlError } from '../../errors.js';
import { BOM, body, type ClientFile, type ConfigFormat, readRawFile } from './client-file.js';
import { tableText } from './toml-text.js';

type Table = Record<string, unknown>;
type TOMLNode = AST.TOMLNode;
type TOMLProgram = AST.TOMLProgram;
type TOMLTable = AST.TOMLTable;

function parse(toml: string, shown: string): TOMLProgram {
  try {
    return parseTOML(toml);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    throw new WsctlError(
      `Cannot parse ${shown}: ${error.message.replace(/\.$/, '')} at line ${error.lineNumber}, column ${error.column + 1}. Nothing was changed; fix the file, or name another with --config.`,
    );
  }
}

function read(path: string): ClientFile {
  const file = readRawFile(path);
  if (file.text !== undefined) parse(body(file.text), path);
  return file;
}

function whole(file: ClientFile): Table {
  const toml = body(file.text ?? '');
  return toml.trim() === '' ? {} : (getStaticTOMLValue(parse(toml, file.path)) as unknown as Table);
}

function valueAt(file: ClientFile, path: string[]): unknown {
  let value: unknown = whole(file);
  for (const key of path) value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Table)[key] : undefined;
  return value;
}

function keyOf(node: TOMLNode): string[] {
  return (getStaticTOMLValue(node) as unknown as (string | number)[]).map(String);
}

/**
 * The tables that make up the entry ([a.b] and its sub-tables such as [a.b.env]), or a refusal
 * when the file defines it (or its parent) in a way a table cannot replace.
 */
function entryTables(program: TOMLProgram, [parent, name]: string[], shown: string): TOMLTable[] {
  const refuse = (what: string, node: TOMLNode): never => {
    throw new WsctlError(
      `Cannot edit ${shown}: ${what} (line ${node.loc.start.line}), and wsctl edits only a [${parent}.${name}] table. Nothing was changed; ` +
        `write its servers as [${parent}.<name>] tables, or add what \`wsctl mcp config --client codex\` prints yourself.`,
    );
  };
  const found: TOMLTable[] = [];
  for (const node of program.body[0].body) {
    if (node.type === 'TOMLKeyValue') {
      const key = keyOf(node.key);
      if (key[0] !== parent) continue;
      if (key.length === 1) refuse(`it sets \`${parent} = …\` inline`, node);
      if (key[1] === name) refuse(`it sets ${parent}.${name} with dotted keys`, node);
      continue;
    }
    // The key as written: [[mcp_servers]] resolves to mcp_servers.0.
    const key = keyOf(node.key);
    if (key[0] !== parent) continue;
    if (key.length === 1) {
      if (node.kind === 'array') refuse(`its ${parent} is an array of tables ([[${parent}]])`, node);
      for (const pair of node.body) if (keyOf(pair.key)[0] === name) refuse(`its [${parent}] table sets ${name} inline`, pair);
      continue;
    }
    if (key[1] !== name) continue;
    if (node.kind === 'array') refuse(`its ${parent}.${name} is an array of tables`, node);
    found.push(node);
  }
  return found;
}

/** The text without the table at range: its lines go, and one of the blank lines around them. */
function cut(toml: string, [start, end]: [number, number], eol: string): string {
  const lineStart = toml.lastIndexOf('\n', start - 1) + 1;
  // A comment after the table's last value, on its line, stays (on a line of its own).
  const rest = /^[ \t]*(?:\r?\n|$)/.exec(toml.slice(end));
  const after = rest ? end + rest[0].length : end + (/^[ \t]*/.exec(toml.slice(end))?.[0].length ?? 0);
  let before = toml.slice(0, lineStart);
  let next = toml.slice(after);
  const blankBefore = before === '' || before.endsWith(`${eol}${eol}`);
  if (next === '' && before.endsWith(`${eol}${eol}`)) before = before.slice(0, -eol.length);
  else if (blankBefore && next.startsWith(eol)) next = next.slice(eol.length);
  return before + next;
}

/** Everything but the entry, and no empty parent table left behind: what an edit must keep. */
function without(value: Table, [parent, name]: string[]): Table {
  const outer = value[parent as string];
  if (outer === null || typeof outer !== 'object' || Array.isArray(outer)) return value;
  const { [name as string]: _entry, ...others } = outer as Table;
  const { [parent as string]: _outer, ...rest } = value;
  return Object.keys(others).length > 0 ? { ...rest, [parent as string]: others } : rest;
}

function edited(file: ClientFile, path: string[], value: unknown): string {
  const text = file.text ?? '';
  const bom = text.startsWith(BOM) ? BOM : '';
  const toml = body(text);
  const eol = toml.includes('\r\n') ? '\r\n' : '\n';
  const blank = toml.trim() === '';
  const tables = blank ? [] : entryTables(parse(toml, file.path), path, file.path);
  let out: string;
  if (value === undefined) {
    out = toml;
    for (const table of [...tables].reverse()) out = cut(out, table.range, eol);
  } else {
    const entry = tableText(path, value as Table, eol);
    const [first, ...others] = tables;
    if (blank) out = `${entry}${eol}`;
    else if (first) {
      out = toml;
      for (const table of [...others].reverse()) out = cut(out, table.range, eol);
      out = out.slice(0, first.range[0]) + entry + out.slice(first.range[1]);
    } else out = `${toml}${toml.endsWith('\n') ? '' : eol}${eol}${entry}${eol}`;
  }
  let kept = false;
  try {
    const after = whole({ ...file, text: out });
    kept =
      isDeepStrictEqual(without(whole(file), path), without(after, path)) &&
      isDeepStrictEqual(valueAt({ ...file, text: out }, path), value);
  } catch {
    // Text that does not parse is not the entry alone either.
  }
  if (!kept)
    throw new WsctlError(
      `Cannot edit ${file.path}: the change would not be the wsctl entry alone. Nothing was changed; edit the file yourself.`,
    );
  return bom + out;
}

/** Codex's TOML. */
export const toml: ConfigFormat = { read, valueAt, edited };
