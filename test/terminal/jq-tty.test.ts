// --jq on a terminal (cli.md §3): strings from the service lose their escape sequences and control
// characters as in human output, so a key name or a message cannot write the clipboard (OSC 52),
// retitle the window, clear the screen or send a C1 CSI; piped, the output is byte for byte.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../helpers.js';
import { crashed, runPty } from './pty.js';

const CLIPBOARD = '\x1b]52;c;cm0gLXJmIH4=\x07';
const TITLE = '\x1b]0;PWNED\x07';
const CLEAR = '\x1b[2J\x1b[H';
const C1_CSI = '\u009b31m';
const HOSTILE = `deploy${CLIPBOARD}${TITLE}-key${CLEAR}${C1_CSI}!`;
/** What a terminal must never receive from wsctl, whatever the spinner draws around it. */
const FORBIDDEN = [CLIPBOARD, '\x1b]52', TITLE, '\x1b]0;', '\x1b[2J', '\u009b', '\x1b[H'];

const key = (id: string, name: string) => ({ id, name, key_prefix: 'wsk_abc', created_at: '2026-01-01T00:00:00Z', last_used_at: null });
const conversation = { id: 'c1', title: 'Hostile', type: 'chat', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const message = (text: string) => ({ kind: 'response', timestamp: '2026-01-01T00:00:01Z', parts: [{ part_kind: 'text', content: text }] });

let server: Server | undefined;
afterEach(() => server?.close());

async function hostile(): Promise<Record<string, string>> {
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.startsWith('/api-keys/')) res.end(JSON.stringify({ keys: [key('key_1', HOSTILE), key('key_2', 'plain')] }));
    else res.end(JSON.stringify({ conversation, state: 'idle', messages: [message(`web page says ${HOSTILE}`)] }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return {
    WSCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    WSCTL_API_KEY: 'wsk_hostile_test_key',
    WSCTL_CONFIG_DIR: tempDir(),
  };
}

const clean = 'deploy-key!';

describe('--jq on a terminal', () => {
  it.each([60, 80, 200])('keys list --jq .keys[].name at %i columns: the name without its escapes', async (cols) => {
    const env = await hostile();
    const r = await runPty(['keys', 'list', '--jq', '.keys[].name'], { cols, env });
    expect(r.code, r.text).toBe(0);
    for (const bad of FORBIDDEN) expect(r.output).not.toContain(bad);
    expect(r.text.split('\n').filter((l) => l !== '')).toEqual([clean, 'plain']);
    expect(crashed(r.output)).toBe(false);
  });

  it("the README's @tsv pattern: tabs stay, escapes go", async () => {
    const env = await hostile();
    const r = await runPty(['keys', 'list', '--jq', '.keys[] | [.id, .name] | @tsv'], { cols: 80, env });
    expect(r.code, r.text).toBe(0);
    for (const bad of FORBIDDEN) expect(r.output).not.toContain(bad);
    expect(r.text.split('\n').filter((l) => l !== '')).toEqual([`key_1\t${clean}`, 'key_2\tplain']);
  });

  it('values other than strings: compact JSON, with what JSON leaves raw but a terminal acts on escaped', async () => {
    const env = await hostile();
    const r = await runPty(['keys', 'list', '--jq', '.keys[0]'], { cols: 200, env });
    expect(r.code, r.text).toBe(0);
    for (const bad of FORBIDDEN) expect(r.output).not.toContain(bad);
    expect(r.output).toContain('\\u009b31m!');
  });

  it("convo show --follow --jq '.parts[0].content': message content from a web page", async () => {
    const env = await hostile();
    const r = await runPty(['convo', 'show', 'c1', '--follow', '--interval', '0.5', '--jq', '.parts[0].content // empty'], {
      cols: 80,
      env,
    });
    expect(r.code, r.text).toBe(0);
    for (const bad of FORBIDDEN) expect(r.output).not.toContain(bad);
    expect(r.text).toContain(`web page says ${clean}`);
  });

  it('piped, the same output is byte for byte', async () => {
    const env = await hostile();
    const names = await runBin(['keys', 'list', '--jq', '.keys[].name'], { env });
    expect(names.stdout).toBe(`${HOSTILE}\nplain\n`);
    const tsv = await runBin(['keys', 'list', '--jq', '.keys[] | [.id, .name] | @tsv'], { env });
    expect(tsv.stdout).toBe(`key_1\t${HOSTILE}\nkey_2\tplain\n`);
    const follow = await runBin(['convo', 'show', 'c1', '--follow', '--interval', '0.5', '--jq', '.parts[0].content // empty'], { env });
    expect(follow.stdout).toBe(`web page says ${HOSTILE}\n`);
  });
});
