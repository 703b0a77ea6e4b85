// wsctl's agent skill (cli.md §12): the committed skills/wsctl/SKILL.md is what the declarations
// generate and what `wsctl skill` prints; every command line it teaches parses with the real
// parser; and `skill install` / `skill uninstall` write and remove wsctl's own file alone.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { declaredVerbs } from '../src/cli/program.js';
import { GLOBAL_OPTIONS } from '../src/common/globals.js';
import { REASONS } from '../src/errors.js';
import { writtenByWsctl } from '../src/help/skill.js';
import { TOPICS } from '../src/help/topics.js';
import { asksOf } from '../src/verbs/changes.js';
import { generatedFiles } from '../src/main.js';
import { optionsOf } from './argv.js';
import { ROOT, noStackTrace, run, runBin, tempDir } from './helpers.js';

const SKILL = join(ROOT, 'skills', 'wsctl', 'SKILL.md');
const committed = readFileSync(SKILL, 'utf8');

describe('the skill as generated', () => {
  it('the committed skills/wsctl/SKILL.md is what the declarations generate (npm run docs), and what `wsctl skill` prints', async () => {
    const files = await generatedFiles();
    expect(files['skills/wsctl/SKILL.md']).toBe(committed);
    const printed = await runBin(['skill']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(committed);
    const json = await runBin(['skill', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ name: 'wsctl', text: committed });
  });

  it('is in the Agent Skills format: front matter with name wsctl and a description of when to use it, then Markdown, under 5,000 words', () => {
    const [, head, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(committed) ?? [];
    expect(head).toBeDefined();
    const lines = (head as string).split('\n');
    expect(lines[0]).toBe('name: wsctl');
    const description = /^description: (.*)$/m.exec(head as string)?.[1] ?? '';
    expect(description.length).toBeGreaterThan(50);
    expect(description.length).toBeLessThanOrEqual(1024);
    // A plain YAML scalar: nothing in it that YAML would read as a mapping, a comment or a quote.
    expect(description).not.toMatch(/: | #|^["'&*!|>%@`{[]/);
    expect(description).toMatch(/Use when/);
    expect(lines.slice(2)).toEqual(['metadata:', '  generated-by: wsctl', expect.stringMatching(/^ {2}sha256: "[0-9a-f]{64}"$/)]);
    expect((body as string).startsWith('\n# wsctl\n')).toBe(true);
    expect(committed.split(/\s+/).filter(Boolean).length).toBeLessThan(5000);
  });

  it("knows its own file by the digest in its front matter: an edit, or no such line, makes it not wsctl's", () => {
    expect(writtenByWsctl(committed)).toBe(true);
    expect(writtenByWsctl(`${committed}\nMy own note.\n`)).toBe(false);
    expect(writtenByWsctl(committed.replace('Never invent an id', 'Invent ids'))).toBe(false);
    expect(writtenByWsctl(committed.replace('  generated-by: wsctl\n', ''))).toBe(false);
    expect(writtenByWsctl('---\nname: wsctl\ndescription: mine\n---\n# wsctl\n')).toBe(false);
  });

  it('has one line per command, with its usage, read from the declarations', async () => {
    const lines = committed
      .slice(committed.indexOf('## Commands'))
      .split('\n')
      .filter((l) => l.startsWith('- `wsctl'));
    const verbs = (await declaredVerbs()).filter((v) => !v.hidden);
    expect(lines.map((l) => /^- `wsctl ([a-z -]+?)(?: [<[-]|`)/.exec(l)?.[1])).toEqual(verbs.map((v) => v.path.join(' ')));
    expect(committed).toContain('- `wsctl device rm <device_id> [--yes]`: ');
    expect(committed).toContain('`wsctl byok add --name <name> --provider-url <url> --format <openai|anthropic|groq> --model <model_id>');
  });

  it('names every error reason, and only those; and every command a person confirms in `wsctl mcp` where it says when a person must say yes', async () => {
    for (const reason of Object.keys(REASONS)) expect(committed, reason).toContain(`\`${reason}\``);
    const failures = section('## Reading failures');
    const words = [...failures.matchAll(/^- (`[a-z_]+`(?:, `[a-z_]+`)*):/gm)].flatMap((m) => m[1]!.split(', ').map((w) => w.slice(1, -1)));
    expect(words.length).toBeGreaterThan(10);
    for (const word of words) expect(Object.keys(REASONS), word).toContain(word);
    const yes = section('## When a person must say yes');
    for (const v of (await declaredVerbs()).filter((d) => !d.hidden && asksOf(d.verb) !== 'never'))
      expect(yes, v.path.join(' ')).toContain(`\`wsctl ${v.path.join(' ')}`);
  });

  it('every id it says how to extract comes out of the sandbox with the filter it gives', async () => {
    const filters = commandLines(committed).filter((l) => l.includes('--jq') && !l.includes('<expression>'));
    expect(filters.length).toBeGreaterThanOrEqual(6);
    const env = { WSCTL_SANDBOX: '1', WSCTL_CONFIG_DIR: tempDir(), CLAUDECODE: '1' };
    const ids: Record<string, string> = { conversation_id: 'conv_demo', persona_id: 'persona_demo' };
    for (const line of filters) {
      const argv = [...line.slice('wsctl '.length).matchAll(/'([^']*)'|(\S+)/g)].map(
        (m) => m[1] ?? (m[2] as string).replace(/^<(.+)>$/, (_, name) => ids[name] ?? name),
      );
      const r = await runBin(argv, { env });
      expect(r.code, `${line}: ${r.stderr}`).toBe(0);
      expect(r.stdout.trim(), line).not.toBe('');
      expect(r.stdout, line).not.toMatch(/^null$/m);
    }
  });

  it('every wsctl command line it teaches parses with the real parser, its flags and choices included', async () => {
    const lines = commandLines(committed);
    expect(lines.length).toBeGreaterThan(60);
    const { program } = await import('./argv.js').then((m) => m.recordingProgram());
    for (const line of lines) {
      const { base: argv, optional } = argvOf(line);
      if (argv[0] === 'help') {
        // `help --json <command words>` (another door reads it): the words name a command, or nothing.
        // `<command words>` stands for any command's words.
        const words = line
          .replace(/<command words>/, '')
          .split(/\s+/)
          .slice(2)
          .filter((w) => w && !w.startsWith('-'));
        if (words.length === 1 && TOPICS.some((t) => t.name === words[0])) continue;
        let command = program;
        for (const word of words) command = command.commands.find((c) => c.name() === word) ?? fail(line);
        continue;
      }
      // A command named by its words alone (`wsctl device rm` in a sentence) names a command of the tree.
      if (argv.every((w) => !w.startsWith('-')) && named(program, argv)) continue;
      await expect(optionsOf(argv), line).resolves.toBeDefined();
      // Each optional flag is one of the command's (or a global one), with a value among its choices.
      const command = commandOf(program, argv);
      for (const [flag, value] of optional) {
        const option = [...command.options, ...program.options].find((o) => o.long === flag);
        expect(option, `${line}: ${flag}`).toBeDefined();
        if (option?.argChoices) expect(option.argChoices, `${line}: ${flag}`).toContain(value);
      }
    }
    for (const option of Object.values(GLOBAL_OPTIONS)) expect(committed).toContain(`\`${option.flags}\``);
  });
});

/** Whether these words are a command's path, as a whole (`device rm`, not `device rm dev_phone`). */
function named(program: Command, words: string[]): boolean {
  let command: Command | undefined = program;
  for (const word of words) command = command?.commands.find((c) => c.name() === word);
  return command !== undefined && command !== program && words.length > 0;
}

/** The deepest command argv's leading words name. */
function commandOf(program: Command, argv: string[]): Command {
  let command = program;
  for (const word of argv) {
    const sub = command.commands.find((c) => c.name() === word);
    if (!sub) break;
    command = sub;
  }
  return command;
}

function fail(line: string): never {
  throw new Error(`the skill names a command that does not exist: ${line}`);
}

function section(heading: string): string {
  const start = committed.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = committed.indexOf('\n## ', start + heading.length + 2);
  return committed.slice(start, end < 0 ? undefined : end);
}

/** Every `wsctl …` in an inline code span or a code block of the skill, as written. */
function commandLines(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string);
  const blocks = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((m) => (m[1] as string).split('\n'));
  // `wsctl <name> …` (an alias, in alias set's summary) is no command of the tree.
  return [...spans, ...blocks].map((l) => l.trim()).filter((l) => /^wsctl( |$)/.test(l) && !/^wsctl </.test(l));
}

