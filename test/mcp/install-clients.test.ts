// wsctl mcp config, install and uninstall for Codex (TOML), Gemini CLI and OpenCode, through the
// built bin/wsctl: each client's usual file and shape, every comment and other table kept byte
// for byte, shapes of config.toml that cannot be edited safely refused untouched, OpenCode's one
// config file, and the written entry started by the SDK's client as that client would start it.
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse } from 'jsonc-parser';
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import { describe, expect, it } from 'vitest';
import { clientFile } from '../../src/commands/mcp/clients.js';
import { BIN, runBin, tempDir } from '../helpers.js';

const SCRIPT = realpathSync(BIN);
const KILL_MS = 15_000;

const CODEX = `# Codex settings
model = "gpt-5.1"
approval_policy = "on-request"   # ask first

[mcp_servers.docs]
command = "docs-server"
args = ["--port", "4000"]
env = { "API_KEY" = "value" }

# Tables below are Codex's own.
[tui]
notifications = true
`;
const GEMINI = `{
  // Gemini CLI
  "general": { "vimMode": true },
  "mcpServers": {
    "pythonTools": {
      "command": "python",
      "args": ["-m", "my_mcp_server"], // compact
      "timeout": 15000
    }
  }
}
`;
const OPENCODE = `{
  "$schema": "https://opencode.ai/config.json",
  // my servers
  "mcp": {
    "context7": { "type": "remote", "url": "https://mcp.context7.com/mcp", "enabled": true },
  },
}
`;

function home() {
  const dir = tempDir();
  return { dir, env: { HOME: dir, WSCTL_CONFIG_DIR: join(dir, 'wsctl-config') } };
}

const bin = (args: string[], env: Record<string, string>) => runBin(args, { env, timeoutMs: KILL_MS });

/** The only difference is text put in at one place: everything before and after it is the same bytes. */
function insertedOnly(before: string, after: string): string {
  let head = 0;
  while (before[head] === after[head]) head++;
  expect(after.endsWith(before.slice(head)), `after the insertion:\n${after}`).toBe(true);
  return after.slice(head, after.length - (before.length - head));
}

