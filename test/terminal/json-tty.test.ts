// Every --json document, streamed or not, on a terminal or piped, writes C1 controls (an 8-bit
// CSI, an 8-bit OSC that sets the window title) and direction marks as \u escapes (cli.md §3):
// the built bin/wsctl on a sized pty and piped, against a server that sends them raw.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../helpers.js';
import { runPty } from './pty.js';

const HOSTILE = 'x\x9b2J\x9d0;pwned\x9c\u202e\u2066\u200b\u061c\ufeff\x7fy';
const RAW = /[\x7f-\x9f\u202e\u2066\u200b\u061c\ufeff]/;
const ESCAPED = 'x\\u009b2J\\u009d0;pwned\\u009c\\u202e\\u2066\\u200b\\u061c\\ufeff\\u007fy';

const conversation = JSON.stringify({
  conversation: { id: 'conv_h', title: HOSTILE, type: 'chat' },
  messages: [
    { kind: 'request', parts: [{ part_kind: 'user-prompt', content: HOSTILE }] },
    { kind: 'response', persona_name: HOSTILE, parts: [{ part_kind: 'text', content: 'ok' }] },
  ],
  state: 'idle',
});

let env: Record<string, string>;
let close = () => {};
beforeAll(async () => {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url === '/settings/' ? JSON.stringify({ bio: HOSTILE }) : conversation);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => {
    server.closeAllConnections();
    server.close();
  };
  env = {
    WSCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    WSCTL_API_KEY: 'wsk_tty_test_key_0123',
    WSCTL_CONFIG_DIR: tempDir(),
  };
});
afterAll(() => close());

describe('--json never writes controls or invisible characters raw', () => {
  it.each([
    [['convo', 'show', 'conv_h', '--json']],
    [['convo', 'show', 'conv_h', '--json', '--tail', '1']],
    [['convo', 'show', 'conv_h', '--follow', '--json']],
    [['settings', '--json']],
    [['api', '/settings/']],
  ])('%j on a terminal and piped', async (args) => {
    const tty = await runPty(args, { cols: 80, env });
    expect(tty.code, tty.text).toBe(0);
    expect(tty.output).not.toMatch(RAW);
    expect(tty.output).toContain(ESCAPED);
    const piped = await runBin(args, { env });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).not.toMatch(RAW);
    expect(piped.stdout).toContain(ESCAPED);
    // The same values, read back.
    for (const line of args.includes('--follow') ? piped.stdout.trimEnd().split('\n') : [piped.stdout])
      expect(() => JSON.parse(line)).not.toThrow();
    if (!args.includes('--follow') && args[0] === 'convo') expect(JSON.parse(piped.stdout).conversation.title).toBe(HOSTILE);
  });
});
