// wsctl mcp config, install and uninstall where a person must be able to trust what they wrote, for
// each of the nine clients, through the built bin/wsctl: an agent cannot widen its own server, a
// pinned folder's profile goes into the entry, a profile that does not exist writes nothing, a
// FIFO, a device or a huge file is refused unread, a replaced entry is named, the way back is the
// exact command line, an empty file is filled, Zed gets its `"source": "custom"`, and a symbolic
// link is written through with the real file named.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import { describe, expect, it } from 'vitest';
import { BIN, run, runBin, tempDir } from '../helpers.js';

const SCRIPT = realpathSync(BIN);
const CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'zed', 'codex', 'gemini-cli', 'opencode'] as const;
type Client = (typeof CLIENTS)[number];
const KEY: Record<Client, string> = {
  'claude-desktop': 'mcpServers',
  'claude-code': 'mcpServers',
  cursor: 'mcpServers',
  vscode: 'servers',
  windsurf: 'mcpServers',
  zed: 'context_servers',
  codex: 'mcp_servers',
  'gemini-cli': 'mcpServers',
  opencode: 'mcp',
};
const LABEL: Record<Client, string> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  windsurf: 'Windsurf',
  zed: 'Zed',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  opencode: 'OpenCode',
};
/** A kill timeout for each run: a run that waits for ever (on a FIFO) ends as a failure, not a hung suite. */
const KILL_MS = 15_000;

/** What the client's file holds for wsctl's entry, beside command, args and env. */
function shaped(client: Client, entry: Record<string, unknown>): Record<string, unknown> {
  if (client === 'vscode') return { type: 'stdio', ...entry };
  if (client === 'zed') return { source: 'custom', ...entry };
  if (client === 'opencode') {
    const { command, args, env } = entry as { command: string; args: string[]; env?: unknown };
    return { type: 'local', command: [command, ...args], enabled: true, ...(env ? { environment: env } : {}) };
  }
  return entry;
}

/** The args an entry of the client's file gives the command (OpenCode's are the rest of its one array). */
function argsOf(client: Client, wsctl: Record<string, unknown>): unknown {
  return client === 'opencode' ? (wsctl.command as string[]).slice(1) : wsctl.args;
}

/** The whole file as its client reads it: TOML for Codex, JSON with comments for the others. */
function readDoc(client: Client, text: string): Record<string, Record<string, Record<string, unknown>>> {
  return client === 'codex' ? (getStaticTOMLValue(parseTOML(text)) as unknown as ReturnType<typeof readDoc>) : parse(text);
}

function toml(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toml).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${k} = ${toml(v)}`)
      .join(', ')} }`;
  return JSON.stringify(value);
}

/** A config file of the client's shape with another server and a comment. */
function fileText(client: Client, wsctl?: Record<string, unknown>): string {
  const servers: Record<string, unknown> = { other: shaped(client, { command: 'other-mcp', args: [] }) };
  if (wsctl) servers.wsctl = wsctl;
  if (client === 'codex')
    return `# mine\nmodel = "o3"\n${Object.entries(servers)
      .map(
        ([name, entry]) =>
          `\n[mcp_servers.${name}]\n${Object.entries(entry as object)
            .map(([k, v]) => `${k} = ${toml(v)}\n`)
            .join('')}`,
      )
      .join('')}`;
  return `// mine\n${JSON.stringify({ [KEY[client]]: servers }, null, 2)}\n`;
}

function folder() {
  const dir = tempDir();
  const env = { HOME: tempDir(), WSCTL_CONFIG_DIR: join(tempDir(), 'wsctl') };
  return { dir, env };
}

const bin = (args: string[], env: Record<string, string>, cwd?: string) => runBin(args, { env, cwd, timeoutMs: KILL_MS });

