// Under an AI agent (cli.md §11), in-process against a real sandbox server: each agent policy
// against reads, writes, deletions, --force and `api -X`, refused with exit 4 and nothing sent,
// allowed without an agent; `profile agents` (narrow, never widen under an agent; --dry-run;
// --json), `profile list` and `auth status` showing the policy; prompts turned off; the
// User-Agent naming the agent; --debug saying who told.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AGENT_POLICIES, type AgentPolicy } from '../../src/common/agent.js';
import { BIN, run, runBin, startSandbox, type TestSandbox } from '../helpers.js';

const CLAUDE = { CLAUDECODE: '1' };
const config = (sb: TestSandbox) => JSON.parse(readFileSync(join(sb.env.WSCTL_CONFIG_DIR, 'config.json'), 'utf8'));

/** A command and what it does: read (GET only), write, or destructive (DELETE, --force). */
const COMMANDS: [kind: 'read' | 'write' | 'destructive', args: string[]][] = [
  ['read', ['keys', 'list']],
  ['read', ['convo', 'show', 'conv_demo', '--tail', '1']],
  ['read', ['api', '/settings/']],
  ['read', ['api', '-X', 'GET', '/api-keys/', '-f', 'limit=1']],
  ['write', ['keys', 'create', 'ci']],
  ['write', ['conn', 'set-permission', 'gmail', 'pdc_gmail', 'read']],
  ['write', ['notes', 'import', 'page_demo']],
  ['write', ['site', 'create', 'launch']],
  ['write', ['api', '/api-keys/', '-f', 'name=x']],
  ['write', ['api', '-X', 'PATCH', '/connections/gmail/pdc_gmail/permission', '-f', 'permission=read']],
  ['destructive', ['device', 'rm', 'dev_phone', '--yes']],
  ['destructive', ['device', 'rm', 'dev_phone']],
  ['destructive', ['conn', 'rm', 'gmail', 'pdc_gmail', '--yes']],
  ['destructive', ['pub', 'rm', 'pub_demo', '--yes']],
  ['destructive', ['site', 'create', 'launch', '--force']],
  ['destructive', ['api', '-X', 'DELETE', '/devices/dev_phone']],
];

const refuses = (policy: AgentPolicy, kind: string) =>
  (policy === 'read-only' && kind !== 'read') || (policy === 'no-destructive' && kind === 'destructive');

/** Each policy with each command: [policy, kind, args]. */
const MATRIX = AGENT_POLICIES.flatMap((policy) => COMMANDS.map(([kind, args]) => [policy, kind, args] as const));

