// Keys are printed only by `keys create`; never in traces, dry runs, errors or status.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, runBin, startSandbox, tempDir } from '../helpers.js';

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
      const r = await run(['keys', 'list'], {
        env: {
          WSCTL_BASE_URL: 'http://api.example.com',
          WSCTL_API_KEY: 'wsk_secret_secret_secret',
          HTTP_PROXY: `http://127.0.0.1:${port}`,
          WSCTL_CONFIG_DIR: '/nonexistent',
        },
      });
      expect(r.code).toBe(2);
      expect(connections).toBe(0);
      expect(r.stderr).not.toContain('wsk_secret_secret_secret');
    } finally {
      proxy.close();
    }
  });

  it('--debug and --dry-run redact secrets inside a JSON body: Authorization, credentials, passwd, jwt, bearer, sessionid, URL passwords', async () => {
    const secrets = [
      'tok_header_0001',
      'cred_secret_0002',
      'passwd_secret_0003',
      'jwt_secret_0004',
      'bearer_secret_0005',
      'session_secret_0006',
      'inline_secret_0007',
      'urlpass_secret_0008',
      'pwd_secret_0009',
    ];
    const body = {
      headers: { Authorization: `Bearer ${secrets[0]}` },
      credentials: secrets[1],
      PASSWD: secrets[2],
      jwt: secrets[3],
      bearer: secrets[4],
      SessionId: secrets[5],
      note: `retry with Bearer ${secrets[6]} later`,
      callback: `https://user:${secrets[7]}@hooks.example/x`,
      db_pwd: secrets[8],
      title: 'kept',
    };
    // The service echoes the body back, so the response trace is checked too.
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text || JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const file = join(tempDir(), 'body.json');
    writeFileSync(file, JSON.stringify(body));
    try {
      const env = {
        WSCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        WSCTL_API_KEY: 'wsk_test_0123456789',
        WSCTL_CONFIG_DIR: tempDir(),
      };
      for (const mode of ['--debug', '--dry-run']) {
        const r = await runBin(['api', '/echo', '-X', 'POST', '--input', file, mode], { env });
        expect(r.code, r.stderr).toBe(0);
        const traced = mode === '--debug' ? r.stderr : r.stdout;
        expect(traced).toContain('kept');
        for (const secret of secrets) expect(traced, `${mode}: ${secret}`).not.toContain(secret);
        expect(traced).toContain('user:***@hooks.example');
      }
    } finally {
      server.close();
    }
  });

  it('byok add never shows the password of --provider-url: dry run, debug, the result, JSON', async () => {
    const sb = await startSandbox();
    const url = 'https://user:url_pass_secret_42@llm.example/v1';
    const env = { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-provider-0123456789abcdef' };
    const args = ['byok', 'add', '--name', 'p', '--provider-url', url, '--format', 'openai', '--model', 'm'];
    for (const extra of [['--dry-run'], ['--dry-run', '--json'], ['--debug'], [], ['--json']]) {
      const r = await runBin([...args, ...extra], { env });
      expect(r.code, `${extra.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, extra.join(' ')).not.toContain('url_pass_secret_42');
      expect(r.stdout + r.stderr, extra.join(' ')).toContain('https://user:***@llm.example/v1');
    }
    // The service still gets the URL as given.
    expect(sb.state.byok.at(-1)?.base_url).toBe(url);
  });
});