describe('under an AI agent', () => {
  it.each(CLIENTS)(
    '%s: install refuses --no-confirm, --allow-destructive, --show-secrets and --upload-dir (exit 4, file byte-identical, no .bak), and names the line a person runs',
    async (client) => {
      const { dir, env } = folder();
      const file = join(dir, 'mcp.json');
      const text = fileText(client);
      writeFileSync(file, text);
      const agent = { ...env, CLAUDECODE: '1' };
      for (const [flags, line] of [
        [['--no-confirm'], '--no-confirm'],
        [['--allow-destructive'], '--allow-destructive'],
        [['--show-secrets'], '--show-secrets'],
        [['--upload-dir', join(dir, 'up')], `--upload-dir ${join(dir, 'up')}`],
      ] as const) {
        const r = await bin(['mcp', 'install', '--client', client, '--config', file, '--sandbox', ...flags], agent);
        expect([r.code, r.stdout], flags[0]).toEqual([4, '']);
        expect(r.stderr).toBe(
          `Error: An AI agent (claude-code) may not install an MCP entry with ${flags[0]}: it gives the agent more than a person's default. ` +
            `Nothing was written; a person can run: wsctl mcp install --client ${client} --config ${file} --sandbox ${line}\n`,
        );
        expect(readFileSync(file, 'utf8')).toBe(text);
        expect(readdirSync(dir).sort()).toEqual(['mcp.json']);
      }
      // The same for a file that does not exist yet: it is not made, and neither is its folder.
      const missing = join(dir, 'new', 'mcp.json');
      const m = await bin(['mcp', 'install', '--client', client, '--config', missing, '--sandbox', '--no-confirm'], {
        ...env,
        WSCTL_AGENT: 'cursor',
      });
      expect(m.code).toBe(4);
      expect(existsSync(join(dir, 'new'))).toBe(false);
    },
    60_000,
  );

  it('an entry that gives no more than the default is installed, and a person (WSCTL_AGENT=0) may widen it', async () => {
    const { dir, env } = folder();
    const file = join(dir, 'mcp.json');
    const narrow = await bin(['mcp', 'install', '--client', 'cursor', '--config', file, '--sandbox', '--read-only', '--json'], {
      ...env,
      CLAUDECODE: '1',
    });
    expect([narrow.code, narrow.stderr]).toEqual([0, '']);
    const person = await bin(['mcp', 'install', '--client', 'cursor', '--config', file, '--sandbox', '--no-confirm', '--json'], {
      ...env,
      CLAUDECODE: '1',
      WSCTL_AGENT: '0',
    });
    expect([person.code, person.stderr]).toEqual([0, '']);
    expect(parse(readFileSync(file, 'utf8')).mcpServers.wsctl.args).toEqual([SCRIPT, 'mcp', '--sandbox', '--no-confirm']);
  }, 60_000);
});

