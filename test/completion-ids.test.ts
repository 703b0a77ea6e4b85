// TAB offers the ids wsctl remembers (cli.md §10), pressed in real bash, zsh and fish on a tmux
// pseudo-terminal: the workspace the line names, a connection's app, descriptions where the shell
// shows them, no request sent, nothing unsafe offered, a broken cache offering nothing, and
// `wsctl help <TAB>`. The path that answers a TAB loads nothing of the commands.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeIds } from '../src/ids/store.js';
import { BIN, ROOT, tempDir } from './helpers.js';
import { countingServer } from './counting-server.js';
import { Terminal } from './terminal.js';

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const needs = (...tools: string[]) => (tools.every(has) || process.env.CI ? it : it.skip);

let env: Record<string, string>;
let server: Awaited<ReturnType<typeof countingServer>>;
let otherUrl: string;
/** A folder pinned to profile proj (not the current one), and one below it. */
let pinned: string;
/** A folder whose pin is a symbolic link to a one-line file outside it. */
let linked: string;

beforeAll(async () => {
  server = await countingServer();
  otherUrl = 'http://127.0.0.1:9';
  const dir = tempDir();
  mkdirSync(join(dir, 'bin'));
  symlinkSync(BIN, join(dir, 'bin', 'wsctl'));
  const config = join(dir, 'config');
  mkdirSync(config, { mode: 0o700 });
  writeFileSync(
    join(config, 'config.json'),
    JSON.stringify({
      current_profile: 'work',
      profiles: { work: { base_url: server.url }, home: { base_url: server.url }, proj: { base_url: server.url } },
    }),
  );
  pinned = join(dir, 'project', 'src');
  mkdirSync(pinned, { recursive: true });
  writeFileSync(join(dir, 'project', '.wsctl-profile'), 'proj\n');
  linked = join(dir, 'cloned');
  mkdirSync(linked);
  writeFileSync(join(dir, 'secret'), 'proj\n');
  symlinkSync('../secret', join(linked, '.wsctl-profile'));
  env = {
    PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
    HOME: dir,
    WSCTL_CONFIG_DIR: config,
    XDG_CACHE_HOME: join(dir, 'cache'),
    TERM: 'xterm',
  };
  const cache = join(dir, 'cache', 'wsctl');
  const work = { configDir: config, sandbox: false, profile: 'work', baseUrl: server.url };
  // Seen in this order: conv_old first, so conv_new is the most recent.
  await changeIds(cache, work, { seen: [{ kind: 'conversation', id: 'conv_old', description: 'Older talk' }] });
  await changeIds(cache, work, {
    seen: [
      { kind: 'conversation', id: 'conv_new', description: 'Newest \x1b[31mred\x1b[0m talk' },
      { kind: 'conversation', id: 'conv_$(touch pwned)', description: 'unsafe' },
      { kind: 'conversation', id: 'conv\x1b[2Jbad', description: 'unsafe' },
      { kind: 'connection', id: 'pdc_gmail_1', app: 'gmail', description: 'gmail, write' },
      { kind: 'connection', id: 'pdc_notion_1', app: 'notion', description: 'notion, read' },
      { kind: 'account', id: 'alex@example.com', description: 'gmail: Alex' },
    ],
  });
  await changeIds(cache, { ...work, profile: 'home' }, { seen: [{ kind: 'conversation', id: 'conv_home', description: 'At home' }] });
  await changeIds(cache, { ...work, baseUrl: otherUrl }, { seen: [{ kind: 'conversation', id: 'conv_elsewhere' }] });
  // An id starting with '-' would be read as an option by the command it completes.
  await changeIds(
    cache,
    { ...work, profile: 'proj' },
    {
      seen: [
        { kind: 'conversation', id: 'conv_proj_a', description: 'Project A' },
        { kind: 'conversation', id: '-rf', description: 'dash' },
        { kind: 'conversation', id: '--help', description: 'dashes' },
        { kind: 'conversation', id: 'conv_proj_b', description: 'Project B' },
      ],
    },
  );
  await changeIds(
    cache,
    { configDir: config, sandbox: true, profile: 'sandbox' },
    { seen: [{ kind: 'conversation', id: 'conv_sandboxed' }] },
  );
});