/** Starts what the file says, as the client would: its own environment, no `node` on PATH; lists the tools. */
async function startWritten(command: string, args: string[], env: Record<string, string> | undefined, dir: string) {
  const transport = new StdioClientTransport({ command, args, env: { PATH: '/nonexistent', HOME: dir, ...env }, stderr: 'pipe' });
  const client = new Client({ name: 'client-like', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe('each client, in its usual file', () => {
  it.each([
    ['codex', CODEX],
    ['gemini-cli', GEMINI],
    ['opencode', OPENCODE],
  ] as const)(
    '%s: the entry goes in its shape beside every comment and server, starts as written, and uninstall restores the file byte for byte',
    async (client, text) => {
      const { dir, env } = home();
      const codexHome = join(dir, 'codex-home');
      const file = {
        codex: join(codexHome, 'config.toml'),
        'gemini-cli': join(dir, '.gemini', 'settings.json'),
        opencode: join(dir, '.config', 'opencode', 'opencode.jsonc'),
      }[client];
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, text);
      const all = { ...env, CODEX_HOME: codexHome };
      const r = await bin(['mcp', 'install', '--client', client, '--sandbox', '--read-only'], all);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toContain(`in ${file} (the previous file is kept in ${file}.bak).`);
      expect(r.stdout).toContain(`; \`wsctl mcp uninstall --client ${client}\` removes it.`);
      const after = readFileSync(file, 'utf8');
      const inserted = insertedOnly(text, after);
      const args = [SCRIPT, 'mcp', '--sandbox', '--read-only'];
      const vars = { WSCTL_CONFIG_DIR: env.WSCTL_CONFIG_DIR };
      let started: string[];
      if (client === 'codex') {
        // Appended as the table Codex documents; the file still parses, other tables as they were.
        expect(inserted).toBe(
          `\n[mcp_servers.wsctl]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${args.map((a) => JSON.stringify(a)).join(', ')}]\n` +
            `env = { WSCTL_CONFIG_DIR = ${JSON.stringify(env.WSCTL_CONFIG_DIR)} }\n`,
        );
        const doc = getStaticTOMLValue(parseTOML(after)) as unknown as {
          mcp_servers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
          tui: unknown;
        };
        expect(doc.mcp_servers).toEqual({
          docs: { command: 'docs-server', args: ['--port', '4000'], env: { API_KEY: 'value' } },
          wsctl: { command: process.execPath, args, env: vars },
        });
        expect(doc.tui).toEqual({ notifications: true });
        const { command, args: written, env: writtenEnv } = doc.mcp_servers.wsctl;
        started = await startWritten(command, written, writtenEnv, dir);
      } else if (client === 'gemini-cli') {
        const entry = parse(after).mcpServers.wsctl;
        expect(entry).toEqual({ command: process.execPath, args, env: vars });
        expect(Object.keys(parse(after).mcpServers)).toEqual(['pythonTools', 'wsctl']);
        started = await startWritten(entry.command, entry.args, entry.env, dir);
      } else {
        const entry = parse(after, [], { allowTrailingComma: true }).mcp.wsctl;
        expect(entry).toEqual({ type: 'local', command: [process.execPath, ...args], enabled: true, environment: vars });
        // The .jsonc that was there is the file: no opencode.json beside it.
        expect(readdirSync(join(file, '..')).sort()).toEqual(['opencode.jsonc', 'opencode.jsonc.bak']);
        started = await startWritten(entry.command[0], entry.command.slice(1), entry.environment, dir);
      }
      expect(started).toContain('keys_list');
      expect(started).not.toContain('keys_create');
      expect(r.stdout).toContain(`The server offers ${started.length} tools.`);

      const u = await bin(['mcp', 'uninstall', '--client', client], all);
      expect([u.code, u.stderr]).toEqual([0, '']);
      expect(readFileSync(file, 'utf8')).toBe(text);
    },
    60_000,
  );

  it('Codex: a missing config.toml is made with the table alone; mcp config prints that table', async () => {
    const { dir, env } = home();
    const r = await bin(['mcp', 'install', '--client', 'codex', '--sandbox', '--json'], env);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const file = join(dir, '.codex', 'config.toml');
    expect(JSON.parse(r.stdout)).toMatchObject({ client: 'codex', file, written: file, backup: null });
    const table =
      `[mcp_servers.wsctl]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(SCRIPT)}, "mcp", "--sandbox"]\n` +
      `env = { WSCTL_CONFIG_DIR = ${JSON.stringify(env.WSCTL_CONFIG_DIR)} }\n`;
    expect(readFileSync(file, 'utf8')).toBe(table);
    const c = await bin(['mcp', 'config', '--client', 'codex', '--sandbox'], env);
    expect([c.code, c.stdout, c.stderr]).toEqual([0, table, '']);
    const u = await bin(['mcp', 'uninstall', '--client', 'codex'], env);
    expect(u.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('');
  }, 60_000);

  it('OpenCode: with no config yet, opencode.json is made; the folder honours XDG_CONFIG_HOME', async () => {
    const { dir, env } = home();
    const xdg = join(dir, 'xdg');
    const r = await bin(['mcp', 'install', '--client', 'opencode', '--sandbox', '--json'], { ...env, XDG_CONFIG_HOME: xdg });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout).file).toBe(join(xdg, 'opencode', 'opencode.json'));
    expect(readdirSync(join(xdg, 'opencode'))).toEqual(['opencode.json']);
    expect(clientFile('opencode', { HOME: '/h' }, 'linux', () => false)).toBe('/h/.config/opencode/opencode.json');
    expect(clientFile('opencode', { HOME: '/h' }, 'darwin', (p) => p.endsWith('.jsonc'))).toBe('/h/.config/opencode/opencode.jsonc');
    expect(clientFile('codex', { HOME: '/h' }, 'linux')).toBe('/h/.codex/config.toml');
    expect(clientFile('codex', { HOME: '/h', CODEX_HOME: '/c' }, 'linux')).toBe('/c/config.toml');
    expect(clientFile('codex', { USERPROFILE: 'C:\\Users\\a' }, 'win32')).toBe('C:\\Users\\a\\.codex\\config.toml');
    expect(clientFile('gemini-cli', { HOME: '/h' }, 'darwin')).toBe('/h/.gemini/settings.json');
    expect(clientFile('gemini-cli', { USERPROFILE: 'C:\\Users\\a' }, 'win32')).toBe('C:\\Users\\a\\.gemini\\settings.json');
  }, 60_000);

  it('OpenCode with both opencode.json and opencode.jsonc: the one that holds wsctl, else exit 2 naming both', async () => {
    const { dir, env } = home();
    const folder = join(dir, '.config', 'opencode');
    mkdirSync(folder, { recursive: true });
    const json = join(folder, 'opencode.json');
    const jsonc = join(folder, 'opencode.jsonc');
    writeFileSync(json, '{"theme": "dark"}\n');
    writeFileSync(jsonc, '{\n  // mine\n  "mcp": {"wsctl": {"type": "local", "command": ["wsctl", "mcp"], "enabled": true}}\n}\n');
    const r = await bin(['mcp', 'install', '--client', 'opencode', '--sandbox', '--json'], env);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout).file).toBe(jsonc);
    expect(readFileSync(json, 'utf8')).toBe('{"theme": "dark"}\n');
    expect(readFileSync(jsonc, 'utf8')).toContain('// mine');
    const u = await bin(['mcp', 'uninstall', '--client', 'opencode'], env);
    expect(u.code).toBe(0);
    expect(readFileSync(jsonc, 'utf8')).not.toContain('"wsctl"');
    // Neither holds it now: which one is the person's to say.
    const again = await bin(['mcp', 'install', '--client', 'opencode', '--sandbox'], env);
    expect([again.code, again.stdout]).toEqual([2, '']);
    expect(again.stderr).toContain(`OpenCode has both ${json} and ${jsonc}: pass --config with the one to change.`);
    expect(readFileSync(json, 'utf8')).toBe('{"theme": "dark"}\n');
    // `mcp config` changes nothing: it names the file OpenCode documents.
    const config = await bin(['mcp', 'config', '--client', 'opencode', '--sandbox', '--json'], env);
    expect([config.code, JSON.parse(config.stdout).file]).toEqual([0, json]);
  }, 60_000);
});