/** Values that each placeholder's parser takes (the skill shows the names; a test must run them). */
const VALUES: Record<string, string> = {
  n: '2',
  seconds: '1',
  url: 'https://models.example.com/v1',
  permission: 'read',
  file: 'ada.png',
  kind: 'conversation',
  method: 'GET',
  'key=value': 'name=x',
};

/**
 * A command line as the skill writes it → argv after `wsctl`: placeholders filled (a choice's first
 * value), the words in brackets apart, each optional group by itself (`[--field <key=value>]...`),
 * since some options exclude each other (`api`'s --field and --input).
 */
function argvOf(line: string): { base: string[]; optional: string[][] } {
  const base: string[] = [];
  const optional: string[][] = [];
  // Shell words (single-quoted strings stay one word), or a bracketed group.
  for (const m of line.slice('wsctl '.length).matchAll(/'([^']*)'|\[([^\]]+)\](?:\.\.\.)?|(\S+)/g)) {
    if (m[1] !== undefined) base.push(m[1]);
    else if (m[3] !== undefined) base.push(fill(m[3]));
    // `[kind]`, `[<kind>]`: an optional argument; `[--scope <user|project>]`: an optional flag.
    else if (m[2]!.startsWith('-')) optional.push(m[2]!.split(' ').map(fill));
    else base.push(fill(m[2]!.replace(/^<(.*)>$/, '$1').replace(/^(?!<)(.*)$/, '<$1>')));
  }
  return { base, optional };
}

