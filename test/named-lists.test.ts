// Help texts and the README name some sets of commands and tools in full, where a person reads
// them as a whole sentence (the deletions, the tools that always ask, the verbs that remember ids).
// Each such list is checked here against the declarations: a verb added to one of those sets fails
// here until the text names it, and a text that names one too many fails as well.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredVerbs } from '../src/cli/program.js';
import { serverFlags } from '../src/commands/mcp/shared.js';
import { agents, POLICY_MEANS } from '../src/commands/profile/agents.js';
import { list as idsList } from '../src/commands/ids/list.js';
import { TOPICS } from '../src/help/topics.js';
import { toolsOf, type ToolDef } from '../src/mcp/tools.js';
import { callChanges } from '../src/verbs/changes.js';
import { ROOT } from './helpers.js';
import { VERBS } from './endpoints.js';

const TOOLS = toolsOf(await declaredVerbs());
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The part of a text that holds the list: the first group of the pattern, which must match. */
function part(text: string, pattern: RegExp): string {
  const found = pattern.exec(text.replace(/\s+/g, ' '));
  expect(found, `${pattern} in ${JSON.stringify(text.slice(0, 200))}`).not.toBeNull();
  return found![1]!;
}

/** Which of the names a text names, each as whole words ("device rm"), the longest first: "conn rm" is not "conn". */
function named(text: string, names: string[]): string[] {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let left = text;
  const found: string[] = [];
  for (const n of [...names].sort((a, b) => b.length - a.length)) {
    const pattern = new RegExp(`(^|[^\\w-])${literal(n)}(?=$|[^\\w-])`, 'g');
    if (!pattern.test(left)) continue;
    found.push(n);
    left = left.replace(pattern, '$1 ');
  }
  return found.sort();
}

const verbPaths = VERBS.map((v) => v.path.join(' '));
const toolNames = TOOLS.map((t) => t.name);

/** The verbs that delete (a DELETE of the table), by the policy's own judgement with no --force. */
const DELETING = VERBS.filter((v) => v.verb.endpoints !== 'any' && callChanges(v.verb, {}) === 'destructive')
  .map((v) => v.path.join(' '))
  .sort();

/** A tool a person confirms whatever its arguments say (README's "every call"). */
function alwaysConfirmed(t: ToolDef): boolean {
  return t.asks === 'always';
}

describe('lists of commands in help texts and the README are the declarations', () => {
  it('wsctl mcp --allow-destructive names every deleting tool and every tool with a force argument', () => {
    const help = serverFlags.allowDestructive.help;
    const removing = part(help, /the tools that remove \(([^)]*)\)/);
    const replacing = part(help, /the force argument that replaces \(([^)]*)\)/);
    expect(named(removing, toolNames)).toEqual(
      TOOLS.filter((t) => t.changes === 'destructive')
        .map((t) => t.name)
        .sort(),
    );
    expect(named(replacing, toolNames)).toEqual(
      TOOLS.filter((t) => t.params.some((p) => p.name === 'force'))
        .map((t) => t.name)
        .sort(),
    );
  });

  it('wsctl mcp --no-confirm names every tool that always asks and deletes nothing', () => {
    const help = serverFlags.noConfirm.help;
    expect(named(help, toolNames)).toEqual(
      TOOLS.filter((t) => t.changes !== 'destructive' && alwaysConfirmed(t))
        .map((t) => t.name)
        .sort(),
    );
  });

  it('profile agents names the deleting verbs where it says what no-destructive refuses', () => {
    expect(named(part(POLICY_MEANS['no-destructive'], /not delete \(([^)]*)\)/), verbPaths)).toEqual(DELETING);
    expect(named(part(agents.notes ?? '', /no-destructive refuses (.*?) and every --force/), verbPaths)).toEqual(DELETING);
  });

  it('README names the deleting verbs where it says what no-destructive refuses', () => {
    expect(named(part(README, /no-destructive # no (.*?), nor any --force/), verbPaths)).toEqual(DELETING);
    expect(named(part(README, /`no-destructive` refuses (.*?) and every `--force`/), verbPaths)).toEqual([...DELETING, 'api'].sort());
  });

  it('wsctl ids names every verb that remembers the ids it shows', () => {
    const remembering = VERBS.filter((v) => v.verb.ids?.remembers)
      .map((v) => v.path.join(' '))
      .sort();
    expect(named(part(idsList.notes ?? '', /and base URL: ([^.]*)\./), verbPaths)).toEqual(remembering);
  });

  it('help environment names every boolean variable the code reads, and no other', () => {
    const sources = (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const read = new Set<string>();
    for (const file of sources)
      for (const m of readFileSync(join(ROOT, 'src', file), 'utf8').matchAll(/envFlag\([^,]+, '(WSCTL_[A-Z_]+)'\)/g))
        read.add(m[1] as string);
    const intro = TOPICS.find((t) => t.name === 'environment')!.intro.join(' ');
    expect(
      part(intro, /Boolean variables \(([^)]*)\)/)
        .match(/WSCTL_[A-Z_]+/g)
        ?.sort(),
    ).toEqual([...read].sort());
  });

  it('finds what it looks for', () => {
    expect(named('conn rm, device rm and every --force', ['conn rm', 'device rm', 'pub rm', 'conn'])).toEqual(['conn rm', 'device rm']);
    expect(named('(keys_create, site_create)', ['keys_create', 'keys', 'site_create'])).toEqual(['keys_create', 'site_create']);
    expect(DELETING.length).toBeGreaterThan(0);
  });
});
