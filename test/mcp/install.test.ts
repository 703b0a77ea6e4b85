// wsctl mcp config, install and uninstall: each client's shape, written into config files that hold
// comments and other servers (kept byte for byte around the edit), backups and atomic replacement,
// files that cannot be parsed or written, dry runs as diffs, and the written entry started as an
// MCP client would start it, with no `node` on PATH.
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { clientFile } from '../../src/commands/mcp/clients.js';
import { BIN, ROOT, run, runBin, tempDir } from '../helpers.js';

const SCRIPT = realpathSync(BIN);

/** A config file of each client's shape, as people keep them: comments, other servers, other settings. */
const FILES: Record<string, { key: string; text: string }> = {
  'claude-desktop': {
    key: 'mcpServers',
    text: '{\n  // Claude Desktop\n  "globalShortcut": "Ctrl+Space",\n  "mcpServers": {\n    "filesystem": {\n      "command": "npx",\n      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] // compact\n    }\n  }\n}\n',
  },
  'claude-code': {
    key: 'mcpServers',
    text: '{\n  "numStartups": 12,\n  "projects": {"/home/u/p": {"mcpServers": {}}},\n  /* user scope */\n  "mcpServers": {\n    "github": {"type": "stdio", "command": "gh-mcp", "args": []}\n  },\n  "tipsHistory": {}\n}\n',
  },
  cursor: { key: 'mcpServers', text: '{\n\t"mcpServers": {\n\t\t"a": {"command": "a"}, // a trailing comma follows\n\t},\n}\n' },
  vscode: {
    key: 'servers',
    text: '{\n  "inputs": [],\n  "servers": {\n    "memory": {\n      "type": "stdio",\n      "command": "npx",\n      "args": ["-y", "@modelcontextprotocol/server-memory"]\n    }\n  }\n}\n',
  },
  windsurf: { key: 'mcpServers', text: '{\r\n  "mcpServers": {\r\n    "x": { "command": "x" }\r\n  }\r\n}\r\n' },
  zed: {
    key: 'context_servers',
    text: '// Zed settings\n//\n// For information on how to configure Zed, see the Zed\n// documentation: https://zed.dev/docs/configuring-zed\n{\n  "theme": "One Dark",\n  "context_servers": {\n    "postgres": {\n      "command": "pg-mcp",\n      "args": [],\n      "env": {}\n    }\n  },\n  "vim_mode": true // yes\n}\n',
  },
};

function setup(text?: string, name = 'config.json') {
  const dir = tempDir();
  const file = join(dir, name);
  if (text !== undefined) writeFileSync(file, text);
  const env = { HOME: join(dir, 'home'), WSCTL_CONFIG_DIR: join(dir, 'wsctl') };
  return { dir, file, env };
}

/** The only difference is text put in at one place: everything before and after it is the same bytes. */
function insertedOnly(before: string, after: string): string {
  let head = 0;
  while (before[head] === after[head]) head++;
  expect(after.endsWith(before.slice(head)), `after the insertion:\n${after}`).toBe(true);
  return after.slice(head, after.length - (before.length - head));
}

