import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { run, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

/** A config folder with profiles work, home and default (each with its own key), current 'home'. */
function configWith(sb: TestSandbox, current = 'home'): string {
  const dir = tempDir();
  const profile = { base_url: sb.url, api_key: sb.key };
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ current_profile: current, profiles: { work: profile, home: profile, default: profile } }),
    { mode: 0o600 },
  );
  return dir;
}

describe('where the profile in effect came from', () => {
  let sb: TestSandbox;
  let config: string;
  let project: string;
  let deep: string;
  beforeEach(async () => {
    sb = await startSandbox();
    config = configWith(sb);
    project = tempDir();
    deep = join(project, 'a', 'b');
    mkdirSync(deep, { recursive: true });
  });
  const status = async (env: Record<string, string>, cwd: string) => {
    const r = await run(['auth', 'status', '--json'], { env: { WSCTL_CONFIG_DIR: config, ...env }, cwd });
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  it('precedence: --profile, then WSCTL_PROFILE, then a pin (two folders up), then the current profile, then "default"', async () => {
    writeFileSync(join(project, '.wsctl-profile'), 'work\n');
    const pin = join(project, '.wsctl-profile');
    expect(await status({}, deep)).toMatchObject({ profile: 'work', profile_source: 'pin', pin_file: pin, valid: true });
    expect(await status({ WSCTL_PROFILE: 'default' }, deep)).toMatchObject({ profile: 'default', profile_source: 'env' });
    const flag = await run(['auth', 'status', '--json', '--profile', 'home'], {
      env: { WSCTL_CONFIG_DIR: config, WSCTL_PROFILE: 'default' },
      cwd: deep,
    });
    expect(JSON.parse(flag.stdout)).toMatchObject({ profile: 'home', profile_source: 'flag' });
    const elsewhere = tempDir();
    const current = await status({}, elsewhere);
    expect(current).toMatchObject({ profile: 'home', profile_source: 'current' });
    expect(current).not.toHaveProperty('pin_file');
    const fresh = tempDir();
    writeFileSync(join(fresh, 'config.json'), JSON.stringify({ profiles: { default: { base_url: sb.url, api_key: sb.key } } }));
    const r = await run(['auth', 'status', '--json'], { env: { WSCTL_CONFIG_DIR: fresh }, cwd: elsewhere });
    expect(JSON.parse(r.stdout)).toMatchObject({ profile: 'default', profile_source: 'default' });
    // The nearest pin wins.
    writeFileSync(join(project, 'a', '.wsctl-profile'), 'default\n');
    expect(await status({}, deep)).toMatchObject({
      profile: 'default',
      profile_source: 'pin',
      pin_file: join(project, 'a', '.wsctl-profile'),
    });
  });

  it('auth status names the source on a terminal and piped', async () => {
    writeFileSync(join(project, '.wsctl-profile'), 'work\n');
    const piped = await run(['auth', 'status'], { env: { WSCTL_CONFIG_DIR: config }, cwd: deep });
    expect(piped.stdout).toContain(`profile\twork\nprofile_source\tpin\npin_file\t${join(project, '.wsctl-profile')}\n`);
    const tty = await run(['auth', 'status'], { env: { WSCTL_CONFIG_DIR: config }, cwd: deep, tty: true, columns: 200 });
    expect(tty.stdout).toContain(`from the pin file ${join(project, '.wsctl-profile')}`);
  });

  it('a destructive confirmation names the profile and where it came from', async () => {
    writeFileSync(join(project, '.wsctl-profile'), 'work\n');
    const pinned = await run(['device', 'rm', 'dev_phone'], {
      env: { WSCTL_CONFIG_DIR: config },
      cwd: deep,
      tty: true,
      stdinTTY: true,
      answers: ['n'],
      columns: 1000,
    });
    expect(pinned.prompts).toEqual([
      `Remove device 'dev_phone' (profile 'work' from the pin file ${join(project, '.wsctl-profile')}, ${sb.url})?`,
    ]);
    const flagged = await run(['device', 'rm', 'dev_phone', '--profile', 'home'], {
      env: { WSCTL_CONFIG_DIR: config },
      cwd: deep,
      tty: true,
      stdinTTY: true,
      answers: ['n'],
    });
    expect(flagged.prompts[0]).toContain(`(profile 'home' from --profile, ${sb.url})?`);
    const current = await run(['conn', 'rm', 'gmail', 'pdc_gmail'], {
      env: { WSCTL_CONFIG_DIR: config },
      cwd: tempDir(),
      tty: true,
      stdinTTY: true,
      answers: ['n'],
    });
    expect(current.prompts[0]).toContain(`(current profile 'home', ${sb.url})?`);
    expect(sb.requests).toHaveLength(0);
  });

  const hostile: [string, string, string][] = [
    ['a URL', 'https://evil.example.com\n', 'holds a URL'],
    ['a key', 'wsk_live_0123456789abcdef\n', 'does not name an existing profile'],
    ['two lines', 'work\nhome\n', 'has more than one line'],
    ['an unknown name', 'nobody\n', 'does not name an existing profile'],
    ['an invalid profile name', 'work home\n', 'does not hold a profile name'],
    ['nothing', '', 'is empty'],
  ];
  it.each(hostile)('a pin holding %s is exit 2 naming the file, and nothing is sent', async (_what, text, said) => {
    const pin = join(project, '.wsctl-profile');
    writeFileSync(pin, text);
    // Even with the key and base URL from the environment, a pin in effect is checked.
    for (const env of [{ WSCTL_CONFIG_DIR: config }, { WSCTL_CONFIG_DIR: config, WSCTL_BASE_URL: sb.url, WSCTL_API_KEY: sb.key }]) {
      const r = await run(['keys', 'list'], { env, cwd: deep });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`The pin file ${pin} ${said}`);
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      // What the file holds may be the first line of any file: no message repeats it.
      for (const line of text.split('\n').filter((l) => l.length > 3)) expect(r.stderr).not.toContain(line);
    }
    expect(sb.requests).toHaveLength(0);
    // --profile and WSCTL_PROFILE come first: the pin is not read.
    expect((await run(['keys', 'list', '--profile', 'work'], { env: { WSCTL_CONFIG_DIR: config }, cwd: deep })).code).toBe(0);
  });

  it('the built wsctl honours a pin in its working folder', async () => {
    writeFileSync(join(project, '.wsctl-profile'), 'work\n');
    const r = await runBin(['auth', 'status', '--json'], { env: { WSCTL_CONFIG_DIR: config }, cwd: deep });
    expect(JSON.parse(r.stdout)).toMatchObject({ profile: 'work', profile_source: 'pin', pin_file: join(project, '.wsctl-profile') });
    writeFileSync(join(project, '.wsctl-profile'), 'https://evil.example.com\n');
    sb.requests.length = 0;
    const bad = await runBin(['keys', 'list'], { env: { WSCTL_CONFIG_DIR: config }, cwd: deep });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(join(project, '.wsctl-profile'));
    expect(sb.requests).toHaveLength(0);
  });
});

