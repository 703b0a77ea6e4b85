// Keys are printed only by `keys create`; never in traces, dry runs, errors or status.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { run, runBin, startSandbox } from '../helpers.js';

describe('secrets', () => {
  it('no output of any command but keys create contains the key, with --debug, --dry-run, on errors and in status', async () => {
    const sb = await startSandbox();
    sb.faults.push({ path: '/settings', status: 500, times: 3 });
    const runs = [
      ['keys', 'list', '--debug'],
      ['keys', 'list', '--dry-run'],
      ['keys', 'list', '--dry-run', '--json'],
      ['settings', '--debug'],
      ['auth', 'status'],
      ['auth', 'status', '--json', '--debug'],
      ['convo', 'show', 'nope', '--debug'],
      ['device', 'rm', 'dev_phone', '--debug'],
      ['api', '/api-keys/', '--debug'],
    ];
    for (const args of runs) {
      const r = await run(args, { env: sb.env });
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(sb.key);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(sb.state.keys[1]!.key);
    }
    const created = await run(['keys', 'create', 'once', '--debug'], { env: sb.env });
    const secret = sb.state.keys.at(-1)!.key;
    expect(created.stdout).toContain(secret);
    expect(created.stderr).not.toContain(secret);
  });

  it('a crash-like failure (a service that hangs up mid-answer) shows no key, even with --debug', async () => {
    const sb = await startSandbox();
    sb.faults.push({ reset_mid_body: true, times: 3 });
    const r = await runBin(['keys', 'list', '--debug'], { env: sb.env });
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).not.toContain(sb.key);
  });

  it('plain http:// to a non-loopback host is refused before any byte is sent', async () => {
    // Were anything sent, it would go through this proxy.
    let connections = 0;
    const proxy = createServer(() => {});
    proxy.on('connection', () => connections++);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as AddressInfo).port;
    try {
      const r = await run(['keys', 'list'], { env: { WSCTL_BASE_URL: 'http://api.example.com', WSCTL_API_KEY: 'wsk_secret_secret_secret', HTTP_PROXY: `http://127.0.0.1:${port}`, WSCTL_CONFIG_DIR: '/nonexistent' } });
      expect(r.code).toBe(2);
      expect(connections).toBe(0);
      expect(r.stderr).not.toContain('wsk_secret_secret_secret');
    } finally {
      proxy.close();
    }
  });
});