describe('wsctl mcp install', () => {
  it.each(Object.keys(FILES))(
    '%s: adds the entry in its shape, keeps every comment and other entry, starts the server; uninstall undoes it byte for byte',
    async (client) => {
      const { key, text } = FILES[client]!;
      const { file, env } = setup(text);
      const r = await run(['mcp', 'install', '--client', client, '--config', file, '--sandbox', '--read-only', '--json'], { env });
      expect([r.code, r.stderr]).toEqual([0, '']);
      const doc = JSON.parse(r.stdout);
      const args = [SCRIPT, 'mcp', '--sandbox', '--read-only'];
      expect(doc).toEqual({
        client,
        file,
        written: file,
        changed: true,
        replaced: null,
        backup: `${file}.bak`,
        tools: expect.any(Number),
        command: process.execPath,
        args,
        env: { WSCTL_CONFIG_DIR: env.WSCTL_CONFIG_DIR },
      });
      expect(doc.tools).toBeGreaterThan(3);
      const after = readFileSync(file, 'utf8');
      expect(readFileSync(`${file}.bak`, 'utf8')).toBe(text);
      const inserted = insertedOnly(text, after);
      expect(inserted).toContain('"wsctl"');
      expect(inserted).not.toMatch(/filesystem|github|memory|postgres|"x"|"a"/);
      const parsed = parse(after, [], { allowTrailingComma: true });
      const entry = { command: process.execPath, args, env: { WSCTL_CONFIG_DIR: env.WSCTL_CONFIG_DIR } };
      expect(parsed[key].wsctl).toEqual(
        client === 'vscode' ? { type: 'stdio', ...entry } : client === 'zed' ? { source: 'custom', ...entry } : entry,
      );
      expect(Object.keys(parsed[key])).toHaveLength(2);
      if (client === 'claude-code') expect(parsed.projects['/home/u/p'].mcpServers).toEqual({});
      if (client === 'windsurf') expect(after.replace(/\r\n/g, '')).not.toContain('\n');
      if (client === 'cursor') expect(inserted).toMatch(/^\n\t\t"wsctl": \{\n\t\t\t"command"/);

      const u = await run(['mcp', 'uninstall', '--client', client, '--config', file, '--json'], { env });
      expect([u.code, JSON.parse(u.stdout)]).toEqual([0, { client, file, written: file, changed: true, backup: `${file}.bak` }]);
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(readFileSync(`${file}.bak`, 'utf8')).toBe(after);
      const again = await run(['mcp', 'uninstall', '--client', client, '--config', file], { env });
      expect([again.code, again.stdout]).toEqual([
        0,
        `${file} has no wsctl entry for ${doc.client === 'vscode' ? 'VS Code' : again.stdout.split(' for ')[1]!.split(':')[0]}: nothing to remove.\n`,
      ]);
      expect(readFileSync(file, 'utf8')).toBe(text);
    },
    60_000,
  );

  it('creates a missing file and its folders with the usual modes; a second run changes nothing and writes nothing', async () => {
    const { dir, env } = setup();
    const file = join(dir, 'a', 'b', 'mcp.json');
    const r = await run(['mcp', 'install', '--client', 'cursor', '--config', file, '--sandbox'], { env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(
      new RegExp(`^Installed wsctl's MCP server for Cursor in ${file}\\.\nThe server offers \\d+ tools\\. Restart Cursor to load it;`),
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: {
        wsctl: { command: process.execPath, args: [SCRIPT, 'mcp', '--sandbox'], env: { WSCTL_CONFIG_DIR: env.WSCTL_CONFIG_DIR } },
      },
    });
    expect(existsSync(`${file}.bak`)).toBe(false);
    const umask = process.umask();
    expect(statSync(file).mode & 0o777).toBe(0o666 & ~umask);
    expect(statSync(join(dir, 'a')).mode & 0o777).toBe(0o777 & ~umask);
    // An existing file keeps its mode, however tight.
    chmodSync(file, 0o600);
    const { ino, mtimeMs } = statSync(file);
    const second = await run(['mcp', 'install', '--client', 'cursor', '--config', file, '--sandbox', '--json'], { env });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ changed: false, backup: null, tools: expect.any(Number) });
    expect(statSync(file)).toMatchObject({ ino, mtimeMs });
    expect(existsSync(`${file}.bak`)).toBe(false);
    const third = await run(['mcp', 'install', '--client', 'cursor', '--config', file, '--sandbox', '--read-only'], { env });
    expect(third.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.bak`).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'a', 'b')).sort()).toEqual(['mcp.json', 'mcp.json.bak']);
  }, 60_000);

  it('--dry-run prints the change as a unified diff and writes nothing', async () => {
    const text = '{\n  "mcpServers": {\n    "other": {"command": "x"} // keep\n  }\n}\n';
    const { file, env } = setup(text);
    const r = await run(['mcp', 'install', '--client', 'claude-desktop', '--config', file, '--sandbox', '--dry-run'], {
      env: { ...env, WSCTL_CONFIG_DIR: '' },
    });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      [
        `--- ${file}`,
        `+++ ${file}`,
        '@@ -1,5 +1,13 @@',
        ' {',
        '   "mcpServers": {',
        '-    "other": {"command": "x"} // keep',
        '+    "other": {"command": "x"},',
        '+    "wsctl": {',
        `+      "command": ${JSON.stringify(process.execPath)},`,
        '+      "args": [',
        `+        ${JSON.stringify(SCRIPT)},`,
        '+        "mcp",',
        '+        "--sandbox"',
        '+      ]',
        '+    } // keep',
        '   }',
        ' }',
        'Nothing was changed (--dry-run).',
        '',
      ].join('\n'),
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(`${file}.bak`)).toBe(false);
    const missing = join(setup().dir, 'new.json');
    const created = await run(['mcp', 'install', '--client', 'zed', '--config', missing, '--dry-run', '--json'], { env });
    const doc = JSON.parse(created.stdout);
    expect(doc).toMatchObject({ client: 'zed', file: missing, changed: true, dry_run: true });
    expect(doc.diff).toMatch(/^--- \/dev\/null\n\+\+\+ .*new\.json\n@@ -0,0 \+1,\d+ @@\n\+\{\n\+ {2}"context_servers": \{\n/);
    expect(existsSync(missing)).toBe(false);
    const u = await run(['mcp', 'uninstall', '--client', 'claude-desktop', '--config', file, '--dry-run'], { env });
    expect([u.code, u.stdout]).toEqual([0, `${file} has no wsctl entry for Claude Desktop: nothing to remove.\n`]);
  });

  it('a file that cannot be parsed is exit 1 and left untouched', async () => {
    for (const [text, unparsed] of [
      ['{\n  "mcpServers": {\n    "a": {"command": "a"\n  }\n}\n', true],
      ['[1, 2]\n', true],
      ['{"mcpServers": []}', false],
    ] as const) {
      const { file, env } = setup(text);
      const r = await run(['mcp', 'install', '--client', 'cursor', '--config', file, '--sandbox'], { env });
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toMatch(new RegExp(`^Error: Cannot (parse|use) ${file}: .*Nothing was changed`));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(readdirSync(join(file, '..'))).toEqual(['config.json']);
      const u = await run(['mcp', 'uninstall', '--client', 'cursor', '--config', file], { env });
      expect(u.code).toBe(unparsed ? 1 : 0);
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(readdirSync(join(file, '..'))).toEqual(['config.json']);
    }
    const { file, env } = setup('{"mcpServers": {}}');
    expect((await run(['mcp', 'install', '--client', 'cursor', '--config', file], { env })).stderr).not.toContain('Nothing');
  });

  it('a file that cannot be written is exit 1 with nothing half-written', async () => {
    // A folder that cannot exist: its parent is a regular file (root writes through chmod).
    const { dir, env } = setup('{}', 'plain');
    const r = await run(['mcp', 'install', '--client', 'cursor', '--config', join(dir, 'plain', 'mcp.json'), '--sandbox'], { env });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      `Error: Cannot write ${join(dir, 'plain', 'mcp.json')}: part of the path to ${join(dir, 'plain')} is a file, not a folder. Nothing was written.\n`,
    );
    expect(readdirSync(dir)).toEqual(['plain']);
    // A backup that cannot be put in place (a folder holds its name): the file stays as it was, no temp file is left.
    const text = '{\n  // mine\n  "mcpServers": {}\n}\n';
    const other = setup(text);
    mkdirSync(join(`${other.file}.bak`, 'x'), { recursive: true });
    const b = await run(['mcp', 'install', '--client', 'cursor', '--config', other.file, '--sandbox'], { env: other.env });
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/^Error: Cannot write .*config\.json: E[A-Z]+\. The file was not changed\.\n$/);
    expect(readFileSync(other.file, 'utf8')).toBe(text);
    expect(readdirSync(other.dir).sort()).toEqual(['config.json', 'config.json.bak']);
  });

  it('a folder that cannot be made (under /proc) is exit 1 with one line, not a wait for ever', async () => {
    const { env } = setup();
    const file = '/proc/wsctl-test/clients/mcp.json';
    // A child process: the recursive mkdir this replaced never returned there.
    const r = await runBin(['mcp', 'install', '--client', 'cursor', '--config', file, '--sandbox'], { env, timeoutMs: 15_000 });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `Error: Cannot write ${file}: the folder /proc/wsctl-test cannot be made there. Nothing was written.\n`,
    ]);
  });

  it('edits the file a symbolic link points to, and leaves the link in place', async () => {
    const { dir, file, env } = setup('{\n  "mcpServers": {}\n}\n');
    const link = join(dir, 'link.json');
    symlinkSync(file, link);
    const r = await run(['mcp', 'install', '--client', 'windsurf', '--config', link, '--sandbox', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: link, backup: `${file}.bak` });
    expect(realpathSync(link)).toBe(file);
    expect(parse(readFileSync(file, 'utf8')).mcpServers.wsctl.args).toEqual([SCRIPT, 'mcp', '--sandbox']);
    const dangling = join(dir, 'dangling.json');
    symlinkSync(join(dir, 'nowhere.json'), dangling);
    const d = await run(['mcp', 'install', '--client', 'windsurf', '--config', dangling, '--sandbox'], { env });
    expect([d.code, d.stderr]).toEqual([
      1,
      `Error: Cannot use ${dangling}: it is a symbolic link to ${join(dir, 'nowhere.json')}, which does not exist.\n`,
    ]);
  });

  it("goes to each client's usual file on this platform", async () => {
    const home = tempDir();
    const env = { HOME: home, WSCTL_CONFIG_DIR: join(home, 'wsctl') };
    const r = await run(['mcp', 'install', '--client', 'vscode', '--sandbox', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).file).toBe(join(home, '.config', 'Code', 'User', 'mcp.json'));
    expect(parse(readFileSync(join(home, '.config', 'Code', 'User', 'mcp.json'), 'utf8')).servers.wsctl.type).toBe('stdio');
    expect(clientFile('claude-desktop', { HOME: '/h' }, 'darwin')).toBe('/h/Library/Application Support/Claude/claude_desktop_config.json');
    expect(clientFile('claude-desktop', { USERPROFILE: 'C:\\Users\\a', APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toBe(
      'C:\\Users\\a\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
    expect(clientFile('claude-desktop', { HOME: '/h' }, 'linux')).toBe('/h/.config/Claude/claude_desktop_config.json');
    expect(clientFile('claude-desktop', { HOME: '/h', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Claude/claude_desktop_config.json');
    expect(clientFile('claude-code', { HOME: '/h' }, 'linux')).toBe('/h/.claude.json');
    expect(clientFile('cursor', { USERPROFILE: 'C:\\Users\\a' }, 'win32')).toBe('C:\\Users\\a\\.cursor\\mcp.json');
    expect(clientFile('vscode', { HOME: '/h' }, 'darwin')).toBe('/h/Library/Application Support/Code/User/mcp.json');
    expect(clientFile('vscode', { APPDATA: 'C:\\R' }, 'win32')).toBe('C:\\R\\Code\\User\\mcp.json');
    expect(clientFile('windsurf', { HOME: '/h' }, 'darwin')).toBe('/h/.codeium/windsurf/mcp_config.json');
    expect(clientFile('zed', { HOME: '/h' }, 'darwin')).toBe('/h/.config/zed/settings.json');
    expect(clientFile('zed', { APPDATA: 'C:\\R' }, 'win32')).toBe('C:\\R\\Zed\\settings.json');
  }, 30_000);
});

describe('the built bin/wsctl', () => {
  it('install --client claude-desktop writes an entry that starts with no node on PATH, through an npm-style link to the launcher', async () => {
    const home = tempDir();
    const links = tempDir();
    symlinkSync(BIN, join(links, 'wsctl'));
    const env = { HOME: home, WSCTL_CONFIG_DIR: join(home, 'cfg') };
    const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [join(links, 'wsctl'), 'mcp', 'install', '--client', 'claude-desktop', '--sandbox'], {
        env: { PATH: process.env.PATH, ...env },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('close', (code) => resolve({ code, out, err }));
    });
    expect([r.code, r.err]).toEqual([0, '']);
    const file = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    expect(r.out).toContain(`Installed wsctl's MCP server for Claude Desktop in ${file}.`);
    const entry = JSON.parse(readFileSync(file, 'utf8')).mcpServers.wsctl;
    expect(entry).toEqual({
      command: process.execPath,
      args: [SCRIPT, 'mcp', '--sandbox'],
      env: { WSCTL_CONFIG_DIR: env.WSCTL_CONFIG_DIR },
    });
    // As Claude Desktop starts it: its own environment, where `node` is nowhere on PATH.
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { PATH: '/nonexistent', HOME: home, ...entry.env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'claude-desktop-like', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('keys_list');
      expect(r.out).toContain(`The server offers ${tools.length} tools.`);
      const caps = await client.callTool({ name: 'caps', arguments: {} });
      expect(caps.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    // The config file names no key and no base URL.
    expect(readFileSync(file, 'utf8')).not.toMatch(/wsk_|https?:/);
  }, 60_000);

  it('a folder on a read-only mount is exit 1, with the file as it was and nothing written beside it', async () => {
    const { dir, file } = setup('{\n  // mine\n  "mcpServers": {}\n}\n');
    const home = tempDir();
    // A read-only bind mount in a mount namespace of its own (chmod does not stop root).
    const script = `mount --bind -o ro '${dir}' '${dir}' && exec '${process.execPath}' '${BIN}' mcp install --client cursor --config '${file}' --sandbox`;
    const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn('unshare', ['-m', 'sh', '-c', script], {
        env: { PATH: process.env.PATH, HOME: home, WSCTL_CONFIG_DIR: join(home, 'cfg') },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('error', () => resolve({ code: null, out, err: 'no unshare' }));
      child.on('close', (code) => resolve({ code, out, err }));
    });
    if (/unshare|mount/.test(r.err) && !r.err.startsWith('Error:')) return; // no mount namespaces here
    expect([r.code, r.out, r.err]).toEqual([1, '', `Error: Cannot write ${file}: EROFS. The file was not changed.\n`]);
    expect(readFileSync(file, 'utf8')).toBe('{\n  // mine\n  "mcpServers": {}\n}\n');
    expect(readdirSync(dir)).toEqual(['config.json']);
  }, 30_000);

  it('a server that does not answer is exit 1, with the new entry written and the backup kept', async () => {
    // A copy of the package whose launcher fails when started as the server, and works for install.
    const pkg = tempDir();
    for (const part of ['dist', 'bin']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    const launcher = join(pkg, 'bin', 'wsctl');
    const original = readFileSync(launcher, 'utf8');
    writeFileSync(
      launcher,
      original.replace('\n', "\nif (process.argv[3] !== 'install') { process.stderr.write('broken on purpose\\n'); process.exit(3); }\n"),
    );
    const { file, env } = setup('{\n  "mcpServers": {}\n}\n');
    const r = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const child = spawn(process.execPath, [launcher, 'mcp', 'install', '--client', 'cursor', '--config', file, '--sandbox'], {
        env: { PATH: process.env.PATH, ...env },
      });
      let err = '';
      child.stderr.on('data', (c) => (err += c));
      child.on('close', (code) => resolve({ code, err }));
    });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(
        `^Error: ${file} now starts wsctl's MCP server, but the server did not answer: .*It said: broken on purpose The previous file is kept in ${file}\\.bak\\.\\n$`,
      ),
    );
    expect(parse(readFileSync(file, 'utf8')).mcpServers.wsctl.args[0]).toBe(realpathSync(launcher));
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe('{\n  "mcpServers": {}\n}\n');
  }, 60_000);
});

describe('the dry run diff', () => {
  it('is what diff -u prints, hunks and context included', async () => {
    const { unifiedDiff } = await import('../../src/commands/mcp/diff.js');
    const before = `${Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n')}\n`;
    const after = before.replace('line 3\n', 'line 3\nnew a\n').replace('line 20\n', '').replace('line 35\n', 'changed 35\n');
    const dir = tempDir();
    writeFileSync(join(dir, 'a'), before);
    writeFileSync(join(dir, 'b'), after);
    const gnu = await new Promise<string>((resolve) => {
      const child = spawn('diff', ['-u', join(dir, 'a'), join(dir, 'b')]);
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.on('close', () => resolve(out));
    });
    const ours = unifiedDiff(before, after, 'f');
    expect(ours.split('\n').slice(2)).toEqual(gnu.split('\n').slice(2));
    expect(ours.split('\n').filter((l) => l.startsWith('@@'))).toHaveLength(3);
    expect(unifiedDiff('{}', '{"a": 1}', 'f')).toBe(
      '--- f\n+++ f\n@@ -1 +1 @@\n-{}\n\\ No newline at end of file\n+{"a": 1}\n\\ No newline at end of file\n',
    );
    expect(unifiedDiff('same\n', 'same\n', 'f')).toBe('');
  });
});
