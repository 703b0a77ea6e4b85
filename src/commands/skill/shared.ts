// What the skill verbs share: the skill's text made from the declarations (the same text `npm run
// docs` commits as skills/wsctl/SKILL.md), where each agent looks for skills, and what is there now.
import { closeSync, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { homedir } from '../../common/builtins.js';
import { WsctlError } from '../../errors.js';
import { ID_KINDS, WHERE_FROM } from '../../ids/kinds.js';
import { SKILL_FILE, SKILL_NAME, skillMarkdown, writtenByWsctl, type SkillCommand } from '../../help/skill.js';
import { asksOf, commandChanges, mayDelete } from '../../verbs/changes.js';
import { commandSummary } from '../../verbs/confirm.js';
import { flagsOf } from '../../verbs/invoke.js';
import { option, required, type Ctx, type Param, type VerbDecl } from '../../verbs/declare.js';

export const SKILL_AGENTS = ['claude-code', 'codex'] as const;
export type SkillAgent = (typeof SKILL_AGENTS)[number];
export const SKILL_SCOPES = ['user', 'project'] as const;
export type SkillScope = (typeof SKILL_SCOPES)[number];

const AGENT_LABELS: Record<SkillAgent, string> = { 'claude-code': 'Claude Code', codex: 'Codex' };
/** The folder each agent reads skills from, below the home folder (user) or the working folder (project). */
const SKILLS_FOLDER: Record<SkillAgent, string> = { 'claude-code': '.claude/skills', codex: '.agents/skills' };

export const placeFlags = {
  agent: required('--agent <agent>', 'the agent whose skills folder to use', SKILL_AGENTS),
  scope: option(
    '--scope <scope>',
    'user: your home folder, for every project; project: the current folder, for this project alone',
    SKILL_SCOPES,
    'user' as SkillScope,
  ),
};

export const placeNotes = `
Claude Code reads ~/.claude/skills/wsctl/SKILL.md (--scope user) or
.claude/skills/wsctl/SKILL.md in the current folder (--scope project);
Codex reads ~/.agents/skills/wsctl/SKILL.md or .agents/skills/wsctl/SKILL.md.
wsctl knows a SKILL.md is its own by its front matter: metadata names
wsctl (generated-by) and holds the file's SHA-256. A SKILL.md a person
wrote or edited is never removed, nor replaced unless --force (exit 1).
`;

export interface Place {
  agent: SkillAgent;
  scope: SkillScope;
  label: string;
  folder: string;
  file: string;
}

/** Where the agent looks for wsctl's skill in this scope. */
export function placeOf(opts: { agent: SkillAgent; scope: SkillScope }, ctx: Ctx): Place {
  const base = opts.scope === 'user' ? ctx.env.HOME || ctx.env.USERPROFILE || homedir() : resolve(ctx.cwd ?? process.cwd());
  const folder = join(base, SKILLS_FOLDER[opts.agent], SKILL_NAME);
  return { ...opts, label: AGENT_LABELS[opts.agent], folder, file: join(folder, SKILL_FILE) };
}

/** The other flags a command line for this place needs: `--scope project` when it is not the default. */
export function placeWords(place: Place): string {
  return `--agent ${place.agent}${place.scope === 'user' ? '' : ` --scope ${place.scope}`}`;
}

/** A skill is a few kilobytes: past this, a file there is not wsctl's and is not read. */
const MAX_BYTES = 1024 * 1024;

/** What is at the skill's path: nothing, wsctl's own file (unchanged), or something else, with why. */
export type Found =
  | { kind: 'none' }
  | { kind: 'wsctl'; text: string }
  | { kind: 'other'; why: string; text?: string; replaceable: boolean };

/**
 * Reads what is at `file` without following a symbolic link (wsctl writes none, so a link is
 * not its own) or blocking on a FIFO: the file is opened without waiting and checked once open.
 */
export function found(file: string): Found {
  try {
    return foundAt(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file where a folder of the path should be: nothing is there (writing there says why).
    if (code === 'ENOTDIR') return { kind: 'none' };
    throw new WsctlError(`Cannot read ${file} (${code ?? (error as Error).message}).`);
  }
}

function foundAt(file: string): Found {
  const stats = lstatSync(file, { throwIfNoEntry: false });
  if (!stats) return { kind: 'none' };
  if (stats.isSymbolicLink()) return { kind: 'other', why: 'it is a symbolic link', replaceable: true };
  if (stats.isDirectory()) return { kind: 'other', why: 'it is a folder', replaceable: false };
  if (!stats.isFile()) return { kind: 'other', why: 'it is not a regular file', replaceable: false };
  const { constants } = process.getBuiltinModule('node:fs');
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return { kind: 'other', why: 'it is not a regular file', replaceable: false };
    if (opened.size > MAX_BYTES) return { kind: 'other', why: 'it is larger than a skill wsctl writes', replaceable: true };
    const buffer = Buffer.alloc(opened.size);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, null);
      if (n === 0) break;
      read += n;
    }
    const text = buffer.subarray(0, read).toString('utf8');
    if (writtenByWsctl(text)) return { kind: 'wsctl', text };
    const why = text.includes('generated-by: wsctl') ? 'it was changed since wsctl wrote it' : 'wsctl did not write it';
    return { kind: 'other', why, text, replaceable: true };
  } finally {
    closeSync(fd);
  }
}

/** "--agent <claude-code|codex>", "[--scope <user|project>]", "[--field <key=value>]...": a parameter as the skill's usage line shows it, choices spelled out. */
function usageOf(param: Param<unknown>, kind: 'arg' | 'flag'): string {
  const choices = param.choices?.join('|');
  // '<shell>' → '<bash|zsh|fish>', '[kind]' → '[conversation|persona|…]'
  if (kind === 'arg') return choices ? `${param.syntax[0]}${choices}${param.syntax.at(-1)}` : param.syntax;
  const [, long = param.syntax, value] = /(--[\w-]+)(?: (.+))?$/.exec(param.syntax) ?? [];
  const text = value ? `${long} ${choices ? `<${choices}>` : value}` : long;
  if (param.required) return text;
  return param.repeated ? `[${text}]...` : `[${text}]`;
}

/** One verb's line in the skill: its usage, from the declaration, and what it changes. */
function commandOf(path: string[], verb: VerbDecl): SkillCommand {
  const args = Object.values((verb.args ?? {}) as Record<string, Param<unknown>>).map((a) => usageOf(a, 'arg'));
  const flags = flagsOf(verb).map(([, f]) => usageOf(f, 'flag'));
  return { usage: ['wsctl', ...path, ...args, ...flags].join(' '), summary: commandSummary(verb), changes: commandChanges(verb) };
}

/** The skill's text, from every declared verb (in the order of `wsctl --help`). */
export function skillText(verbs: { path: string[]; verb: VerbDecl; hidden: boolean }[]): string {
  const shown = verbs.filter((v) => !v.hidden);
  const words = (v: { path: string[] }) => v.path.join(' ');
  return skillMarkdown({
    commands: shown.map((v) => commandOf(v.path, v.verb)),
    idSources: ID_KINDS.map((kind) => [kind, WHERE_FROM[kind]]),
    deleting: shown.filter((v) => v.verb.endpoints !== 'any' && mayDelete(v.verb)).map(words),
    anyMethod: shown.filter((v) => v.verb.endpoints === 'any').map(words),
    confirmedElsewhere: shown.filter((v) => !mayDelete(v.verb) && asksOf(v.verb) !== 'never').map(words),
  });
}