describe('the profile in the entry', () => {
  async function pinned() {
    const { dir, env } = folder();
    const login = await run(
      ['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'work', '--base-url', 'https://api.example.com'],
      { env, stdin: 'wsk_0123456789abcdef\n' },
    );
    expect(login.code, login.stderr).toBe(0);
    const project = join(dir, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, '.wsctl-profile'), 'work\n');
    return { dir, env, cwd: join(project, 'src') };
  }

  it.each(CLIENTS)(
    '%s: in a pinned folder, config and install add --profile <pinned>',
    async (client) => {
      const { dir, env, cwd } = await pinned();
      const c = await bin(['mcp', 'config', '--client', client, '--read-only'], env, cwd);
      expect([c.code, c.stderr]).toEqual([0, '']);
      const entry = {
        command: process.execPath,
        args: [SCRIPT, 'mcp', '--profile', 'work', '--read-only'],
        env: { WSCTL_CONFIG_DIR: env.WSCTL_CONFIG_DIR },
      };
      expect(readDoc(client, c.stdout)).toEqual({ [KEY[client]]: { wsctl: shaped(client, entry) } });
      const file = join(dir, 'client.json');
      const i = await bin(['mcp', 'install', '--client', client, '--config', file, '--read-only', '--json'], env, cwd);
      expect([i.code, i.stderr]).toEqual([0, '']);
      expect(JSON.parse(i.stdout).args).toEqual(entry.args);
      expect(readDoc(client, readFileSync(file, 'utf8'))[KEY[client]].wsctl).toEqual(shaped(client, entry));
      // Outside the pinned folder nothing is added.
      const outside = await bin(['mcp', 'config', '--client', client], env, dir);
      expect(argsOf(client, readDoc(client, outside.stdout)[KEY[client]].wsctl)).toEqual([SCRIPT, 'mcp']);
    },
    60_000,
  );

  it.each(CLIENTS)(
    '%s: a --profile (or WSCTL_PROFILE) that names no profile is exit 2, and nothing is written',
    async (client) => {
      const { dir, env } = folder();
      const existing = join(dir, 'mcp.json');
      const text = fileText(client);
      writeFileSync(existing, text);
      const missing = join(dir, 'new', 'mcp.json');
      const said = "Error: No profile 'nosuch'. There are no profiles yet. Create one with `wsctl auth login --profile nosuch`.\n";
      for (const [args, extra] of [
        [['mcp', 'install', '--client', client, '--config', existing, '--profile', 'nosuch'], {}],
        [['mcp', 'install', '--client', client, '--config', missing, '--profile', 'nosuch'], {}],
        [['mcp', 'install', '--client', client, '--config', missing], { WSCTL_PROFILE: 'nosuch' }],
        [['mcp', 'config', '--client', client, '--profile', 'nosuch'], {}],
      ] as const) {
        const r = await bin([...args], { ...env, ...extra });
        expect([r.code, r.stdout, r.stderr], args.join(' ')).toEqual([2, '', said]);
      }
      expect(readFileSync(existing, 'utf8')).toBe(text);
      expect(readdirSync(dir)).toEqual(['mcp.json']);
    },
    60_000,
  );
});

describe('a --config that is not a config file', () => {
  it.each(CLIENTS)(
    '%s: a FIFO, /dev/zero and an 11 MiB file are exit 1 at once, unread and untouched',
    async (client) => {
      const { dir, env } = folder();
      const fifo = join(dir, 'fifo.json');
      execFileSync('mkfifo', [fifo]);
      const big = join(dir, 'big.json');
      writeFileSync(big, `{"${KEY[client]}": {}, "pad": "${'x'.repeat(11 * 1024 * 1024)}"}\n`);
      const bigBefore = statSync(big);
      const link = join(dir, 'link.json');
      symlinkSync(fifo, link);
      for (const [file, what] of [
        [fifo, 'it is a FIFO, not a config file'],
        [link, 'it is a FIFO, not a config file'],
        ['/dev/zero', 'it is a device, not a config file'],
        [big, `it is larger than 10 MiB (${bigBefore.size} bytes), more than a config file holds`],
      ] as const) {
        for (const verb of ['install', 'uninstall']) {
          const r = await bin(['mcp', verb, '--client', client, '--config', file, ...(verb === 'install' ? ['--sandbox'] : [])], env);
          expect([r.code, r.stdout, r.stderr], `${verb} ${file}`).toEqual([
            1,
            '',
            `Error: Cannot use ${file}: ${what}. Nothing was changed.\n`,
          ]);
        }
      }
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(statSync(big)).toMatchObject({ size: bigBefore.size, mtimeMs: bigBefore.mtimeMs, ino: bigBefore.ino });
      expect(readdirSync(dir).sort()).toEqual(['big.json', 'fifo.json', 'link.json']);
    },
    120_000,
  );
});

