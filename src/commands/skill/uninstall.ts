import { rmdirSync, rmSync } from 'node:fs';
import { defineVerb, type Ctx, type Result } from '../../verbs/declare.js';
import { WsctlError } from '../../errors.js';
import { found, placeFlags, placeNotes, placeOf, type SkillAgent, type SkillScope } from './shared.js';

export const uninstall = defineVerb({
  name: 'uninstall',
  summary: 'Remove the agent skill wsctl installed, and nothing else',
  flags: placeFlags,
  notes: `${placeNotes}Only the SKILL.md wsctl wrote is removed, then its folder if nothing else is left in it.
`,
  examples: ['wsctl skill uninstall --agent claude-code', 'wsctl skill uninstall --agent codex --scope project --dry-run'],
  endpoints: [],
  sample: ['skill', 'uninstall', '--agent', 'claude-code'],
  run,
});

export async function run(opts: { agent: SkillAgent; scope: SkillScope }, ctx: Ctx): Promise<Result> {
  const place = placeOf(opts, ctx);
  const there = found(place.file);
  if (there.kind === 'other') throw new WsctlError(`${place.file} was left as it is: ${there.why}. Remove it yourself if it should go.`);
  const doc = {
    agent: place.agent,
    scope: place.scope,
    file: place.file,
    removed: null as string | null,
    folder_removed: null as string | null,
  };
  if (there.kind === 'none') return { json: doc, human: (out) => out.done(`${place.file} is not there: nothing to remove.`) };
  if (ctx.dryRun)
    return {
      json: { ...doc, dry_run: true },
      human: (out) => out.line(`Would remove ${place.file}. Nothing was changed (--dry-run).`),
    };
  try {
    rmSync(place.file);
  } catch (error) {
    throw new WsctlError(`Cannot remove ${place.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  doc.removed = place.file;
  doc.folder_removed = removeIfEmpty(place.folder) ? place.folder : null;
  return {
    json: doc,
    human: (out) => out.done(`Removed wsctl's skill for ${place.label} (${place.file}${doc.folder_removed ? ' and its folder' : ''}).`),
  };
}

/** The skill's folder goes only when nothing is left in it: another file there is someone's. */
function removeIfEmpty(folder: string): boolean {
  try {
    rmdirSync(folder);
    return true;
  } catch {
    return false;
  }
}
