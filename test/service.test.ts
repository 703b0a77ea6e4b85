// The endpoint table and the verbs' declarations against everything that must follow them: each
// endpoint is reached by the samples of the verbs that declare it (with the method and path of the
// table), each verb calls exactly the endpoints it declares, the command tree is the declarations,
// and the sandbox serves every endpoint.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, loadCommands } from '../src/cli/program.js';
import { handlers, routes } from '../src/sandbox/routes.js';
import { compileTemplate, endpointNames, endpoints, fillPath, matchTemplate, request } from '../src/service.js';
import { verbPaths } from '../src/common/visible.js';
import type { App } from '../src/verbs/declare.js';
import { endpointOf, LOCAL_COMMANDS, samplesOf, serviceCalls, VERBS } from './endpoints.js';
import { ROOT, run, runBin, startSandbox, tempDir } from './helpers.js';

/** service-interface.md §4, row by row. */
const INTERFACE = [
  'POST /api-keys/',
  'GET /api-keys/',
  'GET /conversations/{conversation_id}',
  'GET /capabilities/',
  'POST /connections/notes/import',
  'GET /settings/',
  'PATCH /connections/{app_slug}/{pd_conn_id}/permission',
  'POST /byok/',
  'DELETE /devices/{device_id}',
  'GET /pub/personas/{persona_id}/published',
  'POST /user-services/create-website',
  'POST /personas/upload-image',
  'DELETE /connections/{app_slug}/{pd_conn_id}',
  'DELETE /pub/{pub_id}',
];

async function treeWithEveryNoun(): Promise<Command> {
  const app: App = { run: async () => {}, loadAll: (p: Command) => loadCommands(p, app, 'all') };
  const program = buildProgram('0.0.0-test', { writeOut: () => {}, writeErr: () => {}, onUsageError: () => {} });
  await app.loadAll(program);
  return program;
}

async function leafCommands(): Promise<string[]> {
  return verbPaths(await treeWithEveryNoun());
}

describe('the endpoint table', () => {
  it('holds every endpoint of the interface (service-interface.md §4), each with a handler in the sandbox', () => {
    // The interface's own table, method and path as it writes them: the endpoint table may hold more.
    const table = endpointNames.map((name) => `${endpoints[name].method} ${endpoints[name].path}`);
    for (const endpoint of INTERFACE) expect(table, endpoint).toContain(endpoint);
    expect(Object.keys(handlers).sort()).toEqual([...endpointNames].sort());
    for (const name of endpointNames) {
      expect(
        routes.some((r) => r.template === endpoints[name].path && r.method === endpoints[name].method),
        name,
      ).toBe(true);
    }
  });

  it('every endpoint is reached by its commands with the method and path of the table (--dry-run)', async () => {
    const sb = await startSandbox();
    const reached = new Set<string>();
    for (const { endpoint, args } of serviceCalls()) {
      const r = await run([...args, '--dry-run', '--json'], { env: { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-test-0123456789' } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const sent = JSON.parse(r.stdout) as { method: string; url: string };
      const { method, path } = endpoints[endpoint];
      expect(sent.method, args.join(' ')).toBe(method);
      expect(matchTemplate(compileTemplate(path), new URL(sent.url).pathname), `${args.join(' ')} → ${sent.url}`).toBeDefined();
      reached.add(endpoint);
    }
    expect([...reached].sort()).toEqual([...endpointNames].sort());
    expect(sb.requests).toHaveLength(0);
  });

  it('the command tree is the declarations: every command a user sees is a declared verb, and every declared verb is in the tree', async () => {
    const declared = VERBS.map((v) => v.path.join(' '));
    const leaves = await leafCommands();
    expect(
      leaves.filter((leaf) => !declared.includes(leaf)),
      'commands not declared',
    ).toEqual([]);
    const program = await treeWithEveryNoun();
    const missing = declared.filter(
      (path) => path.split(' ').reduce<Command | undefined>((c, word) => c?.commands.find((s) => s.name() === word), program) === undefined,
    );
    expect(missing, 'declared verbs missing from the tree').toEqual([]);
    for (const local of LOCAL_COMMANDS) expect(declared, local).toContain(local);
  });

  it('each verb calls exactly the endpoints it declares: its samples, run for real by bin/wsctl, reach them and no other', async () => {
    const sb = await startSandbox();
    const env = { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-test-0123456789' };
    // A folder of their own: profile pin writes .wsctl-profile where it runs, which would pin every
    // other test's wsctl started in the repository meanwhile. The samples' files are found there.
    const cwd = tempDir();
    mkdirSync(join(cwd, 'test'));
    symlinkSync(join(ROOT, 'test', 'fixtures'), join(cwd, 'test', 'fixtures'));
    // The samples run in declared order (sandbox serve --detach before sandbox stop, auth login
    // before profile use): whatever fails on the way, no detached server outlives the test.
    try {
      for (const v of VERBS) {
        const seen = new Set<string>();
        for (const args of samplesOf(v)) {
          const before = sb.requests.length;
          // auth login reads the key from stdin; mcp serves until stdin ends.
          const r = await runBin(args, { env, stdin: `${sb.key}\n`, timeoutMs: 30_000, cwd });
          expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
          for (const request of sb.requests.slice(before))
            seen.add(endpointOf(request.method, request.path.split('?')[0] as string) ?? `${request.method} ${request.path}`);
        }
        const { endpoints: declared } = v.verb;
        const name = v.path.join(' ');
        if (declared === 'any') expect(seen.size, name).toBeGreaterThan(0);
        else expect([...seen].sort(), `${name} declares ${declared.join(', ') || 'no endpoint'}`).toEqual([...declared].sort());
      }
    } finally {
      await runBin(['sandbox', 'stop'], { env, timeoutMs: 30_000, cwd });
    }
  }, 180_000);

  it('fills path parameters into one encoded segment each', () => {
    expect(fillPath(endpoints.removeDevice.path, { device_id: 'a/b?c#d%e' })).toBe('/devices/a%2Fb%3Fc%23d%25e');
    expect(fillPath(endpoints.removeConnection.path, { app_slug: '..', pd_conn_id: 'x y' })).toBe('/connections/%2E%2E/x%20y');
    expect(() => fillPath(endpoints.removeDevice.path, {})).toThrow(/device_id/);
    expect(request('listKeys')).toMatchObject({ method: 'GET', path: '/api-keys/', schema: 'ApiKeyList' });
    expect(request('removeDevice', { params: { device_id: 'd' } })).toMatchObject({
      method: 'DELETE',
      path: '/devices/d',
      anyBody: true,
      schema: undefined,
    });
    expect(request('setConnectionPermission', { params: { app_slug: 'a', pd_conn_id: 'b' }, body: { permission: 'read' } })).toMatchObject({
      idempotent: true,
      body: { permission: 'read' },
    });
  });

  it('matches a template with or without its trailing slash, never across a segment', () => {
    const keys = compileTemplate('/api-keys/');
    expect(matchTemplate(keys, '/api-keys')).toEqual({});
    expect(matchTemplate(keys, '/api-keys/')).toEqual({});
    const device = compileTemplate('/devices/{device_id}');
    expect(matchTemplate(device, '/devices/a%2Fb')).toEqual({ device_id: 'a/b' });
    expect(matchTemplate(device, '/devices/a/b')).toBeUndefined();
  });
});