describe('the agent policy of a profile', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });
  const setPolicy = async (policy: AgentPolicy, profile = 'default') =>
    expect((await run(['profile', 'agents', profile, policy], { env: sb.env })).code).toBe(0);

  it.each(MATRIX)('%s, %s: %j', async (policy, kind, args) => {
    await setPolicy(policy);
    // Under an agent, on a terminal that could have asked: the policy comes before any confirmation.
    const agent = await run(args, { env: { ...sb.env, ...CLAUDE }, tty: true, stdinTTY: true, answers: ['y'], columns: 1000 });
    expect(agent.prompts).toEqual([]);
    if (refuses(policy, kind)) {
      expect(agent.code, agent.stderr).toBe(4);
      expect(agent.stderr).toMatch(
        new RegExp(`^Error: The agent policy of profile 'default' is ${policy}: AI agents may (only read|not delete or replace)`),
      );
      expect(agent.stderr.trim().split('\n')).toHaveLength(1);
      expect(sb.requests).toHaveLength(0);
    } else if ((args.includes('rm') || args.includes('DELETE')) && !args.includes('--yes')) {
      // Allowed, but no prompt: the hint names --yes.
      expect(agent.code, agent.stderr).toBe(2);
      expect(agent.stderr).toContain('pass --yes');
      expect(sb.requests).toHaveLength(0);
    } else {
      expect(agent.code, agent.stderr).toBe(0);
      expect(sb.requests.length).toBeGreaterThan(0);
    }
  });

  it.each(COMMANDS.filter(([kind]) => kind !== 'read'))('without an agent, read-only changes nothing: %s %j runs', async (_kind, args) => {
    await setPolicy('read-only');
    const r = await run([...args, ...(args.includes('rm') || args.includes('DELETE') ? ['--yes'] : [])], {
      env: { ...sb.env, WSCTL_AGENT: '0', CLAUDECODE: '1' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sb.requests.length).toBeGreaterThan(0);
  });

  it('the policy refuses --dry-run and --json alike, as one JSON error', async () => {
    await setPolicy('no-destructive');
    const dry = await run(['device', 'rm', 'dev_phone', '--dry-run'], { env: { ...sb.env, CURSOR_AGENT: '1' } });
    expect(dry.code).toBe(4);
    const json = await run(['pub', 'rm', 'pub_demo', '--yes', '--json'], { env: { ...sb.env, CURSOR_AGENT: '1' } });
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stderr).error).toMatchObject({
      exit_code: 4,
      reason: 'policy_refused',
      message: expect.stringContaining("profile 'default' is no-destructive"),
    });
    expect(sb.requests).toHaveLength(0);
  });

  it('the built wsctl refuses the same way, and sends nothing', async () => {
    expect((await runBin(['profile', 'agents', 'default', 'no-destructive'], { env: sb.env })).code).toBe(0);
    const rm = await runBin(['device', 'rm', 'dev_phone', '--yes'], { env: { ...sb.env, CLAUDECODE: '1' } });
    expect(rm.code).toBe(4);
    expect(rm.stderr).toMatch(
      /^Error: The agent policy of profile 'default' is no-destructive: AI agents may not delete or replace, and this command deletes\. /,
    );
    const api = await runBin(['api', '-X', 'DELETE', '/devices/dev_phone'], { env: { ...sb.env, CLAUDECODE: '1' } });
    expect(api.code).toBe(4);
    expect(sb.requests).toHaveLength(0);
    expect((await runBin(['keys', 'create', 'ci'], { env: { ...sb.env, CLAUDECODE: '1' } })).code).toBe(0);
  });

  it('follows the profile in effect: --profile and WSCTL_PROFILE', async () => {
    await setPolicy('read-only', 'work');
    const named = await run(['--profile', 'work', 'keys', 'create', 'x'], { env: { ...sb.env, ...CLAUDE } });
    expect(named.code).toBe(4);
    expect(named.stderr).toContain("profile 'work' is read-only");
    expect((await run(['keys', 'create', 'x'], { env: { ...sb.env, ...CLAUDE, WSCTL_PROFILE: 'work' } })).code).toBe(4);
    expect(sb.requests).toHaveLength(0);
    // The default profile has no policy: full.
    expect((await run(['keys', 'create', 'x'], { env: { ...sb.env, ...CLAUDE } })).code).toBe(0);
  });
});

