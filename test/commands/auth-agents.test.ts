// The local commands that lose or show a credential under an AI agent (cli.md §11): `auth logout`
// and `auth token` follow the agent policy of the profile they act on (each one for `logout
// --all`, which removes none while any refuses): refused under read-only and no-destructive with
// exit 4 and a line naming the policy and the profile, allowed under full and without an agent.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../helpers.js';

const URL = 'https://api.example.com';

/** A config folder with a key in the file for each profile, under the policy its name says. */
function profiles(): { dir: string; text: () => string } {
  const dir = tempDir();
  const data = {
    current_profile: 'full',
    profiles: {
      full: { base_url: URL, api_key: 'wsk_full_profile_key_1', agents: 'full' },
      ro: { base_url: URL, api_key: 'wsk_read_only_key_2', agents: 'read-only' },
      nd: { base_url: URL, api_key: 'wsk_no_destructive_key_3', agents: 'no-destructive' },
      unset: { base_url: URL, api_key: 'wsk_no_policy_key_4' },
    },
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(data), { mode: 0o600 });
  return { dir, text: () => readFileSync(join(dir, 'config.json'), 'utf8') };
}

const refusal = (profile: string, policy: string, what: string, nothing: string) =>
  `Error: The agent policy of profile '${profile}' is ${policy}: AI agents may not ${what}. ${nothing}; a person can change the policy with \`wsctl profile agents ${profile} <full|no-destructive|read-only>\`.\n`;

describe('auth token and auth logout under an agent', () => {
  it.each([
    ['ro', 'read-only'],
    ['nd', 'no-destructive'],
  ])('auth token for a %s profile is refused (exit 4), nothing printed', async (profile, policy) => {
    const { dir } = profiles();
    const r = await run(['auth', 'token', '--profile', profile], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_AGENT: 'ci-bot' } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(refusal(profile, policy, "see a profile's key (auth token would print it)", 'Nothing was printed'));
  });

  it('auth token follows the profile in effect: a pin or WSCTL_PROFILE naming a read-only profile is refused', async () => {
    const { dir, text } = profiles();
    const r = await run(['auth', 'token'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_PROFILE: 'ro', CLAUDECODE: '1' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("The agent policy of profile 'ro' is read-only");
    // A pin file in the working folder (or above it) names the profile: token and logout follow its policy.
    const project = tempDir();
    writeFileSync(join(project, '.wsctl-profile'), 'ro\n');
    const cwd = join(project, 'src');
    mkdirSync(cwd);
    const before = text();
    const token = await run(['auth', 'token'], { env: { WSCTL_CONFIG_DIR: dir, CLAUDECODE: '1' }, cwd });
    expect([token.code, token.stdout, token.stderr]).toEqual([
      4,
      '',
      refusal('ro', 'read-only', "see a profile's key (auth token would print it)", 'Nothing was printed'),
    ]);
    const logout = await run(['auth', 'logout'], { env: { WSCTL_CONFIG_DIR: dir, CLAUDECODE: '1' }, cwd });
    expect([logout.code, logout.stdout, logout.stderr]).toEqual([
      4,
      '',
      refusal('ro', 'read-only', 'remove a stored key', 'Nothing was removed'),
    ]);
    expect(text()).toBe(before);
    // Without an agent the pin's profile is the one printed.
    const person = await run(['auth', 'token'], { env: { WSCTL_CONFIG_DIR: dir }, cwd });
    expect([person.code, person.stdout]).toEqual([0, 'wsk_read_only_key_2\n']);
  });

  it('auth token with the key and base URL from the environment prints that key without reading config.json, whatever its policy', async () => {
    const { dir } = profiles();
    const key = 'wsk_from_the_agents_environment_5';
    const agentEnv = { WSCTL_CONFIG_DIR: dir, CLAUDECODE: '1', WSCTL_API_KEY: key };
    // The agent holds this key already: the policy of the profile in effect does not hide it.
    const ro = await run(['auth', 'token'], { env: { ...agentEnv, WSCTL_PROFILE: 'ro' } });
    expect([ro.code, ro.stdout, ro.stderr]).toEqual([0, `${key}\n`, '']);
    // A config.json that cannot be parsed is not read at all (cli.md §2).
    writeFileSync(join(dir, 'config.json'), '{ not json', { mode: 0o600 });
    const broken = await run(['auth', 'token'], { env: { ...agentEnv, WSCTL_BASE_URL: URL } });
    expect([broken.code, broken.stdout, broken.stderr]).toEqual([0, `${key}\n`, '']);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{ not json');
    // A key from the profile still needs config.json, and says so.
    const { WSCTL_API_KEY: _key, ...profileKey } = agentEnv;
    const needed = await run(['auth', 'token'], { env: { ...profileKey, WSCTL_BASE_URL: URL } });
    expect(needed.code).toBe(1);
    expect(needed.stderr).toContain(join(dir, 'config.json'));
  });

  it('auth token prints the key under full (set or not), and for any profile without an agent', async () => {
    const { dir } = profiles();
    for (const [profile, key] of [
      ['full', 'wsk_full_profile_key_1'],
      ['unset', 'wsk_no_policy_key_4'],
    ]) {
      const r = await run(['auth', 'token', '--profile', profile], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_AGENT: 'ci-bot' } });
      expect([r.code, r.stdout]).toEqual([0, `${key}\n`]);
    }
    const person = await run(['auth', 'token', '--profile', 'ro'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_AGENT: '0', CLAUDECODE: '1' } });
    expect([person.code, person.stdout]).toEqual([0, 'wsk_read_only_key_2\n']);
  });

  it.each([
    ['ro', 'read-only'],
    ['nd', 'no-destructive'],
  ])('auth logout of a %s profile is refused (exit 4) and config.json is untouched, --dry-run too', async (profile, policy) => {
    const { dir, text } = profiles();
    const before = text();
    for (const extra of [[], ['--dry-run']]) {
      const r = await run(['auth', 'logout', '--profile', profile, ...extra], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_AGENT: 'ci-bot' } });
      expect(r.code).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(refusal(profile, policy, 'remove a stored key', 'Nothing was removed'));
    }
    expect(text()).toBe(before);
  });

  it('auth logout --all removes none while any profile refuses; each profile is judged by its own policy', async () => {
    const { dir, text } = profiles();
    const before = text();
    const r = await run(['auth', 'logout', '--all'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_AGENT: 'ci-bot' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      refusal('ro', 'read-only', 'remove a stored key (auth logout --all removes none while any profile refuses)', 'Nothing was removed'),
    );
    expect(text()).toBe(before);
    // The full profile alone is allowed; without an agent, --all removes every key.
    const one = await run(['auth', 'logout', '--profile', 'full'], { env: { WSCTL_CONFIG_DIR: dir, WSCTL_AGENT: 'ci-bot' } });
    expect([one.code, one.stdout]).toEqual([0, "Removed the stored key of 'full'.\n"]);
    const person = await run(['auth', 'logout', '--all'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(person.code).toBe(0);
    expect(text()).not.toContain('wsk_');
  });
});
