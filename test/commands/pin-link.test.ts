// A `.wsctl-profile` cloned from a repository where it is a symbolic link to a one-line file
// outside it (a token): refused on every door, the built CLI and `wsctl mcp` over stdio, with exit
// 2 naming the pin file, nothing sent, and no message repeating a line of that file (cli.md §2).
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { texts } from '../mcp/harness.js';

/** Shaped like a profile name, as a Vault token is: only a check of the name against the profiles refuses it. */
const SECRET = 's.Xy7QsecretTOKEN0123456789';

let sb: TestSandbox;
let config: string;
let root: string;
let clone: string;
let pin: string;
const closers: (() => Promise<unknown>)[] = [];

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'core.symlinks=true', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: root, GIT_CONFIG_NOSYSTEM: '1' },
    stdio: 'ignore',
  });
}

beforeAll(async () => {
  sb = await startSandbox();
  config = tempDir();
  const profile = { base_url: sb.url, api_key: sb.key };
  writeFileSync(join(config, 'config.json'), JSON.stringify({ current_profile: 'home', profiles: { work: profile, home: profile } }), {
    mode: 0o600,
  });
  root = tempDir();
  writeFileSync(join(root, 'secret'), `${SECRET}\n`);
  const origin = join(root, 'origin');
  mkdirSync(origin);
  git(origin, 'init', '-q');
  symlinkSync('../secret', join(origin, '.wsctl-profile'));
  git(origin, 'add', '.wsctl-profile');
  git(origin, 'commit', '-q', '-m', 'pin');
  git(root, 'clone', '-q', 'origin', 'clone');
  clone = join(root, 'clone');
  pin = join(clone, '.wsctl-profile');
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** The clone's pin as each case leaves it; the committed link first. */
const pins: [string, () => void][] = [
  ['a link (as cloned) to a one-line file outside', () => expect(lstatSync(pin).isSymbolicLink()).toBe(true)],
  [
    'a dangling link',
    () => {
      rmSync(pin);
      symlinkSync(`../gone-${SECRET}`, pin);
    },
  ],
  [
    'a file holding an unknown name',
    () => {
      rmSync(pin);
      writeFileSync(pin, `${SECRET}\n`);
    },
  ],
  [
    'a file holding a key',
    () => {
      rmSync(pin);
      writeFileSync(pin, `wsk_live_${SECRET}\n`);
    },
  ],
];

async function mcpCall(): Promise<{ result: object; stderr: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: clone,
    env: { PATH: process.env.PATH ?? '', HOME: tempDir(), WSCTL_CONFIG_DIR: config, WSCTL_RETRY_BASE_MS: '10' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c) => (stderr += c));
  const client = new Client({ name: 'wsctl-pin-test', version: '1.0.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  const result = await client.callTool({ name: 'keys_list', arguments: {} });
  await client.close();
  return { result, stderr };
}

describe.sequential('a pin in a cloned repository that is not a profile name', () => {
  it.each(pins)('%s: exit 2 naming the pin file on every door, nothing sent, the line never shown', async (_what, arrange) => {
    arrange();
    sb.requests.length = 0;
    const envs = [{ WSCTL_CONFIG_DIR: config }, { WSCTL_CONFIG_DIR: config, WSCTL_BASE_URL: sb.url, WSCTL_API_KEY: sb.key }];
    for (const env of envs) {
      for (const args of [
        ['keys', 'list'],
        ['auth', 'status'],
        ['auth', 'status', '--json'],
        ['profile', 'list'],
      ]) {
        const r = await runBin(args, { env, cwd: clone });
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toContain(pin);
        expect(r.stdout + r.stderr).not.toContain(SECRET);
        expect(r.stdout + r.stderr).not.toContain('Xy7Q');
      }
    }
    const { result, stderr } = await mcpCall();
    const said = texts(result)[0] ?? '';
    expect((result as { isError?: boolean }).isError).toBe(true);
    expect(said).toContain(pin);
    expect(said).toMatch(/\(exit code 2\)$/);
    expect(JSON.stringify(result) + stderr).not.toContain('Xy7Q');
    expect(sb.requests).toHaveLength(0);
    // The link's target is untouched.
    expect(readFileSync(join(root, 'secret'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('profile pin over a link replaces the link with a file, never writing through it', async () => {
    rmSync(pin);
    symlinkSync('../secret', pin);
    const r = await runBin(['profile', 'pin', 'work'], { env: { WSCTL_CONFIG_DIR: config }, cwd: clone });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('Xy7Q');
    expect(lstatSync(pin).isFile()).toBe(true);
    expect(readFileSync(pin, 'utf8')).toBe('work\n');
    expect(readFileSync(join(root, 'secret'), 'utf8')).toBe(`${SECRET}\n`);
    const status = await runBin(['auth', 'status', '--json'], { env: { WSCTL_CONFIG_DIR: config }, cwd: clone });
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'work', profile_source: 'pin', pin_file: pin });
  });
});
