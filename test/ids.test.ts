// The ids wsctl remembers (cli.md §10): what is recorded, where, per workspace without crossing,
// forgotten on removal and on a 404, a broken cache that changes nothing, 60 concurrent writers,
// `wsctl ids`, and the missing-id usage error.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeIds, idsFile } from '../src/ids/store.js';
import { completions } from '../src/completion/answer.js';
import { countingServer } from './counting-server.js';
import { REPEAT_RUN, run, runBin, startSandbox, storm, strip, tempDir, type TestSandbox } from './helpers.js';

type Id = { kind: string; id: string; description: string; last_seen: string };

let one: TestSandbox;
let two: TestSandbox;
beforeAll(async () => {
  [one, two] = await Promise.all([startSandbox(), startSandbox()]);
});

/** A workspace's environment: its own config folder and cache folder, pointed at a sandbox server. */
function workspace(sandbox: TestSandbox, extra: Record<string, string> = {}) {
  const dir = tempDir();
  return {
    WSCTL_BASE_URL: sandbox.url,
    WSCTL_API_KEY: sandbox.key,
    WSCTL_CONFIG_DIR: join(dir, 'config'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    ...extra,
  };
}

async function ids(env: Record<string, string>, ...args: string[]): Promise<Id[]> {
  const r = await run(['ids', ...args, '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { ids: Id[] }).ids;
}

const pairs = (list: Id[]) => list.map((i) => `${i.kind} ${i.id}`);

describe('what is remembered', () => {
  it("caps: text numbers' conversations, connected apps (described by the account name) and their accounts", async () => {
    const env = workspace(one);
    expect((await run(['caps'], { env })).code).toBe(0);
    const list = await ids(env);
    expect(pairs(list)).toEqual(expect.arrayContaining(['app gmail', 'app notion', 'account alex@example.com']));
    expect(list.find((i) => i.id === 'gmail')?.description).toBe('Alex Morgan');
    for (const i of list) expect(Object.keys(i)).toEqual(['kind', 'id', 'description', 'last_seen']);
  });

  it('convo show: the conversation with its title, the personas of its messages; persona versions: the persona; most recent first', async () => {
    const env = workspace(one);
    expect((await run(['convo', 'show', 'conv_demo', '--no-pager'], { env })).code).toBe(0);
    expect((await ids(env, 'conversation')).map((i) => [i.id, i.description])).toEqual([['conv_demo', 'Plan the Lisbon team offsite']]);
    expect((await ids(env, 'persona')).map((i) => [i.id, i.description])).toEqual([['persona_demo', 'Ada']]);
    expect((await run(['convo', 'show', 'conv_demo', '--json'], { env })).code).toBe(0);
    expect((await run(['caps'], { env })).code).toBe(0);
    expect(pairs(await ids(env))).toEqual(expect.arrayContaining(['conversation conv_demo', 'persona persona_demo', 'app gmail']));
  });

  it('convo show: each persona once, the one of the latest message first, named as that message names it', async () => {
    const own = await startSandbox();
    const messages = own.state.conversations.conv_demo?.messages ?? [];
    expect(messages.length).toBeGreaterThanOrEqual(3);
    const named = (i: number, persona_id: string, persona_name: string) =>
      Object.assign(messages[i] as object, { persona_id, persona_name });
    for (let i = 0; i < messages.length; i++) named(i, 'persona_old', `Old ${i}`);
    named(0, 'persona_a', 'Ada (renamed since)');
    named(1, 'persona_b', 'Bea');
    named(messages.length - 1, 'persona_a', 'Ada');
    for (const args of [['--no-pager'], ['--json'], ['--jq', '.conversation.id']]) {
      const env = workspace(own);
      expect((await run(['convo', 'show', 'conv_demo', ...args], { env })).code).toBe(0);
      expect((await ids(env, 'persona')).map((i) => [i.id, i.description])).toEqual([
        ['persona_a', 'Ada'],
        ['persona_old', `Old ${messages.length - 2}`],
        ['persona_b', 'Bea'],
      ]);
    }
  });

  it('conn set-permission remembers the connection with its app; conn rm forgets it; a 404 forgets the id', async () => {
    // its own server: the connection is removed from it
    const own = await startSandbox();
    const env = workspace(own);
    expect((await run(['conn', 'set-permission', 'gmail', 'pdc_gmail', 'write'], { env })).code).toBe(0);
    expect(pairs(await ids(env, 'connection'))).toEqual(['connection pdc_gmail']);
    expect(completions(['ids', 'connection', '--', 'conn', 'rm', 'notion'], env)).toEqual([]);
    expect(completions(['ids', 'connection', '--', 'conn', 'rm', 'gmail'], env)).toEqual(['pdc_gmail\tgmail, write']);
    expect((await run(['conn', 'rm', 'gmail', 'pdc_gmail', '--yes'], { env })).code).toBe(0);
    expect(await ids(env, 'connection')).toEqual([]);

    expect((await run(['convo', 'show', 'conv_demo', '--no-pager'], { env })).code).toBe(0);
    const r = await run(['convo', 'show', 'conv_gone'], { env });
    expect(r.code).toBe(5);
    // conv_gone was never remembered (the command failed); remember it by hand, then the 404 forgets it
    const w = { configDir: env.WSCTL_CONFIG_DIR, sandbox: false, profile: 'default', baseUrl: own.url };
    await changeIds(join(env.XDG_CACHE_HOME, 'wsctl'), w, { seen: [{ kind: 'conversation', id: 'conv_gone' }] });
    expect(pairs(await ids(env, 'conversation'))).toEqual(['conversation conv_gone', 'conversation conv_demo']);
    expect((await run(['convo', 'show', 'conv_gone'], { env })).code).toBe(5);
    expect(pairs(await ids(env, 'conversation'))).toEqual(['conversation conv_demo']);
  });

  it('a dry run or a failed command remembers nothing; WSCTL_NO_HISTORY=1 turns it off; a bad value is exit 2', async () => {
    const env = workspace(one);
    expect((await run(['convo', 'show', 'conv_demo', '--dry-run'], { env })).code).toBe(0);
    expect(await ids(env)).toEqual([]);
    expect((await run(['caps'], { env: { ...env, WSCTL_NO_HISTORY: ' TRUE ' } })).code).toBe(0);
    expect(await ids(env)).toEqual([]);
    const bad = await run(['caps'], { env: { ...env, WSCTL_NO_HISTORY: 'maybe' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('WSCTL_NO_HISTORY');
  });

  it('one file per workspace, mode 0600, holding no key', async () => {
    const env = workspace(one);
    expect((await run(['caps'], { env })).code).toBe(0);
    const dir = join(env.XDG_CACHE_HOME, 'wsctl');
    const files = readdirSync(dir).filter((f) => f.startsWith('ids-'));
    expect(files).toHaveLength(1);
    const file = join(dir, files[0] as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(one.key);
    // nor a password written into a base URL
    const withPassword = {
      configDir: env.WSCTL_CONFIG_DIR,
      sandbox: false,
      profile: 'default',
      baseUrl: 'https://ada:s3cret@api.example.com/',
    };
    await changeIds(dir, withPassword, { seen: [{ kind: 'app', id: 'gmail' }] });
    expect(readFileSync(idsFile(dir, withPassword), 'utf8')).not.toContain('s3cret');
  });

  it('at most 200 of a kind: the least recently seen go first', async () => {
    const env = workspace(one);
    const w = { configDir: env.WSCTL_CONFIG_DIR, sandbox: false, profile: 'default', baseUrl: one.url };
    await changeIds(join(env.XDG_CACHE_HOME, 'wsctl'), w, {
      seen: Array.from({ length: 150 }, (_, i) => ({ kind: 'persona' as const, id: `p${i}` })),
    });
    await changeIds(join(env.XDG_CACHE_HOME, 'wsctl'), w, {
      seen: Array.from({ length: 100 }, (_, i) => ({ kind: 'persona' as const, id: `q${i}` })),
    });
    const list = await ids(env, 'persona');
    expect(list).toHaveLength(200);
    expect(list[0]?.id).toBe('q0');
    expect(list.at(-1)?.id).toBe('p99');
  });
});

describe('workspaces never cross', () => {
  it('two profiles, two base URLs, two config folders and the sandbox each keep their own ids', async () => {
    const base = workspace(one);
    expect((await run(['convo', 'show', 'conv_demo', '--no-pager', '--profile', 'a'], { env: base })).code).toBe(0);
    expect(pairs(await ids(base, '--profile', 'a'))).toContain('conversation conv_demo');
    const others: Record<string, string>[] = [
      { ...base, WSCTL_PROFILE: 'b' },
      { ...base, WSCTL_BASE_URL: two.url, WSCTL_API_KEY: two.key, WSCTL_PROFILE: 'a' },
      { ...base, WSCTL_CONFIG_DIR: tempDir(), WSCTL_PROFILE: 'a' },
      { ...base, WSCTL_SANDBOX: '1' },
    ];
    for (const env of others) {
      expect(await ids(env), JSON.stringify(env)).toEqual([]);
      expect(completions(['ids', 'conversation', '--'], env)).toEqual([]);
    }
    // The line's flags name the workspace for completion: --profile a, and --base-url of the first server.
    expect(completions(['ids', 'conversation', '--', '--profile', 'a', 'convo', 'show'], { ...base })).toEqual([
      'conv_demo\tPlan the Lisbon team offsite',
    ]);
    expect(completions(['ids', 'conversation', '--', '--profile=a', 'convo', 'show'], { ...base })).toEqual([
      'conv_demo\tPlan the Lisbon team offsite',
    ]);
    expect(completions(['ids', 'conversation', '--', '--profile', 'a', '--base-url', two.url, 'convo', 'show'], { ...base })).toEqual([]);
    expect(completions(['ids', 'conversation', '--', '--profile', 'a', '--sandbox', 'convo', 'show'], { ...base })).toEqual([]);
    // The sandbox's own ids stay its own.
    const sandbox = { ...base, WSCTL_SANDBOX: '1' };
    expect((await run(['persona', 'versions', 'persona_demo'], { env: sandbox })).code).toBe(0);
    expect(pairs(await ids(sandbox))).toEqual(['persona persona_demo']);
    expect(completions(['ids', 'persona', '--', '--sandbox'], base)).toEqual(['persona_demo']);
  });
});

describe('a cache folder that cannot be used', () => {
  const broken = (): [string, (env: Record<string, string>) => void][] => [
    // under a regular file (root ignores a read-only mode, never ENOTDIR)
    ['read-only (under a file)', (env) => writeFileSync(join(env.XDG_CACHE_HOME), 'a file')],
    ['missing', () => {}],
    [
      'a file in its place',
      (env) => {
        mkdirSync(env.XDG_CACHE_HOME, { recursive: true });
        writeFileSync(join(env.XDG_CACHE_HOME, 'wsctl'), 'not a folder');
      },
    ],
  ];

  it('commands still work and say nothing; completion offers nothing', async () => {
    for (const [name, make] of broken()) {
      const env = workspace(one);
      make(env);
      const r = await run(['convo', 'show', 'conv_demo', '--no-pager'], { env });
      expect(r.code, name).toBe(0);
      expect(r.stderr, name).toBe('');
      expect(completions(['ids', 'conversation', '--'], env), name).toEqual(
        name === 'missing' ? ['conv_demo\tPlan the Lisbon team offsite'] : [],
      );
      const debug = await run(['caps', '--debug'], { env });
      expect(debug.code).toBe(0);
      if (name !== 'missing') expect(debug.stderr).toMatch(/ids: not remembered \((ENOTDIR|EEXIST|EACCES)/);
    }
  });

  it('a corrupt file is read as empty and replaced by the next command', async () => {
    const env = workspace(one);
    expect((await run(['caps'], { env })).code).toBe(0);
    const dir = join(env.XDG_CACHE_HOME, 'wsctl');
    const file = join(dir, readdirSync(dir).find((f) => f.startsWith('ids-') && f.endsWith('.json')) as string);
    for (const text of ['{"format": 1, "workspace": ', '[]', '{"format": 1, "workspace": {"x": 1}, "ids": {}}', '\u0000\u0001']) {
      writeFileSync(file, text);
      expect(completions(['ids', 'app', '--'], env)).toEqual([]);
      expect(await ids(env)).toEqual([]);
      const r = await run(['convo', 'show', 'conv_demo', '--no-pager'], { env });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
    }
    expect(pairs(await ids(env))).toContain('conversation conv_demo');
    expect(file).toBe(
      idsFile(join(env.XDG_CACHE_HOME, 'wsctl'), { configDir: env.WSCTL_CONFIG_DIR, sandbox: false, profile: 'default', baseUrl: one.url }),
    );
  });
});

describe('concurrent commands', () => {
  it('60 commands recording ids at once lose none', async () => {
    const server = await countingServer();
    try {
      const dir = tempDir();
      const env = {
        WSCTL_BASE_URL: server.url,
        WSCTL_API_KEY: 'wsk_test_123',
        WSCTL_CONFIG_DIR: join(dir, 'config'),
        XDG_CACHE_HOME: join(dir, 'cache'),
        HOME: dir,
      };
      const count = REPEAT_RUN ? 20 : 60;
      const names = Array.from({ length: count }, (_, i) => `persona_${i}`);
      const results = await storm(() => Promise.all(names.map((p) => runBin(['persona', 'versions', p], { env, timeoutMs: 90_000 }))));
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      const list = await ids(env, 'persona');
      expect(list.map((i) => i.id).sort()).toEqual([...names].sort());
      expect(readdirSync(join(dir, 'cache', 'wsctl')).filter((f) => f.startsWith('ids-'))).toHaveLength(1);
    } finally {
      server.close();
    }
  }, 180_000);
});

describe('wsctl ids', () => {
  it('lists a kind, forgets one id, a kind, or everything; a bad kind is exit 2', async () => {
    const env = workspace(one);
    expect((await run(['caps'], { env })).code).toBe(0);
    expect((await run(['convo', 'show', 'conv_demo', '--no-pager'], { env })).code).toBe(0);
    const piped = await run(['ids', 'app'], { env });
    expect(
      piped.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t').slice(0, 3)),
    ).toEqual([
      ['app', 'gmail', 'Alex Morgan'],
      ['app', 'notion', 'Morgan Studio'],
    ]);
    const tty = await run(['ids'], { env, tty: true, columns: 100 });
    expect(strip(tty.stdout)).toMatch(/KIND +ID +DESCRIPTION +LAST SEEN/);
    expect((await run(['ids', 'forget', 'app', 'gmail'], { env })).code).toBe(0);
    expect(pairs(await ids(env, 'app'))).toEqual(['app notion']);
    expect((await run(['ids', 'forget', 'app'], { env })).code).toBe(0);
    expect(await ids(env, 'app')).toEqual([]);
    expect((await ids(env)).length).toBeGreaterThan(0);
    const all = await run(['ids', 'forget', '--json'], { env });
    expect(JSON.parse(all.stdout).forgotten).toBeGreaterThan(0);
    expect(await ids(env)).toEqual([]);
    const bad = await run(['ids', 'conversations'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('conversation, persona, app, connection, account');
  });
});

describe('a missing id', () => {
  it('off a terminal, or with --no-input, is a usage error that says where such ids come from', async () => {
    const env = workspace(one);
    expect((await run(['caps'], { env })).code).toBe(0);
    const piped = await run(['convo', 'show'], { env });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('`wsctl caps` shows conversation ids');
    const noInput = await run(['conn', 'rm', 'gmail', '--no-input'], { env, tty: true, stdinTTY: true });
    expect(noInput.code).toBe(2);
    expect(noInput.stderr).toContain('wsctl ids connection');
    const persona = await run(['persona', 'versions'], { env, tty: true, stdinTTY: true });
    // nothing remembered of that kind: no list, the usage error
    expect(persona.code).toBe(2);
    expect(persona.stderr.replace(/\s+/g, ' ')).toContain('persona ids');
    expect((await runBin(['convo', 'show', '--help'])).stdout).toContain('wsctl convo show [options] <conversation_id>');
  });
});
