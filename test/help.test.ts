// Help as users meet it: topics (`wsctl help environment` …), unknown topics and commands with a
// sensible suggestion, the order of a noun's and a verb's help, and the manual pages, all
// generated from the command tree and src/help/topics.ts; and help that arrives whole through a
// full, non-blocking pipe.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { constants, openSync, readdirSync, readFileSync, readSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { declaredNouns } from '../src/cli/program.js';
import { TOPICS } from '../src/help/topics.js';
import { generatedFiles } from '../src/main.js';
import { BIN, ROOT, runBin, tempDir } from './helpers.js';

/** Every noun a user sees that holds verbs, from the declarations; and those that do not run by themselves (`wsctl mcp` does). */
const holders = (await declaredNouns()).filter((n) => !n.hidden && n.declared.verbs.length > 0);
const nouns = holders.map((n) => n.name);
const onlyNouns = holders.filter((n) => !n.declared.self).map((n) => n.name);

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

describe('help topics', () => {
  it.each(TOPICS.map((t) => [t.name]))('`wsctl help %s` prints the topic, exit 0', async (name) => {
    const r = await runBin(['help', name], { env: { COLUMNS: '80' } });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).not.toContain('Usage: wsctl');
    for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('environment names every variable the code reads', async () => {
    const r = await runBin(['help', 'environment']);
    const source = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
      .join('\n');
    const read = new Set([...source.matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]+)/g)].map((m) => m[1] as string));
    read.delete('HOME');
    expect(read.size).toBeGreaterThan(15);
    for (const name of read)
      expect(r.stdout, `${name} is read by src/ but not in \`wsctl help environment\` (src/help/topics.ts)`).toMatch(
        new RegExp(`\\b${name}\\b`),
      );
  });

  it('exit-codes lists every code of the contract', async () => {
    const r = await runBin(['help', 'exit-codes']);
    for (const code of ['0', '1', '2', '3', '4', '5', '130']) expect(r.stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
  });

  it('the root help names every topic', async () => {
    const r = await runBin(['--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      `Help topics: wsctl help ${TOPICS.map((t) => t.name)
        .slice(0, -1)
        .join(', ')} or ${TOPICS.at(-1)!.name}.`,
    );
  });

  it('`wsctl help <unknown>` exits 2 with a suggestion, on one line', async () => {
    const nope = await runBin(['help', 'nope']);
    expect([nope.code, nope.stdout]).toEqual([2, '']);
    expect(nope.stderr).toBe(
      "Error: unknown help topic or command 'nope'. Help topics: environment, exit-codes, formatting, config; `wsctl help` lists the commands.\n",
    );
    const typo = await runBin(['help', 'enviroment']);
    expect([typo.code, typo.stderr]).toEqual([
      2,
      "Error: unknown help topic or command 'enviroment'. Did you mean 'wsctl help environment'?\n",
    ]);
    const verb = await runBin(['help', 'keys', 'craete']);
    expect([verb.code, verb.stderr]).toEqual([
      2,
      "Error: unknown command 'craete' for 'wsctl keys'. Did you mean 'create'? Run `wsctl keys --help` for usage.\n",
    ]);
    const json = await runBin(['help', 'nope', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error.exit_code).toBe(2);
  });

  it('`wsctl help keys create` is still `wsctl keys create --help`', async () => {
    const a = await runBin(['help', 'keys', 'create']);
    const b = await runBin(['keys', 'create', '--help']);
    expect([a.code, a.stdout]).toEqual([0, b.stdout]);
    expect(a.stdout).toMatch(/^Usage: wsctl keys create /);
  });
});

describe('typo suggestions', () => {
  it('`wsctl version` suggests --version, not a far-off command', async () => {
    const r = await runBin(['version']);
    expect([r.code, r.stderr]).toEqual([2, "Error: unknown command 'version'. Did you mean '--version'? Run `wsctl --help` for usage.\n"]);
  });

  it('close typos of commands are still suggested; far ones are not', async () => {
    expect((await runBin(['kyes'])).stderr).toBe("Error: unknown command 'kyes'. Did you mean 'keys'? Run `wsctl --help` for usage.\n");
    expect((await runBin(['sandbx', 'reset'])).stderr).toBe(
      "Error: unknown command 'sandbx'. Did you mean 'sandbox'? Run `wsctl --help` for usage.\n",
    );
    expect((await runBin(['frobnicate'])).stderr).toBe("Error: unknown command 'frobnicate'. Run `wsctl --help` for usage.\n");
  });
});

describe('completion', () => {
  it('`wsctl completion --help` says where each shell looks for the scripts, and so does its man page', async () => {
    const r = await runBin(['completion', '--help'], { env: { COLUMNS: '80' } });
    const page = readFileSync(join(ROOT, 'man', 'wsctl-completion.1'), 'utf8').replace(/\\-/g, '-');
    for (const where of [
      '/usr/share/bash-completion/completions/wsctl',
      '~/.local/share/bash-completion/completions/wsctl',
      '$fpath',
      '~/.config/fish/completions/wsctl.fish',
    ]) {
      expect(r.stdout).toContain(where);
      expect(page).toContain(where);
    }
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^ {2}\$ /);
  });
});

describe('the order of help', () => {
  it.each(nouns.map((n) => [n]))('`wsctl %s --help` lists its subcommands before the global options', async (noun) => {
    const r = await runBin([noun, '--help'], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const commands = lines.indexOf('Commands:');
    const globals = lines.indexOf('Global Options:');
    expect(commands).toBeGreaterThan(0);
    expect(globals).toBeGreaterThan(commands);
    expect(lines.indexOf('Options:')).toBeLessThan(commands);
    // The examples stay at the end.
    expect(lines.indexOf('Examples:')).toBeGreaterThan(globals);
  });

  it("every flag is listed once: a noun that runs (`wsctl mcp`) does not repeat its flags among its verb's global options", async () => {
    const r = await runBin(['mcp', 'config', '--help'], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    const flags = [...r.stdout.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]);
    expect(flags.length).toBeGreaterThan(10);
    expect(flags.filter((f, i) => flags.indexOf(f) !== i)).toEqual([]);
  });

  it.each(onlyNouns.map((n) => [n]))(
    "`wsctl %s --help` has no row of commander's lowercase `help` command (`wsctl help <command>` is the help command)",
    async (noun) => {
      const r = await runBin([noun, '--help'], { env: { COLUMNS: '80' } });
      expect(r.stdout).not.toMatch(/^ {2}help\b/m);
      // It still works, as commander's did.
      const viaWord = await runBin([noun, 'help'], { env: { COLUMNS: '80' } });
      expect([viaWord.code, viaWord.stdout]).toEqual([0, r.stdout]);
    },
  );

  it('no help text leaves "the current host" unexplained', async () => {
    for (const args of [['--help'], ['keys', '--help'], ['keys', 'create', '--help'], ['keys', 'list', '--help']]) {
      expect((await runBin(args)).stdout, args.join(' ')).not.toMatch(/current host/i);
    }
  });

  it("a verb's help lists its own options, then the global ones in a section of their own", async () => {
    const r = await runBin(['keys', 'create', '--help'], { env: { COLUMNS: '80' } });
    const lines = r.stdout.split('\n');
    const own = lines.indexOf('Options:');
    const globals = lines.indexOf('Global Options:');
    expect(own).toBeGreaterThan(0);
    expect(lines[own + 1]).toMatch(/^ {2}--save-as <profile>/);
    expect(globals).toBeGreaterThan(own);
    expect(lines.slice(own, globals).join('\n')).not.toContain('--profile');
    expect(lines.slice(globals).join('\n')).toContain('--profile <name>');
  });
});

describe('manual pages', () => {
  const pages = readdirSync(join(ROOT, 'man')).sort();
  const page = (name: string) => readFileSync(join(ROOT, 'man', name), 'utf8');

  it('wsctl.1 lists every command that runs, `wsctl mcp` as well as `wsctl mcp config`', () => {
    const commands = page('wsctl.1').split('.SH COMMANDS')[1]!.split('.SH ')[0]!;
    expect(commands).toContain('\\fBwsctl mcp\\fR\n');
    expect(commands).toContain('\\fBwsctl mcp config\\fR');
    expect(commands).toContain('\\fBwsctl caps\\fR');
  });

  it('every page carries the version and its release date (from CHANGELOG.md) in .TH, and DESCRIPTION does not repeat NAME', () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const date = new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\] - (\\d{4}-\\d{2}-\\d{2})$`, 'm').exec(
      readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'),
    )?.[1];
    expect(date).toBeDefined();
    for (const name of pages) {
      const text = page(name);
      expect(text, name).toMatch(new RegExp(`^\\.TH \\S+ 1 "${date}" "wsctl ${version.replace(/\./g, '\\.')}" "wsctl manual"$`, 'm'));
      if (name === 'wsctl.1') continue;
      const summary = /^\.SH NAME\n\S+ \\- (.*)$/m.exec(text)![1]!;
      const description = text.split('.SH DESCRIPTION\n')[1]!.split('\n')[0]!;
      expect(description, name).not.toContain(summary);
    }
    expect(page('wsctl-keys-create.1')).toMatch(/^\\fBwsctl keys create\\fR sends \\fBPOST \/api\\-keys\/\\fR/m);
  });

  it("man/ and package.json's `man` equal what the tree generates (npm run docs)", async () => {
    const pkg = readFileSync(join(ROOT, 'package.json'), 'utf8');
    const files = await generatedFiles(undefined, pkg, readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
    const generated = Object.keys(files)
      .filter((f) => f.startsWith('man/'))
      .map((f) => f.slice(4))
      .sort();
    expect(pages).toEqual(generated);
    for (const page of generated) expect(readFileSync(join(ROOT, 'man', page), 'utf8'), page).toBe(files[`man/${page}`]);
    expect(files['package.json']).toBe(pkg);
  });

  it('wsctl.1 has the sections of a manual page and a page per command', () => {
    const main = readFileSync(join(ROOT, 'man', 'wsctl.1'), 'utf8');
    const sections = [...main.matchAll(/^\.SH (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual([
      'NAME',
      'SYNOPSIS',
      'DESCRIPTION',
      'COMMANDS',
      'GLOBAL OPTIONS',
      'ENVIRONMENT',
      'EXIT STATUS',
      'FILES',
      'EXAMPLES',
      'SEE ALSO',
    ]);
    for (const page of ['wsctl-keys-create.1', 'wsctl-keys.1', 'wsctl-convo-show.1', 'wsctl-settings.1', 'wsctl-sandbox-serve.1'])
      expect(pages).toContain(page);
    expect(pages.some((p) => p.includes('__complete'))).toBe(false);
  });

  it('roff is escaped: no text line starts with a control character, hyphens are \\-, no raw non-ASCII', () => {
    for (const page of pages) {
      const text = readFileSync(join(ROOT, 'man', page), 'utf8');
      // eslint-disable-next-line no-control-regex
      expect(text, page).not.toMatch(/[^\x00-\x7f]/);
      for (const line of text.split('\n')) {
        if (line.startsWith('.') || line.startsWith("'")) expect(line, page).toMatch(/^\.(\\"|TH|SH|TP|PP|RS|RE|nf|fi|br|nh|ad) ?/);
        else expect(line.replace(/\\-/g, ''), `${page}: ${line}`).not.toMatch(/(^|[^\\])-/);
      }
    }
  });

  (has('groff') || process.env.CI ? it : it.skip)('every page renders with groff without a warning', () => {
    for (const page of pages) {
      const r = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', join(ROOT, 'man', page)], { encoding: 'utf8' });
      expect([r.status, r.stderr], page).toEqual([0, '']);
    }
    const r = spawnSync('groff', ['-man', '-Tutf8', '-P-c', '-P-b', '-P-u', join(ROOT, 'man', 'wsctl-keys-create.1')], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '80' },
    });
    expect(r.stdout).toContain('wsctl keys create [options] <name>');
    expect(r.stdout).toContain('--save-as <profile>');
    expect(r.stdout).toContain('$ wsctl keys create ci');
  });
});

/**
 * Runs bin/wsctl with stdout a non-blocking pipe that is full but for `room` bytes when it writes,
 * and reads the pipe only after a pause: a reader that is slow, as a pager or `| ssh` can be.
 * Node's spawn makes a child's stdio blocking; the pipe is made non-blocking again once the child
 * is started (a pipe handle on our copy of its write end), while the child is still in `sleep`.
 */
async function helpThroughSlowPipe(
  args: string[],
  env: Record<string, string>,
  room: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const fifo = join(tempDir(), 'stdout');
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  const child = spawn('sh', ['-c', 'sleep 0.5; exec "$@"', 'sh', process.execPath, BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: tempDir(), ...env },
    stdio: ['ignore', writer, 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // O_NONBLOCK belongs to the open pipe, which the child shares: a pipe handle sets it.
  const nonBlocking = new Socket({ fd: writer, readable: false, writable: true });
  const page = Buffer.alloc(4096, '.');
  let filled = 0;
  for (;;) {
    try {
      filled += writeSync(writer, page);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      break;
    }
  }
  // A page taken back leaves `room` bytes: a longer write is cut there, or (room 0) refused with EAGAIN.
  const taken = room > 0 ? readSync(reader, Buffer.alloc(room)) : 0;
  nonBlocking.destroy();
  // The reader waits until the child has given up (a lost rest ends it at once) or 3 s have passed,
  // ample for it to start and find the pipe full, even on a loaded machine.
  await Promise.race([exited, sleep(3000)]);
  const chunks: Buffer[] = [];
  const input = new Socket({ fd: reader, readable: true, writable: false });
  input.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((resolve) => input.on('end', resolve));
  const code = await exited;
  const all = Buffer.concat(chunks);
  expect(all.subarray(0, filled - taken).every((b) => b === 0x2e)).toBe(true);
  return { code, stdout: all.subarray(filled - taken).toString('utf8'), stderr };
}

describe('help through a slow, non-blocking pipe', () => {
  // At once: each waits up to 3 s for its reader, on pipes of its own.
  it.concurrent.each([
    ["a verb's help cut short by a full pipe", ['help', 'environment'], { COLUMNS: '40' }, 4096],
    ["a noun's help into a pipe with no room", ['keys', '--help'], {}, 0],
    ['the root help of the launcher into a pipe with no room', ['--help'], {}, 0],
  ])(
    '%s arrives whole',
    async (_what, args, env, room) => {
      const unhurried = await runBin(args, { env });
      expect(unhurried.code).toBe(0);
      if (room > 0) expect(Buffer.byteLength(unhurried.stdout)).toBeGreaterThan(room);
      const slow = await helpThroughSlowPipe(args, env, room);
      expect([slow.code, slow.stderr]).toEqual([0, '']);
      expect(slow.stdout).toBe(unhurried.stdout);
    },
    30_000,
  );
});
