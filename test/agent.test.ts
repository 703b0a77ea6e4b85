// Who runs wsctl (cli.md §11): the detection order as a table, the names it keeps, and the agent
// policy judged from the declarations alone (no network): which verbs read, write or delete, which
// options make them destructive, and what `wsctl mcp` offers under each policy.
import { describe, expect, it } from 'vitest';
import { AGENT_POLICIES, agentName, detectAgent, widens } from '../src/common/agent.js';
import { mcpOffer, policyRefusal, refusedBy } from '../src/verbs/agent-policy.js';
import { callChanges as effectOf } from '../src/verbs/changes.js';
import { offered, toolsOf } from '../src/mcp/tools.js';
import { declaredVerbs } from '../src/cli/program.js';
import { endpoints } from '../src/service.js';
import { VERBS } from './endpoints.js';

describe('detecting an agent', () => {
  it.each([
    ['nothing set', {}, {}],
    ['CLAUDECODE=1', { CLAUDECODE: '1' }, { agent: 'claude-code', variable: 'CLAUDECODE' }],
    ['CURSOR_AGENT=1', { CURSOR_AGENT: '1' }, { agent: 'cursor', variable: 'CURSOR_AGENT' }],
    ['GEMINI_CLI=1', { GEMINI_CLI: '1' }, { agent: 'gemini-cli', variable: 'GEMINI_CLI' }],
    ['CODEX_SANDBOX=seatbelt (any value)', { CODEX_SANDBOX: 'seatbelt' }, { agent: 'codex', variable: 'CODEX_SANDBOX' }],
    ['OPENCODE=true', { OPENCODE: 'true' }, { agent: 'opencode', variable: 'OPENCODE' }],
    ['CLAUDECODE empty', { CLAUDECODE: '' }, {}],
    ['CLAUDECODE=0', { CLAUDECODE: '0' }, {}],
    ['CLAUDECODE=false', { CLAUDECODE: 'false' }, {}],
    ['CLAUDECODE=" FALSE "', { CLAUDECODE: ' FALSE ' }, {}],
    ['CLAUDECODE=0 then CURSOR_AGENT=1', { CLAUDECODE: '0', CURSOR_AGENT: '1' }, { agent: 'cursor', variable: 'CURSOR_AGENT' }],
    [
      "two agents' variables: the first in the documented order",
      { OPENCODE: '1', CLAUDECODE: '1' },
      { agent: 'claude-code', variable: 'CLAUDECODE' },
    ],
    ["AI_AGENT before an agent's own variable", { AI_AGENT: 'goose', CLAUDECODE: '1' }, { agent: 'goose', variable: 'AI_AGENT' }],
    ['AI_AGENT=0 tells nothing', { AI_AGENT: '0', CLAUDECODE: '1' }, { agent: 'claude-code', variable: 'CLAUDECODE' }],
    [
      'WSCTL_AGENT=<name> before everything',
      { WSCTL_AGENT: 'ci-bot', AI_AGENT: 'goose', CLAUDECODE: '1' },
      { agent: 'ci-bot', variable: 'WSCTL_AGENT' },
    ],
    [
      'WSCTL_AGENT=0 says none, whatever else is set',
      { WSCTL_AGENT: '0', AI_AGENT: 'goose', CLAUDECODE: '1' },
      { variable: 'WSCTL_AGENT' },
    ],
    ['WSCTL_AGENT=false', { WSCTL_AGENT: 'false', CURSOR_AGENT: '1' }, { variable: 'WSCTL_AGENT' }],
    ['WSCTL_AGENT=" No "', { WSCTL_AGENT: ' No ', CURSOR_AGENT: '1' }, { variable: 'WSCTL_AGENT' }],
    ['WSCTL_AGENT=OFF', { WSCTL_AGENT: 'OFF', OPENCODE: '1' }, { variable: 'WSCTL_AGENT' }],
    ['WSCTL_AGENT=1 alone: an agent without a name', { WSCTL_AGENT: '1' }, { agent: 'unknown', variable: 'WSCTL_AGENT' }],
    [
      'WSCTL_AGENT=yes takes the name the others give',
      { WSCTL_AGENT: 'yes', CLAUDECODE: '1' },
      { agent: 'claude-code', variable: 'WSCTL_AGENT' },
    ],
    ['WSCTL_AGENT=on with AI_AGENT', { WSCTL_AGENT: 'On', AI_AGENT: 'goose' }, { agent: 'goose', variable: 'WSCTL_AGENT' }],
    ['WSCTL_AGENT empty is unset', { WSCTL_AGENT: '', GEMINI_CLI: '1' }, { agent: 'gemini-cli', variable: 'GEMINI_CLI' }],
  ])('%s', (_name, env, expected) => {
    expect(detectAgent(env as Record<string, string>)).toEqual(expected);
  });

  it.each([
    ['claude-code', 'claude-code'],
    ['My Agent/2.0 (beta)', 'MyAgent2.0beta'],
    ['agent\x1b[31m\nname', 'agent31mname'],
    ['a'.repeat(40), 'a'.repeat(32)],
    ['!!! ', 'unknown'],
    ['ünïcödé', 'ncd'],
  ])('the name %j is sent as %j', (raw, name) => {
    expect(agentName(raw)).toBe(name);
    expect(detectAgent({ WSCTL_AGENT: raw }).agent).toBe(name);
    expect(detectAgent({ AI_AGENT: raw }).agent).toBe(name);
  });
});