describe('what install says', () => {
  it.each(CLIENTS)(
    '%s: replacing a different wsctl entry names its old command line',
    async (client) => {
      const { dir, env } = folder();
      const file = join(dir, 'mcp.json');
      const old = shaped(client, { command: '/opt/old/node', args: ['/opt/old/wsctl', 'mcp', '--profile', "it's old"] });
      writeFileSync(file, fileText(client, old));
      const dry = await bin(['mcp', 'install', '--client', client, '--config', file, '--sandbox', '--dry-run', '--json'], env);
      expect(JSON.parse(dry.stdout).replaced).toBe("/opt/old/node /opt/old/wsctl mcp --profile 'it'\\''s old'");
      const r = await bin(['mcp', 'install', '--client', client, '--config', file, '--sandbox'], env);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout.split('\n')[1]).toBe(
        "It replaces the wsctl entry that ran: /opt/old/node /opt/old/wsctl mcp --profile 'it'\\''s old'",
      );
      // The same entry again replaces nothing, and says nothing of it.
      const again = await bin(['mcp', 'install', '--client', client, '--config', file, '--sandbox', '--json'], env);
      expect(JSON.parse(again.stdout)).toMatchObject({ changed: false, replaced: null });
      expect(again.stdout).not.toContain('replaces');
    },
    60_000,
  );

  it.each(CLIENTS)(
    '%s: after --config the way back is the exact command line, and it works as printed',
    async (client) => {
      const { dir, env } = folder();
      const sub = join(dir, "Client's settings");
      mkdirSync(sub);
      const file = join(sub, 'mcp.json');
      const text = fileText(client);
      writeFileSync(file, text);
      const r = await bin(['mcp', 'install', '--client', client, '--config', file, '--sandbox'], env);
      expect([r.code, r.stderr]).toEqual([0, '']);
      const quoted = `'${file.replace(/'/g, `'\\''`)}'`;
      const way = `wsctl mcp uninstall --client ${client} --config ${quoted}`;
      expect(r.stdout).toMatch(
        new RegExp(`^The server offers \\d+ tools\\. Restart ${LABEL[client]} to load it; \`${regexText(way)}\` removes it\\.$`, 'm'),
      );
      // As a person pastes it into a shell, from another folder, with wsctl on PATH.
      const links = tempDir();
      symlinkSync(BIN, join(links, 'wsctl'));
      const back = spawnSync('sh', ['-c', way], {
        cwd: tempDir(),
        env: { PATH: `${links}:${process.env.PATH}`, ...env },
        encoding: 'utf8',
      });
      expect([back.status, back.stderr]).toEqual([0, '']);
      expect(readFileSync(file, 'utf8')).toBe(text);
      // Without --config, the hint names none.
      const usual = await bin(['mcp', 'install', '--client', client, '--sandbox'], env);
      expect(usual.stdout).toContain(`; \`wsctl mcp uninstall --client ${client}\` removes it.`);
    },
    60_000,
  );

  it.each(CLIENTS)(
    '%s: an empty or blank file is filled as a missing one would be, keeping its mode',
    async (client) => {
      const { dir, env } = folder();
      const file = join(dir, 'mcp.json');
      const blank = CLIENTS.indexOf(client) % 2 === 0 ? '' : ' \n\t\n';
      writeFileSync(file, blank);
      chmodSync(file, 0o600);
      const r = await bin(['mcp', 'install', '--client', client, '--config', file, '--sandbox', '--json'], env);
      expect([r.code, r.stderr]).toEqual([0, '']);
      const entry = { command: process.execPath, args: [SCRIPT, 'mcp', '--sandbox'], env: { WSCTL_CONFIG_DIR: env.WSCTL_CONFIG_DIR } };
      expect(readDoc(client, readFileSync(file, 'utf8'))).toEqual({ [KEY[client]]: { wsctl: shaped(client, entry) } });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(`${file}.bak`, 'utf8')).toBe(blank);
      const u = await bin(['mcp', 'uninstall', '--client', client, '--config', file], env);
      expect(u.code).toBe(0);
      // A TOML table taken out leaves nothing of it; a JSON object, its empty parent.
      expect(readDoc(client, readFileSync(file, 'utf8'))).toEqual(client === 'codex' ? {} : { [KEY[client]]: {} });
    },
    60_000,
  );

  it.each(CLIENTS)(
    '%s: a symbolic link is written through, and the output names the file written',
    async (client) => {
      const { dir, env } = folder();
      mkdirSync(join(dir, 'dotfiles'));
      const real = join(dir, 'dotfiles', 'mcp.json');
      writeFileSync(real, fileText(client));
      const link = join(dir, 'mcp.json');
      symlinkSync(real, link);
      const r = await bin(['mcp', 'install', '--client', client, '--config', link, '--sandbox'], env);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout.split('\n')[0]).toBe(
        `Installed wsctl's MCP server for ${LABEL[client]} in ${real} (through the symbolic link ${link}) (the previous file is kept in ${real}.bak).`,
      );
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(argsOf(client, readDoc(client, readFileSync(real, 'utf8'))[KEY[client]].wsctl)).toEqual([SCRIPT, 'mcp', '--sandbox']);
      const json = await bin(['mcp', 'install', '--client', client, '--config', link, '--sandbox', '--read-only', '--json'], env);
      expect(JSON.parse(json.stdout)).toMatchObject({ file: link, written: real, backup: `${real}.bak` });
      const u = await bin(['mcp', 'uninstall', '--client', client, '--config', link], env);
      expect(u.stdout).toBe(
        `Removed wsctl's MCP server from ${real} (through the symbolic link ${link}) (the previous file is kept in ${real}.bak). Restart ${LABEL[client]} to unload it.\n`,
      );
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
    },
    60_000,
  );
});

