import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { run, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { crashed, runPty, tooWide } from '../terminal/pty.js';

describe('auth switch', () => {
  let sb: TestSandbox;
  let dir: string;
  beforeEach(async () => {
    sb = await startSandbox();
    dir = tempDir();
    const profile = { base_url: sb.url, api_key: sb.key };
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        current_profile: 'home',
        profiles: { work: { ...profile, base_url: 'https://work.example.com' }, home: profile, 'zz-\x1b[31mred': profile },
      }),
      { mode: 0o600 },
    );
  });
  const current = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).current_profile;

  it('with a name, makes it current as `profile use` does (--json, --dry-run, unknown name exit 2)', async () => {
    const r = await run(['auth', 'switch', 'work', '--json'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ current_profile: 'work' });
    expect(current()).toBe('work');
    const dry = await run(['auth', 'switch', 'home', '--dry-run'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(dry.stdout).toContain("Would make 'home' the current profile.");
    expect(current()).toBe('work');
    const unknown = await run(['auth', 'switch', 'nobody'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("No profile 'nobody'");
  });

  it('without a name off a terminal, with --no-input or under an agent, exit 2 naming the way', async () => {
    for (const [env, tty] of [
      [{}, false],
      [{ WSCTL_NO_INPUT: '1' }, true],
      [{ CLAUDECODE: '1' }, true],
    ] as const) {
      const r = await run(['auth', 'switch'], { env: { WSCTL_CONFIG_DIR: dir, ...env }, tty, stdinTTY: tty });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('wsctl auth switch <name>');
      expect(r.prompts).toEqual([]);
    }
    expect(current()).toBe('home');
  });

  it('without a name on a terminal, offers the profiles (name, base URL) cleaned of control characters', async () => {
    const r = await run(['auth', 'switch'], { env: { WSCTL_CONFIG_DIR: dir }, tty: true, stdinTTY: true, answers: ['work'] });
    expect(r.code).toBe(0);
    expect(r.prompts.slice(1)).toEqual([`home  ${sb.url}  (current)`, 'work  https://work.example.com', `zz-red  ${sb.url}`]);
    expect(current()).toBe('work');
  });

  it('on a sized terminal: ↓ and Enter choose, Esc ends with 130 and changes nothing; the list fits the width', async () => {
    const env = { WSCTL_CONFIG_DIR: dir };
    const chosen = await runPty(['auth', 'switch'], {
      cols: 40,
      env,
      steps: [
        ['Switch to which', '\x1b[B'],
        [200, '\r'],
      ],
    });
    expect(chosen.code).toBe(0);
    expect(crashed(chosen.output)).toBe(false);
    expect(chosen.text).toContain("Now using profile 'work'");
    expect(chosen.output).not.toContain('\x1b[31m');
    expect(tooWide(chosen.text, 40)).toEqual([]);
    expect(current()).toBe('work');
    const esc = await runPty(['auth', 'switch'], {
      cols: 80,
      env,
      steps: [
        ['Switch to which', '\x1b[A'],
        [200, '\x1b'],
      ],
    });
    expect(esc.code).toBe(130);
    expect(current()).toBe('work');
    const ctrlC = await runPty(['auth', 'switch'], { cols: 80, env, steps: [['Switch to which', '\x03']] });
    expect(ctrlC.code).toBe(130);
    expect(crashed(ctrlC.output)).toBe(false);
  });

  it('the built wsctl off a terminal needs the name', async () => {
    const r = await runBin(['auth', 'switch'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('wsctl auth switch <name>');
    expect((await runBin(['auth', 'switch', 'work'], { env: { WSCTL_CONFIG_DIR: dir } })).code).toBe(0);
    expect(current()).toBe('work');
  });
});