describe('wsctl profile agents', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('sets the policy, --json says what changed, and profile list and auth status show it ("full" when none is set)', async () => {
    writeFileSync(
      join(sb.env.WSCTL_CONFIG_DIR, 'config.json'),
      JSON.stringify({ current_profile: 'default', profiles: { default: { base_url: sb.url }, work: { base_url: sb.url } } }),
    );
    const set = await run(['profile', 'agents', 'work', 'no-destructive', '--json'], { env: sb.env });
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ profile: 'work', agents: 'no-destructive', previous: 'full', changed: true });
    expect(config(sb).profiles.work).toEqual({ base_url: sb.url, agents: 'no-destructive' });
    const again = await run(['profile', 'agents', 'work', 'no-destructive'], { env: sb.env });
    expect(again.stdout).toBe("The agent policy of profile 'work' is already no-destructive. Nothing was changed.\n");
    const people = await run(['profile', 'agents', 'work', 'read-only'], { env: sb.env });
    expect(people.stdout).toBe("Profile 'work': AI agents may only read (read-only).\n");

    const list = JSON.parse((await run(['profile', 'list', '--json'], { env: sb.env })).stdout);
    expect(list.profiles.map((p: { name: string; agents: string }) => [p.name, p.agents])).toEqual([
      ['default', 'full'],
      ['work', 'read-only'],
    ]);
    expect((await run(['profile', 'list'], { env: sb.env })).stdout).toBe(
      `default\t${sb.url}\tfalse\ttrue\tfull\nwork\t${sb.url}\tfalse\tfalse\tread-only\n`,
    );
    const status = await run(['auth', 'status', '--json', '--profile', 'work'], { env: sb.env });
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'work', valid: true, agents: 'read-only' });
    expect(JSON.parse((await run(['auth', 'status', '--json'], { env: sb.env })).stdout)).toMatchObject({
      profile: 'default',
      agents: 'full',
    });
    expect((await run(['auth', 'status', '--profile', 'work'], { env: sb.env })).stdout).toContain('agents\tread-only\n');

    // full removes the setting.
    await run(['profile', 'agents', 'work', 'full'], { env: sb.env });
    expect(config(sb).profiles.work).toEqual({ base_url: sb.url });
  });

  it('a profile not logged in to yet gets the policy (its key may come from WSCTL_API_KEY)', async () => {
    const r = await run(['profile', 'agents', 'ci', 'read-only'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(config(sb).profiles.ci).toEqual({ agents: 'read-only' });
  });

  it('--dry-run says what it would change and writes nothing', async () => {
    writeFileSync(join(sb.env.WSCTL_CONFIG_DIR, 'config.json'), JSON.stringify({ profiles: { work: { base_url: sb.url } } }));
    const before = readFileSync(join(sb.env.WSCTL_CONFIG_DIR, 'config.json'), 'utf8');
    const r = await run(['profile', 'agents', 'work', 'read-only', '--dry-run'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Would set the agent policy of profile 'work' to read-only (from full). Nothing was changed (--dry-run).\n");
    const json = await run(['profile', 'agents', 'work', 'read-only', '--dry-run', '--json'], { env: sb.env });
    expect(JSON.parse(json.stdout)).toEqual({ profile: 'work', agents: 'read-only', previous: 'full', changed: true, dry_run: true });
    expect(readFileSync(join(sb.env.WSCTL_CONFIG_DIR, 'config.json'), 'utf8')).toBe(before);
  });

  it('under an agent it may narrow a policy, never widen it (exit 4), nor delete a narrowed profile', async () => {
    const agent = { ...sb.env, OPENCODE: '1' };
    expect((await run(['profile', 'agents', 'default', 'no-destructive'], { env: agent })).code).toBe(0);
    expect((await run(['profile', 'agents', 'default', 'read-only'], { env: agent })).code).toBe(0);
    for (const wider of ['no-destructive', 'full']) {
      for (const dry of [[], ['--dry-run']]) {
        const r = await run(['profile', 'agents', 'default', wider, ...dry], { env: agent });
        expect(r.code, wider).toBe(4);
        expect(r.stderr).toBe(
          `Error: The agent policy of profile 'default' is read-only, and an AI agent (opencode) may narrow it but not widen it from read-only to ${wider}. A person must run this command.\n`,
        );
      }
    }
    const rm = await run(['profile', 'rm', 'default'], { env: agent });
    expect(rm.code).toBe(4);
    expect(rm.stderr).toContain('may narrow it but not delete the profile');
    expect(config(sb).profiles.default).toEqual({ agents: 'read-only' });
    // A person may widen it again.
    expect((await run(['profile', 'agents', 'default', 'full'], { env: sb.env })).code).toBe(0);
    expect(config(sb).profiles.default).toEqual({});
  });

  it('a config whose "agents" is not a policy is reported, never rewritten', async () => {
    const file = join(sb.env.WSCTL_CONFIG_DIR, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { agents: 'none' } } }));
    const r = await run(['profile', 'list'], { env: sb.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"agents" of profile "default" is not one of "full", "no-destructive", "read-only"');
  });
});

describe('under an agent, what a person would be asked', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('is never asked, even on a terminal: exit 2 naming the flag that answers', async () => {
    const rm = await run(['device', 'rm', 'dev_phone'], {
      env: { ...sb.env, GEMINI_CLI: '1' },
      tty: true,
      stdinTTY: true,
      answers: ['y'],
      columns: 1000,
    });
    expect(rm.code).toBe(2);
    expect(rm.prompts).toEqual([]);
    expect(rm.stderr).toBe(
      "Error: Prompts are off under an AI agent (gemini-cli, from GEMINI_CLI): pass --yes to remove device 'dev_phone'.\n" +
        'Next: wsctl device rm dev_phone --yes\n',
    );
    const login = await run(['auth', 'login'], {
      env: { WSCTL_CONFIG_DIR: sb.env.WSCTL_CONFIG_DIR, WSCTL_BASE_URL: sb.url, AI_AGENT: 'goose' },
      tty: true,
      stdinTTY: true,
      answers: [sb.key],
    });
    expect(login.code).toBe(2);
    expect(login.prompts).toEqual([]);
    expect(login.stderr).toContain('--with-key');
    expect(sb.requests).toHaveLength(0);
    // The same terminal without an agent asks.
    const person = await run(['device', 'rm', 'dev_phone'], { env: sb.env, tty: true, stdinTTY: true, answers: ['y'] });
    expect(person.code).toBe(0);
    expect(person.prompts).toHaveLength(1);
  });
});