/** Clears the screen, types a line and presses TAB once (bash lists at once with show-all-if-ambiguous); the screen once it matches. */
async function tab(term: Terminal, line: string, expected: RegExp): Promise<string> {
  term.send('C-u', 'clear', 'Enter');
  await term.waitFor(/^[$%>] *$/m);
  term.send('-l', line);
  term.send('Tab');
  return term.waitFor(expected);
}

/**
 * A screen that shows every one of these: the whole list of candidates is drawn, so what must not be
 * among them can be looked for (a screen drawn halfway would pass any such check).
 */
function showsAll(...parts: (string | RegExp)[]): RegExp {
  const text = (p: string | RegExp) => (typeof p === 'string' ? p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : p.source);
  return new RegExp(`^${parts.map((p) => `(?=[\\s\\S]*${text(p)})`).join('')}`);
}

function shell(name: 'bash' | 'zsh' | 'fish', cols = 160): Terminal {
  if (name === 'bash') {
    const term = new Terminal(env, ['bash', '--norc', '--noprofile'], { cols, rows: 40 });
    term.send(`source ${join(ROOT, 'completions', 'wsctl.bash')}; bind 'set show-all-if-ambiguous on'; PS1='$ '`, 'Enter');
    return term;
  }
  if (name === 'zsh') {
    const term = new Terminal(env, ['zsh', '-f'], { cols, rows: 40 });
    term.send(
      `fpath=(${join(ROOT, 'completions')} $fpath); autoload -U compinit; compinit -u; unsetopt list_ambiguous; PS1='%% '`,
      'Enter',
    );
    return term;
  }
  const term = new Terminal({ ...env, XDG_CONFIG_HOME: join(env.HOME, 'fishconfig') }, ['fish', '--no-config'], { cols, rows: 40 });
  term.send(`source ${join(ROOT, 'completions', 'wsctl.fish')}; function fish_prompt; echo '> '; end`, 'Enter');
  return term;
}

describe.each(['bash', 'zsh', 'fish'] as const)('%s', (name) => {
  needs(name, 'tmux')(
    'TAB offers the ids of the workspace on the line, most recent first, and sends no request',
    async () => {
      const term = shell(name);
      try {
        const before = server.requests.length;
        let screen = await tab(term, 'wsctl convo show ', showsAll('conv_new', 'conv_old', ...(name === 'bash' ? [] : ['Older talk'])));
        expect(screen.indexOf('conv_new')).toBeLessThan(screen.indexOf('conv_old'));
        if (name !== 'bash') expect(screen).toContain('Older talk');
        // unsafe ids are never offered; a description's escape sequence never reaches the terminal
        expect(screen).not.toMatch(/pwned|bad/);
        expect(term.screen(true)).not.toContain('\x1b[31mred');
        for (const line of [
          ['wsctl --profile home convo show ', /conv_home/],
          ['wsctl --profile=home convo show ', /conv_home/],
          [`wsctl --base-url ${otherUrl} convo show `, /conv_elsewhere/],
          ['wsctl --sandbox convo show ', /conv_sandboxed/],
          ['wsctl conn rm gmail ', /pdc_gmail_1/],
          ['wsctl notes import page --account ', /alex@example\.com/],
          ['wsctl help ', /environment/],
        ] as const) {
          screen = await tab(term, line[0], line[1]);
          if (line[0].includes('home')) expect(screen).not.toContain('conv_new');
          if (line[0].includes('conn rm')) expect(screen).not.toContain('pdc_notion_1');
        }
        screen = await tab(term, 'wsctl help ', showsAll('environment', 'convo'));
        expect(server.requests.length).toBe(before);
      } finally {
        term.close();
      }
    },
    60_000,
  );

  needs(name, 'tmux')(
    "in a pinned folder TAB offers the pinned profile's ids, not the current profile's, and none starting with '-'",
    async () => {
      const term = shell(name);
      // fish may show the candidates with their common prefix cut (…oj_a): only their ends are looked for.
      try {
        // Named on the line, anywhere: an id starting with '-' is never among them.
        let screen = await tab(term, 'wsctl --profile proj convo show ', showsAll('proj_a', 'proj_b'));
        expect(screen).not.toMatch(/-rf|--help|dash/);
        // Chosen by the pin of the folder the shell is in.
        term.send('C-u');
        term.send(`cd ${pinned}`, 'Enter');
        screen = await tab(term, 'wsctl convo show ', showsAll('proj_a', 'proj_b'));
        expect(screen).not.toMatch(/_new|_old|-rf|--help|dash/);
        // The line's --profile comes before the pin.
        screen = await tab(term, 'wsctl --profile home convo show ', /conv_home/);
        expect(screen).not.toContain('conv_proj');
      } finally {
        term.close();
      }
    },
    60_000,
  );
});

