// The endpoint table against everything that must follow it: each endpoint is reached by the
// commands listed for it (with the method and path of the table), every command of the tree
// either calls the service or is known to be local, and the sandbox serves every endpoint.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, loadCommands } from '../src/program.js';
import { handlers, routes } from '../src/sandbox/routes.js';
import { compileTemplate, endpointNames, endpoints, fillPath, matchTemplate, request } from '../src/service.js';
import { verbPaths } from '../src/visible.js';
import type { App } from '../src/command.js';
import { LOCAL_COMMANDS, samples, serviceCalls } from './endpoints.js';
import { run, startSandbox } from './helpers.js';

async function leafCommands(): Promise<string[]> {
  const app: App = { run: async () => {}, loadAll: (p: Command) => loadCommands(p, app, 'all') };
  const program = buildProgram('0.0.0-test', { writeOut: () => {}, writeErr: () => {}, onUsageError: () => {} });
  await app.loadAll(program);
  return verbPaths(program);
}

describe('the endpoint table', () => {
  it('has the 14 endpoints of the interface, each with a handler in the sandbox', () => {
    expect(endpointNames).toHaveLength(14);
    expect(Object.keys(handlers).sort()).toEqual([...endpointNames].sort());
    for (const name of endpointNames) {
      expect(routes.some((r) => r.template === endpoints[name].path && r.method === endpoints[name].method), name).toBe(true);
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

  it('every command of the tree calls an endpoint of the table or is known to be local', async () => {
    const sampled = new Set(Object.values(samples).flatMap((list) => list.map((args) => args.filter((a) => !a.startsWith('-')).slice(0, 2).join(' '))));
    const leaves = await leafCommands();
    for (const leaf of leaves) {
      const calls = [...sampled].some((s) => s === leaf || s.startsWith(`${leaf} `));
      expect(calls || LOCAL_COMMANDS.includes(leaf), `'${leaf}' is neither sampled in test/endpoints.ts nor local`).toBe(true);
    }
    for (const local of LOCAL_COMMANDS) expect(leaves, local).toContain(local);
  });

  it('fills path parameters into one encoded segment each', () => {
    expect(fillPath(endpoints.removeDevice.path, { device_id: 'a/b?c#d%e' })).toBe('/devices/a%2Fb%3Fc%23d%25e');
    expect(fillPath(endpoints.removeConnection.path, { app_slug: '..', pd_conn_id: 'x y' })).toBe('/connections/%2E%2E/x%20y');
    expect(() => fillPath(endpoints.removeDevice.path, {})).toThrow(/device_id/);
    expect(request('listKeys')).toMatchObject({ method: 'GET', path: '/api-keys/', schema: 'ApiKeyList' });
    expect(request('removeDevice', { params: { device_id: 'd' } })).toMatchObject({ method: 'DELETE', path: '/devices/d', anyBody: true, schema: undefined });
    expect(request('setConnectionPermission', { params: { app_slug: 'a', pd_conn_id: 'b' }, body: { permission: 'read' } })).toMatchObject({ idempotent: true, body: { permission: 'read' } });
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