describe('Zed', () => {
  it('config and install give the entry `"source": "custom"` first, as Zed documents', async () => {
    const { dir, env } = folder();
    const c = await bin(['mcp', 'config', '--client', 'zed', '--sandbox'], env);
    const printed = JSON.parse(c.stdout).context_servers.wsctl;
    expect(Object.keys(printed)).toEqual(['source', 'command', 'args', 'env']);
    expect(printed.source).toBe('custom');
    const file = join(dir, 'settings.json');
    const i = await bin(['mcp', 'install', '--client', 'zed', '--config', file, '--sandbox'], env);
    expect(i.code).toBe(0);
    expect(parse(readFileSync(file, 'utf8')).context_servers.wsctl).toEqual(printed);
    // An entry an earlier wsctl wrote, without it, is brought up to date.
    const { source: _source, ...without } = printed;
    writeFileSync(file, `${JSON.stringify({ context_servers: { wsctl: without } })}\n`);
    const again = await bin(['mcp', 'install', '--client', 'zed', '--config', file, '--sandbox', '--json'], env);
    // The same command line: nothing is said to be replaced.
    expect(JSON.parse(again.stdout)).toMatchObject({ changed: true, replaced: null });
    expect(parse(readFileSync(file, 'utf8')).context_servers.wsctl.source).toBe('custom');
  }, 60_000);
});

function regexText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the secrets of the entry it replaces', () => {
  // A key in the args (a NAME=value word, a secret-named flag's value, --name=value) and in env.
  const SECRETS = {
    argKey: 'wsk_live_0123456789abcdefARG',
    token: 'sk-ant-api03-abcdefghijklmnop',
    opaque: 'opaque-value-0123456789',
    password: 'hunter2hunter2',
    envKey: 'wsk_live_fedcba9876543210ENV',
    envSecret: 'plain-env-secret-value-42',
  };
  const old = {
    command: 'env',
    args: [
      `WSCTL_API_KEY=${SECRETS.argKey}`,
      'wsctl',
      'mcp',
      '--token',
      SECRETS.token,
      '--api-token',
      SECRETS.opaque,
      `--password=${SECRETS.password}`,
    ],
    env: { WSCTL_API_KEY: SECRETS.envKey, CLIENT_SECRET: SECRETS.envSecret },
  };
  const line = 'env WSCTL_API_KEY=[redacted] wsctl mcp --token [redacted] --api-token [redacted] --password=[redacted]';

  it.each(['cursor', 'codex'] as const)(
    '%s: install, --dry-run (text and --json) and a run under an agent show none of them',
    async (client) => {
      const { dir, env } = folder();
      const file = join(dir, 'mcp.json');
      const text = fileText(client, shaped(client, old));
      const runs = [['--dry-run'], ['--dry-run', '--json'], ['--dry-run', 'agent'], ['agent'], []];
      for (const how of runs) {
        writeFileSync(file, text);
        const flags = how.filter((h) => h !== 'agent');
        const r = await bin(
          ['mcp', 'install', '--client', client, '--config', file, '--sandbox', ...flags],
          how.includes('agent') ? { ...env, CLAUDECODE: '1' } : env,
        );
        expect([r.code, r.stderr], how.join(' ')).toEqual([0, '']);
        for (const secret of Object.values(SECRETS)) expect(r.stdout, `${how.join(' ')}: ${secret}`).not.toContain(secret);
        if (how.includes('--json')) {
          const doc = JSON.parse(r.stdout);
          expect(doc.replaced).toBe(line);
          // The diff still shows the change: the old entry's lines go, the new ones come.
          expect(doc.diff).toMatch(/^-.*\[redacted\]/m);
          expect(doc.diff).toContain('--sandbox');
        } else if (how.includes('--dry-run')) {
          expect(r.stdout).toContain(`It would replace the wsctl entry that runs: ${line}\n`);
          expect(r.stdout).toMatch(/^-.*WSCTL_API_KEY.*\[redacted\]/m);
          expect(readFileSync(file, 'utf8')).toBe(text);
        } else expect(r.stdout).toContain(`It replaces the wsctl entry that ran: ${line}\n`);
      }
    },
    120_000,
  );
});

