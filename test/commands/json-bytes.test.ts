// --json and api print the service's numbers, escapes and key order exactly as it wrote them
// (cli.md §3), and every document escapes control and invisible characters, piped as on a
// terminal: against a server that answers each path with a body JSON.parse would change.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { run, tempDir } from '../helpers.js';

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

// What JSON.parse then JSON.stringify would change: 1e1000 → null, the big integer rounded,
// -0 → 0, 1.0 → 1, "2" before "1" reordered, \u00e9 and \/ unescaped.
const NUMBERS = '"n": [1e1000, 100000000000000000001, -0, 1.0], "o": {"2": "two", "1": "\\u00e9\\/"}';
const PRINTED = ['1e1000,', '100000000000000000001,', '-0,', '1.0', '"2": "two",', '"1": "\\u00e9\\/"'];

const BODIES: Record<string, string> = {
  'GET /settings/': `{"timezone": "Europe/Lisbon", ${NUMBERS}}`,
  'GET /capabilities/': `{"text_agent": null, ${NUMBERS}}`,
  'GET /api-keys/': `{"keys": [], ${NUMBERS}}`,
  'POST /api-keys/': `{"id": "key_1", "name": "ci", "key": "wsk_new_secret_0123456789", ${NUMBERS}}`,
  'POST /user-services/create-website': `{"data": {"name": "s", "path": "/s", "local_port": 8080.0}, "error": null, ${NUMBERS}}`,
  'GET /x': `{${NUMBERS}}`,
  'GET /conversations/conv_n': `{"conversation": {"id": "conv_n", ${NUMBERS}}, "messages": [{"kind": "request", ${NUMBERS}}], "state": "idle"}`,
};

async function serve(): Promise<Record<string, string>> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = BODIES[`${req.method} ${req.url}`];
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
      res.end(body ?? '{"detail": "Not found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return {
    WSCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    WSCTL_API_KEY: 'wsk_bytes_test_key_0123',
    WSCTL_CONFIG_DIR: tempDir(),
  };
}

describe('--json prints the service’s bytes', () => {
  it.each([
    [['settings', '--json']],
    [['caps', '--json']],
    [['keys', 'list', '--json']],
    [['keys', 'create', 'ci', '--json']],
    [['site', 'create', 's', '--json']],
    [['api', '/x', '--json']],
    [['api', '/x']],
    [['convo', 'show', 'conv_n', '--json']],
  ])('%j: numbers, escapes and key order unchanged, re-indented', async (args) => {
    const env = await serve();
    const r = await run(args, { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').map((line) => line.trim());
    for (const line of PRINTED) expect(lines).toContain(line);
    expect(r.stdout.indexOf('"2"')).toBeLessThan(r.stdout.indexOf('"1"'));
    if (args[0] === 'site') expect(r.stdout).toContain('"local_port": 8080.0');
  });

  it('convo show --follow --json: each line is the service’s bytes, on one line', async () => {
    const env = await serve();
    const r = await run(['convo', 'show', 'conv_n', '--follow', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      '{"conversation":{"id":"conv_n","n":[1e1000,100000000000000000001,-0,1.0],"o":{"2":"two","1":"\\u00e9\\/"}},"state":"idle"}',
      '{"kind":"request","n":[1e1000,100000000000000000001,-0,1.0],"o":{"2":"two","1":"\\u00e9\\/"}}',
      '{"state":"idle"}',
    ]);
  });

  it('--jq still filters the values', async () => {
    const env = await serve();
    const r = await run(['settings', '--jq', '.timezone'], { env });
    expect([r.code, r.stdout]).toEqual([0, 'Europe/Lisbon\n']);
    const keys = await run(['api', '/x', '--jq', '.o["2"]'], { env });
    expect([keys.code, keys.stdout]).toEqual([0, 'two\n']);
  });
});