describe('the User-Agent and --debug', () => {
  it('requests carry agent/<name>; without an agent, wsctl/<version> alone', async () => {
    const sb = await startSandbox();
    const ua = () => sb.requests.at(-1)!.headers['user-agent'];
    await run(['keys', 'list'], { env: { ...sb.env, ...CLAUDE } });
    expect(ua()).toBe('wsctl/0.0.0-test agent/claude-code');
    await run(['keys', 'list'], { env: { ...sb.env, WSCTL_AGENT: 'My Bot 2!' } });
    expect(ua()).toBe('wsctl/0.0.0-test agent/MyBot2');
    await run(['keys', 'list'], { env: { ...sb.env, WSCTL_AGENT: 'off', CLAUDECODE: '1' } });
    expect(ua()).toBe('wsctl/0.0.0-test');
    await run(['keys', 'list'], { env: sb.env });
    expect(ua()).toBe('wsctl/0.0.0-test');
  });

  it('the built wsctl sends it too', async () => {
    const sb = await startSandbox();
    const version = JSON.parse(readFileSync(join(BIN, '..', '..', 'package.json'), 'utf8')).version;
    const r = await runBin(['api', '/settings/'], { env: { ...sb.env, CODEX_SANDBOX: 'seatbelt' } });
    expect(r.code, r.stderr).toBe(0);
    expect(sb.requests.at(-1)!.headers['user-agent']).toBe(`wsctl/${version} agent/codex`);
  });

  it('--debug names the agent and the variable that told, or the variable that said there is none', async () => {
    const sb = await startSandbox();
    const told = await run(['keys', 'list', '--debug'], { env: { ...sb.env, AI_AGENT: 'goose', CLAUDECODE: '1' } });
    expect(told.stderr).toContain('agent: goose, from AI_AGENT\n');
    const none = await run(['keys', 'list'], { env: { ...sb.env, WSCTL_DEBUG: '1', WSCTL_AGENT: '0', CLAUDECODE: '1' } });
    expect(none.stderr).toContain('agent: none (WSCTL_AGENT says so)\n');
    const quiet = await run(['keys', 'list'], { env: { ...sb.env, ...CLAUDE } });
    expect(quiet.stderr).not.toContain('agent:');
  });
});