describe('under an AI agent, replacing a narrower entry', () => {
  it.each(['cursor', 'codex'] as const)(
    '%s: losing --read-only, --sandbox or the --profile of the entry is refused (exit 4, nothing written); narrowing is not',
    async (client) => {
      const { dir, env } = folder();
      const file = join(dir, 'mcp.json');
      writeFileSync(file, fileText(client));
      const agent = { ...env, CLAUDECODE: '1' };
      const refused = async (person: string[], widened: string[], lost: string) => {
        const p = await bin(['mcp', 'install', '--client', client, '--config', file, ...person], env);
        expect([p.code, p.stderr], person.join(' ')).toEqual([0, '']);
        const text = readFileSync(file, 'utf8');
        const backup = readFileSync(`${file}.bak`, 'utf8');
        for (const dry of [[], ['--dry-run']]) {
          const r = await bin(['mcp', 'install', '--client', client, '--config', file, ...widened, ...dry], agent);
          expect([r.code, r.stdout], `${widened.join(' ')} ${dry.join(' ')}`).toEqual([4, '']);
          expect(r.stderr).toBe(
            `Error: An AI agent (claude-code) may not replace the MCP entry with ${lost} in ${file}: the new one gives the agent more than it did. ` +
              `Nothing was written; a person can run: wsctl mcp install --client ${client} --config ${file} ${widened.join(' ')}\n`,
          );
          expect(readFileSync(file, 'utf8')).toBe(text);
          expect(readFileSync(`${file}.bak`, 'utf8')).toBe(backup);
          expect(readdirSync(dir).sort()).toEqual(['mcp.json', 'mcp.json.bak']);
        }
      };
      await refused(['--sandbox', '--read-only'], ['--sandbox'], '--read-only');
      await refused(['--sandbox', '--profile', 'narrow'], ['--sandbox'], '--profile narrow');
      await refused(['--sandbox', '--profile', 'narrow'], ['--sandbox', '--profile', 'wide'], '--profile narrow (for --profile wide)');
      await refused(['--sandbox', '--read-only'], ['--read-only'], '--sandbox');
      // Narrowing, or the same entry again, is the agent's to do.
      const same = await bin(['mcp', 'install', '--client', client, '--config', file, '--sandbox', '--read-only', '--json'], agent);
      expect([same.code, same.stderr]).toEqual([0, '']);
      const narrower = await bin(
        ['mcp', 'install', '--client', client, '--config', file, '--sandbox', '--read-only', '--profile', 'narrow', '--json'],
        agent,
      );
      expect([narrower.code, narrower.stderr]).toEqual([0, '']);
      expect(JSON.parse(narrower.stdout)).toMatchObject({
        changed: true,
        args: [SCRIPT, 'mcp', '--sandbox', '--profile', 'narrow', '--read-only'],
      });
      // A person may widen it.
      const person = await bin(['mcp', 'install', '--client', client, '--config', file, '--sandbox'], { ...agent, WSCTL_AGENT: '0' });
      expect([person.code, person.stderr]).toEqual([0, '']);
    },
    120_000,
  );
});