describe('the workspace a TAB completes for', () => {
  const complete = (cwd: string, extra: Record<string, string> = {}, line = ['convo', 'show']) =>
    spawnSync(process.execPath, [BIN, '__complete', 'ids', 'conversation', '--', ...line], {
      env: { ...env, ...extra },
      cwd,
      encoding: 'utf8',
    });

  it('is the pinned profile below a pin; WSCTL_PROFILE and --profile come first; no id starts with -', () => {
    expect(complete(tempDir(), {}, ['--profile', 'proj', 'convo', 'show']).stdout).toBe('conv_proj_a\tProject A\nconv_proj_b\tProject B\n');
    const r = complete(pinned);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('conv_proj_a\tProject A\nconv_proj_b\tProject B\n');
    expect(complete(pinned, { WSCTL_PROFILE: 'home' }).stdout).toBe('conv_home\tAt home\n');
    expect(complete(pinned, {}, ['--profile', 'home', 'convo', 'show']).stdout).toBe('conv_home\tAt home\n');
  });

  it('is none at all below a bad pin (a link, even to a profile name; an unknown name): no candidate, no message', () => {
    const r = complete(linked);
    expect(r.status).toBe(0);
    expect(r.stdout + r.stderr).toBe('');
    const unknown = join(tempDir(), 'unknown');
    mkdirSync(unknown);
    writeFileSync(join(unknown, '.wsctl-profile'), 's.Xy7Qtoken\n');
    const u = complete(unknown);
    expect(u.status).toBe(0);
    expect(u.stdout + u.stderr).toBe('');
  });
});

describe('a broken cache', () => {
  it('offers nothing and says nothing', () => {
    for (const cache of ['under-a-file', 'corrupt', 'a-file']) {
      const dir = tempDir();
      let xdg = join(dir, 'cache');
      if (cache === 'under-a-file') {
        writeFileSync(xdg, 'x');
        xdg = join(xdg, 'deeper');
      } else if (cache === 'a-file') {
        mkdirSync(xdg);
        writeFileSync(join(xdg, 'wsctl'), 'x');
      } else {
        mkdirSync(join(xdg, 'wsctl'), { recursive: true });
        // every file it could be: one that does not parse
        for (let i = 0; i < 3; i++) writeFileSync(join(xdg, 'wsctl', `ids-${i}.json`), '{');
      }
      const r = spawnSync(process.execPath, [BIN, '__complete', 'ids', 'conversation', '--', 'convo', 'show'], {
        env: { ...env, XDG_CACHE_HOME: xdg },
        encoding: 'utf8',
      });
      expect(r.status, cache).toBe(0);
      expect(r.stdout + r.stderr, cache).toBe('');
    }
  });
});

describe('the path that answers a TAB', () => {
  it('bundles nothing of the commands: no commander, HTTP client, credential store, zod, jq or spinner', () => {
    const inputs = JSON.parse(readFileSync(join(ROOT, 'build', 'inputs.json'), 'utf8'))['complete.cjs'] as string[];
    expect(inputs.length).toBeGreaterThan(0);
    for (const input of inputs) expect(input).not.toMatch(/commander|undici|keyring|zod|jq|ora|chalk|src\/http|src\/commands|src\/app/);
  });

  it('bin/wsctl answers it without loading the program', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--trace-warnings',
        '-e',
        `process.argv = [process.argv[0], ${JSON.stringify(BIN)}, '__complete', 'profiles']; require(${JSON.stringify(BIN)}); process.on('exit', () => process.stderr.write([...Object.keys(require.cache), ...process.moduleLoadList].join('\\n')))`,
      ],
      { env, encoding: 'utf8' },
    );
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(['home', 'proj', 'work']);
    expect(r.stderr).toContain('complete.cjs');
    // node:vm compiles the program (src/boot/code-cache.ts).
    expect(r.stderr).not.toContain('NativeModule vm');
  });
});