describe("Codex's config.toml", () => {
  it('a wsctl table with sub-tables and comments around it is replaced whole; what follows it stays', async () => {
    const { dir, env } = home();
    const file = join(dir, 'config.toml');
    const text =
      '# top\r\n[mcp_servers.wsctl]\r\ncommand = "/opt/old/node"\r\nargs = ["/opt/old/wsctl", "mcp"]\r\n\r\n' +
      '[mcp_servers.wsctl.env]\r\nWSCTL_PROFILE = "old"\r\n# about tui\r\n[tui]\r\nnotifications = false # mine\r\n';
    writeFileSync(file, text);
    const r = await bin(['mcp', 'install', '--client', 'codex', '--config', file, '--sandbox'], env);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')[1]).toBe('It replaces the wsctl entry that ran: /opt/old/node /opt/old/wsctl mcp');
    expect(readFileSync(file, 'utf8')).toBe(
      `# top\r\n[mcp_servers.wsctl]\r\ncommand = ${JSON.stringify(process.execPath)}\r\nargs = [${JSON.stringify(SCRIPT)}, "mcp", "--sandbox"]\r\n` +
        `env = { WSCTL_CONFIG_DIR = ${JSON.stringify(env.WSCTL_CONFIG_DIR)} }\r\n\r\n# about tui\r\n[tui]\r\nnotifications = false # mine\r\n`,
    );
    const u = await bin(['mcp', 'uninstall', '--client', 'codex', '--config', file], env);
    expect(u.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('# top\r\n\r\n# about tui\r\n[tui]\r\nnotifications = false # mine\r\n');
  }, 60_000);

  it.each([
    ['mcp_servers = { docs = { command = "d" } }\n', 'it sets `mcp_servers = …` inline (line 1)'],
    ['model = "o3"\nmcp_servers.wsctl.command = "x"\n', 'it sets mcp_servers.wsctl with dotted keys (line 2)'],
    ['[mcp_servers]\ndocs = { command = "d" }\nwsctl = { command = "x" }\n', 'its [mcp_servers] table sets wsctl inline (line 3)'],
    ['[[mcp_servers]]\nname = "x"\n', 'its mcp_servers is an array of tables ([[mcp_servers]]) (line 1)'],
  ])('%j is refused (exit 1), unread by Codex or not, untouched, no .bak', async (text, why) => {
    const { env } = home();
    // A folder of its own: wsctl may keep a cache in HOME.
    const dir = tempDir();
    const file = join(dir, 'config.toml');
    writeFileSync(file, text);
    for (const args of [
      ['mcp', 'install', '--client', 'codex', '--config', file, '--sandbox'],
      ['mcp', 'install', '--client', 'codex', '--config', file, '--sandbox', '--dry-run'],
    ]) {
      const r = await bin(args, env);
      expect([r.code, r.stdout, r.stderr], args.join(' ')).toEqual([
        1,
        '',
        `Error: Cannot edit ${file}: ${why}, and wsctl edits only a [mcp_servers.wsctl] table. Nothing was changed; ` +
          'write its servers as [mcp_servers.<name>] tables, or add what `wsctl mcp config --client codex` prints yourself.\n',
      ]);
    }
    const u = await bin(['mcp', 'uninstall', '--client', 'codex', '--config', file], env);
    // Only a file whose wsctl entry is defined so has anything to refuse on the way back.
    expect(u.code).toBe(/wsctl/.test(text) ? 1 : 0);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['config.toml']);
  });

  it('a file that is not TOML is exit 1 with its line and column, untouched', async () => {
    const { dir, env } = home();
    const file = join(dir, 'config.toml');
    const text = '# fine\nmodel = "o3"\nmodel = "o4"\n';
    writeFileSync(file, text);
    for (const verb of ['install', 'uninstall']) {
      const r = await bin(['mcp', verb, '--client', 'codex', '--config', file], env);
      expect([r.code, r.stdout], verb).toEqual([1, '']);
      expect(r.stderr).toMatch(
        new RegExp(
          `^Error: Cannot parse ${file}: .* at line 3, column 1\\. Nothing was changed; fix the file, or name another with --config\\.\\n$`,
        ),
      );
    }
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(`${file}.bak`)).toBe(false);
  }, 30_000);
});