function fill(word: string): string {
  const placeholder = /^<([^>]+)>$/.exec(word)?.[1];
  if (placeholder === undefined) return word;
  if (placeholder.includes('|')) return placeholder.split('|')[0] as string;
  return VALUES[placeholder] ?? 'x';
}

describe('wsctl skill install and uninstall', () => {
  const setup = () => {
    const home = tempDir();
    const cwd = tempDir();
    return { home, cwd, env: { HOME: home, WSCTL_CONFIG_DIR: join(home, 'cfg') } };
  };
  const claude = (home: string) => join(home, '.claude', 'skills', 'wsctl', 'SKILL.md');

  it('writes the skill where Claude Code looks (user scope by default), says so, and a second run changes nothing', async () => {
    const { home, env } = setup();
    const r = await run(['skill', 'install', '--agent', 'claude-code'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `Installed wsctl's skill for Claude Code in ${claude(home)}.\nClaude Code loads it in its next session; \`wsctl skill uninstall --agent claude-code\` removes it.\n`,
    );
    expect(readFileSync(claude(home), 'utf8')).toBe(committed);
    expect(statSync(claude(home)).mode & 0o777).toBe(0o644);
    const inode = statSync(claude(home)).ino;
    const again = await run(['skill', 'install', '--agent', 'claude-code', '--json'], { env });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      agent: 'claude-code',
      scope: 'user',
      file: claude(home),
      changed: false,
      written: null,
      replaced: 'wsctl',
    });
    // Not rewritten: the same file.
    expect(statSync(claude(home)).ino).toBe(inode);
    const said = await run(['skill', 'install', '--agent', 'claude-code'], { env });
    expect(said.stdout).toBe(`${claude(home)} already holds this skill: nothing was changed.\n`);
  });

  it('--scope project writes under the current folder; Codex reads ~/.agents/skills and .agents/skills', async () => {
    const { home, cwd, env } = setup();
    expect((await run(['skill', 'install', '--agent', 'claude-code', '--scope', 'project'], { env, cwd })).code).toBe(0);
    expect(readFileSync(join(cwd, '.claude', 'skills', 'wsctl', 'SKILL.md'), 'utf8')).toBe(committed);
    expect((await run(['skill', 'install', '--agent', 'codex'], { env, cwd })).code).toBe(0);
    expect(readFileSync(join(home, '.agents', 'skills', 'wsctl', 'SKILL.md'), 'utf8')).toBe(committed);
    const r = await run(['skill', 'install', '--agent', 'codex', '--scope', 'project', '--json'], { env, cwd });
    expect(JSON.parse(r.stdout)).toMatchObject({
      file: join(cwd, '.agents', 'skills', 'wsctl', 'SKILL.md'),
      written: join(cwd, '.agents', 'skills', 'wsctl', 'SKILL.md'),
    });
    expect(existsSync(join(home, '.claude'))).toBe(false);
  });

  it('--dry-run prints the path and the change as a unified diff, and writes nothing', async () => {
    const { home, env } = setup();
    const r = await run(['skill', 'install', '--agent', 'claude-code', '--dry-run'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^--- /dev/null\\n\\+\\+\\+ ${claude(home)}\\n@@ -0,0 \\+1,\\d+ @@\\n\\+---\\n\\+name: wsctl\\n`));
    expect(r.stdout.endsWith(`Would write ${claude(home)}. Nothing was changed (--dry-run).\n`)).toBe(true);
    expect(existsSync(join(home, '.claude'))).toBe(false);
    // An older skill of wsctl's: the diff shows what changes.
    mkdirSync(join(home, '.claude', 'skills', 'wsctl'), { recursive: true });
    const older = committed.replace('Never invent an id', 'Do not invent an id');
    writeFileSync(claude(home), older);
    const json = await run(['skill', 'install', '--agent', 'claude-code', '--dry-run', '--json'], { env });
    // Edited by hand, so not wsctl's: refused even for a dry run.
    expect(json.code).toBe(1);
  });

  it('a SKILL.md wsctl did not write, or that was edited since, is never replaced (exit 1 naming it) unless --force', async () => {
    const { home, env } = setup();
    mkdirSync(join(home, '.claude', 'skills', 'wsctl'), { recursive: true });
    const mine = '---\nname: wsctl\ndescription: my own notes on wsctl\n---\n# Mine\n';
    writeFileSync(claude(home), mine);
    const r = await run(['skill', 'install', '--agent', 'claude-code'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Error: ${claude(home)} was left as it is: wsctl did not write it. Pass --force to replace it, or move it away first.\n`,
    );
    expect(readFileSync(claude(home), 'utf8')).toBe(mine);
    const json = await run(['skill', 'install', '--agent', 'claude-code', '--json'], { env });
    expect(JSON.parse(json.stderr).error).toMatchObject({ exit_code: 1, reason: 'local_error' });
    // Installed, then edited by a person: theirs now.
    writeFileSync(claude(home), `${committed}\nAlways use --profile work.\n`);
    const edited = await run(['skill', 'install', '--agent', 'claude-code'], { env });
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('it was changed since wsctl wrote it');
    const forced = await run(['skill', 'install', '--agent', 'claude-code', '--force', '--json'], { env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ changed: true, written: claude(home), replaced: 'other' });
    expect(readFileSync(claude(home), 'utf8')).toBe(committed);
  });

  it('a symbolic link there is not followed: refused, and with --force replaced by the file, its target untouched', async () => {
    const { home, env } = setup();
    mkdirSync(join(home, '.claude', 'skills', 'wsctl'), { recursive: true });
    const target = join(home, 'dotfiles-skill.md');
    writeFileSync(target, committed);
    symlinkSync(target, claude(home));
    const r = await run(['skill', 'install', '--agent', 'claude-code'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('it is a symbolic link');
    expect((await run(['skill', 'uninstall', '--agent', 'claude-code'], { env })).code).toBe(1);
    expect(lstatSync(claude(home)).isSymbolicLink()).toBe(true);
    expect((await run(['skill', 'install', '--agent', 'claude-code', '--force'], { env })).code).toBe(0);
    expect(lstatSync(claude(home)).isFile()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(committed);
  });

  it('a folder or a FIFO in its place is exit 1 naming it, even with --force, never a hang or a stack trace', async () => {
    const { home, env } = setup();
    mkdirSync(claude(home), { recursive: true });
    const r = await run(['skill', 'install', '--agent', 'claude-code', '--force'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error: ${claude(home)} was left as it is: it is a folder.\n`);
    const other = setup();
    mkdirSync(join(other.home, '.claude', 'skills', 'wsctl'), { recursive: true });
    execFileSync('mkfifo', [claude(other.home)]);
    const fifo = await runBin(['skill', 'install', '--agent', 'claude-code', '--force'], { env: other.env });
    expect(fifo.code).toBe(1);
    expect(fifo.stderr).toContain('it is not a regular file');
    expect(noStackTrace(fifo.stderr)).toBe(true);
  });

  it('a skills folder that cannot be made is exit 1 naming the file, and nothing is written', async () => {
    const { home, env } = setup();
    mkdirSync(join(home, '.claude'), { recursive: true });
    // A file where the skills folder should be (root writes anywhere, but not inside a file).
    writeFileSync(join(home, '.claude', 'skills'), 'not a folder');
    const r = await runBin(['skill', 'install', '--agent', 'claude-code'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^Error: Cannot write ${claude(home)} \\((EEXIST|ENOTDIR)\\): the skill was not installed.\\n$`));
    expect(readFileSync(join(home, '.claude', 'skills'), 'utf8')).toBe('not a folder');
  });

  it('uninstall removes the SKILL.md wsctl wrote and its folder once empty, and nothing else', async () => {
    const { home, env } = setup();
    await run(['skill', 'install', '--agent', 'claude-code'], { env });
    const dry = await run(['skill', 'uninstall', '--agent', 'claude-code', '--dry-run'], { env });
    expect(dry.stdout).toBe(`Would remove ${claude(home)}. Nothing was changed (--dry-run).\n`);
    expect(existsSync(claude(home))).toBe(true);
    const r = await run(['skill', 'uninstall', '--agent', 'claude-code', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const folder = join(home, '.claude', 'skills', 'wsctl');
    expect(JSON.parse(r.stdout)).toEqual({
      agent: 'claude-code',
      scope: 'user',
      file: claude(home),
      removed: claude(home),
      folder_removed: folder,
    });
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(join(home, '.claude', 'skills'))).toBe(true);
    const none = await run(['skill', 'uninstall', '--agent', 'claude-code'], { env });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe(`${claude(home)} is not there: nothing to remove.\n`);
    // A person's file beside it stays, and so does the folder.
    await run(['skill', 'install', '--agent', 'claude-code'], { env });
    writeFileSync(join(folder, 'notes.md'), 'mine');
    const kept = await run(['skill', 'uninstall', '--agent', 'claude-code'], { env });
    expect(kept.stdout).toBe(`Removed wsctl's skill for Claude Code (${claude(home)}).\n`);
    expect(readFileSync(join(folder, 'notes.md'), 'utf8')).toBe('mine');
    // A SKILL.md a person wrote is not removed.
    writeFileSync(claude(home), '# mine\n');
    const theirs = await run(['skill', 'uninstall', '--agent', 'claude-code'], { env });
    expect(theirs.code).toBe(1);
    expect(theirs.stderr).toBe(`Error: ${claude(home)} was left as it is: wsctl did not write it. Remove it yourself if it should go.\n`);
    expect(readFileSync(claude(home), 'utf8')).toBe('# mine\n');
  });

  it('under an agent with a read-only policy, installing a skill is allowed: it changes no workspace', async () => {
    const { home, env } = setup();
    const login = await run(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--base-url', 'https://api.example.com'], {
      env,
      stdin: 'wsk_test_0123456789abcdef\n',
    });
    expect(login.code, login.stderr).toBe(0);
    expect((await run(['profile', 'agents', 'default', 'read-only'], { env })).code).toBe(0);
    const agent = { ...env, CLAUDECODE: '1' };
    const r = await run(['skill', 'install', '--agent', 'claude-code'], { env: agent });
    expect(r.code, r.stderr).toBe(0);
    writeFileSync(claude(home), '# mine\n');
    const forced = await run(['skill', 'install', '--agent', 'claude-code', '--force'], { env: agent });
    expect(forced.code, forced.stderr).toBe(0);
    expect((await run(['skill', 'uninstall', '--agent', 'claude-code'], { env: agent })).code).toBe(0);
  });

  it('bad input is exit 2 with the allowed values named, and nothing written', async () => {
    const { home, env } = setup();
    const wrong = await run(['skill', 'install', '--agent', 'cursor'], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Allowed choices are claude-code, codex.');
    const missing = await run(['skill', 'install'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--agent');
    const scope = await run(['skill', 'uninstall', '--agent', 'codex', '--scope', 'global'], { env });
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain('Allowed choices are user, project.');
    expect(existsSync(join(home, '.claude'))).toBe(false);
    expect(existsSync(join(home, '.agents'))).toBe(false);
  });
});

describe('the package', () => {
  it('ships skills/wsctl/SKILL.md', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const packed: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
    expect(packed).toContain('skills/wsctl/SKILL.md');
  });
});