describe('the agent policy, from the declarations', () => {
  const verb = (path: string) => VERBS.find((v) => v.path.join(' ') === path)!.verb;
  const effects = (kind: string) =>
    // api's options as given without -X, -f or --input: a GET.
    VERBS.filter((v) => effectOf(v.verb, v.path[0] === 'api' ? { fields: [] } : {}) === kind)
      .map((v) => v.path.join(' '))
      .sort();

  it('a verb that calls a DELETE deletes; one that sends anything else but GET writes; every other reads', () => {
    // From the endpoint table, not from the policy's code: the methods each verb declares it sends.
    const sends = (v: (typeof VERBS)[number]) => (v.verb.endpoints === 'any' ? ['GET'] : v.verb.endpoints.map((e) => endpoints[e].method));
    const expected = (kind: string) =>
      VERBS.filter((v) => {
        const methods: string[] = sends(v);
        if (methods.includes('DELETE')) return kind === 'destructive';
        return methods.every((m) => m === 'GET') ? kind === 'none' : kind === 'write';
      })
        .map((v) => v.path.join(' '))
        .sort();
    for (const kind of ['destructive', 'write', 'none']) expect(effects(kind), kind).toEqual(expected(kind));
    // The ones cli.md §11 names, and one of each other kind.
    for (const path of ['conn rm', 'device rm', 'pub rm']) expect(effects('destructive')).toContain(path);
    for (const path of ['keys create', 'byok add', 'site create']) expect(effects('write')).toContain(path);
    for (const path of ['keys list', 'api', 'convo show', 'profile agents']) expect(effects('none')).toContain(path);
  });

  it('api is judged by the method it would send; --force is destructive wherever it is given', () => {
    const api = verb('api');
    expect(effectOf(api, { fields: [] })).toBe('none');
    expect(effectOf(api, { method: 'GET', fields: [['a', '1']] })).toBe('none');
    expect(effectOf(api, { fields: [['a', '1']] })).toBe('write');
    expect(effectOf(api, { fields: [], input: '-' })).toBe('write');
    expect(effectOf(api, { method: 'PATCH', fields: [] })).toBe('write');
    expect(effectOf(api, { method: 'HEAD', fields: [] })).toBe('write');
    expect(effectOf(api, { method: 'DELETE', fields: [] })).toBe('destructive');
    expect(effectOf(verb('site create'), { name: 'x', force: true })).toBe('destructive');
    expect(effectOf(verb('keys create'), { name: 'x', saveAs: 'p', force: true })).toBe('destructive');
    expect(effectOf(verb('site create'), { name: 'x', force: false })).toBe('write');
  });

  it.each([
    ['keys list', {}, [undefined, undefined, undefined]],
    ['keys create', { name: 'x' }, [undefined, undefined, 'read-only']],
    ['device rm', { deviceId: 'd', yes: true }, [undefined, 'no-destructive', 'read-only']],
    ['site create', { name: 'x', force: true }, [undefined, 'no-destructive', 'read-only']],
    ['api', { method: 'DELETE', fields: [] }, [undefined, 'no-destructive', 'read-only']],
    ['api', { method: 'POST', fields: [] }, [undefined, undefined, 'read-only']],
    ['api', { fields: [] }, [undefined, undefined, undefined]],
  ])('%s %j: refused by %j (full, no-destructive, read-only)', (path, opts, refusedBy) => {
    AGENT_POLICIES.forEach((policy, i) => {
      const refusal = policyRefusal(verb(path), opts, policy, 'work');
      if (refusedBy[i] === undefined) expect(refusal, policy).toBeUndefined();
      else expect(refusal, policy).toMatch(new RegExp(`^The agent policy of profile 'work' is ${policy}: `));
    });
  });

  it('widening goes towards full', () => {
    expect(widens('read-only', 'full')).toBe(true);
    expect(widens('read-only', 'no-destructive')).toBe(true);
    expect(widens('no-destructive', 'full')).toBe(true);
    expect(widens('full', 'read-only')).toBe(false);
    expect(widens('no-destructive', 'read-only')).toBe(false);
    expect(widens('read-only', 'read-only')).toBe(false);
  });

  it('wsctl mcp offers no tool the policy refuses, and refuses the force argument under no-destructive', async () => {
    const tools = toolsOf(await declaredVerbs());
    const names = (flags: { readOnly?: boolean; allowDestructive?: boolean }, policy: (typeof AGENT_POLICIES)[number]) =>
      offered(tools, mcpOffer(flags, policy));
    const all = names({ allowDestructive: true }, 'full');
    expect(all.map((t) => t.name)).toContain('device_rm');
    const noDestructive = names({ allowDestructive: true }, 'no-destructive');
    expect(noDestructive.map((t) => t.name).sort()).toEqual(
      all
        .filter((t) => t.changes !== 'destructive')
        .map((t) => t.name)
        .sort(),
    );
    const siteCreate = noDestructive.find((t) => t.name === 'site_create')!;
    expect(policyRefusal(siteCreate.verb, { name: 'x', force: true }, 'no-destructive', 'work')).toMatch(
      /no-destructive: AI agents may not delete or replace/,
    );
    expect(policyRefusal(siteCreate.verb, { name: 'x' }, 'no-destructive', 'work')).toBeUndefined();
    expect(names({ allowDestructive: true }, 'read-only').every((t) => t.changes === 'none')).toBe(true);
    expect(names({}, 'read-only').map((t) => t.name)).toEqual(names({ readOnly: true }, 'full').map((t) => t.name));
    // A policy only narrows: full leaves the server's own flags as they are.
    expect(mcpOffer({ readOnly: true }, 'full')).toEqual({ readOnly: true, allowDestructive: false });
  });

  it('one rule, refusedBy, decides for the command line and for wsctl mcp: its offer and its calls', async () => {
    // What each policy refuses, as cli.md §11 says it: read-only every change, no-destructive deletions and replacements.
    const changes = ['none', 'write', 'destructive'] as const;
    expect(Object.fromEntries(AGENT_POLICIES.map((p) => [p, changes.filter((c) => refusedBy(p, c))]))).toEqual({
      full: [],
      'no-destructive': ['destructive'],
      'read-only': ['write', 'destructive'],
    });
    const tools = toolsOf(await declaredVerbs());
    for (const policy of AGENT_POLICIES) {
      expect(
        offered(tools, mcpOffer({ allowDestructive: true }, policy)).map((t) => t.name),
        policy,
      ).toEqual(tools.filter((t) => !refusedBy(policy, t.changes)).map((t) => t.name));
      for (const v of VERBS)
        for (const opts of v.path[0] === 'api'
          ? [{ fields: [] }, { method: 'POST', fields: [] }, { method: 'DELETE', fields: [] }]
          : [{}, { force: true }])
          expect(policyRefusal(v.verb, opts, policy, 'work') !== undefined, `${policy} ${v.path.join(' ')} ${JSON.stringify(opts)}`).toBe(
            refusedBy(policy, effectOf(v.verb, opts)),
          );
    }
  });
});
