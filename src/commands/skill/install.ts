import { chmodSync } from 'node:fs';
import { defineVerb, flag, type Ctx, type Here, type Result } from '../../verbs/declare.js';
import { makeFolder, writeFileAtomic } from '../../config/atomic.js';
import { WsctlError } from '../../errors.js';
import { found, placeFlags, placeNotes, placeOf, placeWords, skillText, type SkillAgent, type SkillScope } from './shared.js';

export const install = defineVerb({
  name: 'install',
  summary: "Write wsctl's agent skill where Claude Code or Codex looks for skills",
  flags: {
    ...placeFlags,
    // Not keyed `force`: that key marks a call that replaces something in the workspace (src/verbs/changes.ts),
    // which agent policies refuse; this replaces a local file, and changes no workspace.
    replaceOther: flag('--force', 'replace a SKILL.md there that wsctl did not write, or that was changed since'),
  },
  notes: `${placeNotes}A run that would change nothing says so; --dry-run prints the change as a diff.
Undo with \`wsctl skill uninstall --agent <agent>\`.
`,
  examples: [
    'wsctl skill install --agent claude-code',
    'wsctl skill install --agent codex --scope project',
    'wsctl skill install --agent claude-code --dry-run',
  ],
  endpoints: [],
  sample: ['skill', 'install', '--agent', 'claude-code', '--dry-run'],
  run: (opts, ctx, here) => run(opts, ctx, here),
});

type Opts = { agent: SkillAgent; scope: SkillScope; replaceOther: boolean };

export async function run(opts: Opts, ctx: Ctx, here: Pick<Here, 'verbs'>): Promise<Result> {
  const place = placeOf(opts, ctx);
  const text = skillText(await here.verbs());
  const there = found(place.file);
  if (there.kind === 'other' && !(opts.replaceOther && there.replaceable)) {
    const way = there.replaceable ? ' Pass --force to replace it, or move it away first.' : '';
    throw new WsctlError(`${place.file} was left as it is: ${there.why}.${way}`);
  }
  const before = there.kind === 'none' ? undefined : there.text;
  const changed = there.kind !== 'wsctl' || there.text !== text;
  const replaced = there.kind === 'none' ? null : there.kind;
  const doc = { agent: place.agent, scope: place.scope, file: place.file, changed, written: null as string | null, replaced };
  if (ctx.dryRun) {
    // The diff module loads with this verb only (as for mcp install).
    const diff = changed ? (await import('../mcp/diff.js')).unifiedDiff(before, text, place.file) : '';
    return {
      json: { ...doc, diff, dry_run: true },
      human(out) {
        out.write(diff);
        out.line(changed ? `Would write ${place.file}. Nothing was changed (--dry-run).` : unchanged(place.file, 'would change'));
      },
    };
  }
  if (changed) {
    write(place.folder, place.file, text);
    doc.written = place.file;
  }
  const verb = there.kind === 'none' ? 'Installed' : there.kind === 'wsctl' ? 'Updated' : 'Replaced the SKILL.md there with';
  return {
    json: doc,
    human(out) {
      if (!changed) return out.done(unchanged(place.file, 'was changed'));
      out.done(`${verb} wsctl's skill for ${place.label} in ${place.file}.`);
      out.line(`${place.label} loads it in its next session; \`wsctl skill uninstall ${placeWords(place)}\` removes it.`);
    },
  };
}

function unchanged(file: string, said: 'would change' | 'was changed'): string {
  return `${file} already holds this skill: nothing ${said}.`;
}

/** The skill's folder made if missing (readable by all: it holds no secret), the file replaced by rename. */
function write(folder: string, file: string, text: string): void {
  try {
    makeFolder(folder, 0o755);
    writeFileAtomic(file, text);
    chmodSync(file, 0o644);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new WsctlError(`Cannot write ${file} (${why}): the skill was not installed.`);
  }
}