describe('profile pin and unpin', () => {
  let sb: TestSandbox;
  let config: string;
  let folder: string;
  beforeEach(async () => {
    sb = await startSandbox();
    config = configWith(sb);
    folder = tempDir();
  });
  const env = () => ({ WSCTL_CONFIG_DIR: config });

  it('pin writes the name and a newline in the working folder; the folders below use it; unpin removes it', async () => {
    const pin = join(folder, '.wsctl-profile');
    const r = await run(['profile', 'pin', 'work', '--json'], { env: env(), cwd: folder });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ profile: 'work', pin_file: pin });
    expect(readFileSync(pin, 'utf8')).toBe('work\n');
    const below = join(folder, 'src', 'deep');
    mkdirSync(below, { recursive: true });
    expect(JSON.parse((await run(['auth', 'status', '--json'], { env: env(), cwd: below })).stdout)).toMatchObject({
      profile: 'work',
      profile_source: 'pin',
    });
    const human = await run(['profile', 'pin', 'default'], { env: env(), cwd: folder });
    expect(human.stdout).toContain("Pinned profile 'default'");
    expect(readFileSync(pin, 'utf8')).toBe('default\n');
    const un = await run(['profile', 'unpin', '--json'], { env: env(), cwd: folder });
    expect(JSON.parse(un.stdout)).toEqual({ removed: true, pin_file: pin });
    expect(existsSync(pin)).toBe(false);
    const again = await run(['profile', 'unpin'], { env: env(), cwd: folder });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to remove');
    expect(sb.requests).toHaveLength(1);
  });

  it('--dry-run writes and removes nothing', async () => {
    const pin = join(folder, '.wsctl-profile');
    const dry = await run(['profile', 'pin', 'work', '--dry-run', '--json'], { env: env(), cwd: folder });
    expect(JSON.parse(dry.stdout)).toEqual({ profile: 'work', pin_file: pin, dry_run: true });
    expect(existsSync(pin)).toBe(false);
    writeFileSync(pin, 'home\n');
    const unDry = await run(['profile', 'unpin', '--dry-run'], { env: env(), cwd: folder });
    expect(unDry.stdout).toContain(`Would remove ${pin}`);
    expect(readFileSync(pin, 'utf8')).toBe('home\n');
  });

  it('pin of an unknown or invalid profile is exit 2 and writes nothing', async () => {
    for (const [name, said] of [
      ['nobody', "No profile 'nobody'"],
      ['https://x.example.com', 'Invalid profile name'],
    ]) {
      const r = await run(['profile', 'pin', name], { env: env(), cwd: folder });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(said);
      expect(existsSync(join(folder, '.wsctl-profile'))).toBe(false);
    }
  });

  it('the built wsctl pins and unpins in its working folder', async () => {
    const pin = await runBin(['profile', 'pin', 'home'], { env: env(), cwd: folder });
    expect(pin.code).toBe(0);
    expect(readFileSync(join(folder, '.wsctl-profile'), 'utf8')).toBe('home\n');
    expect((await runBin(['profile', 'unpin'], { env: env(), cwd: folder })).code).toBe(0);
    expect(existsSync(join(folder, '.wsctl-profile'))).toBe(false);
  });
});
