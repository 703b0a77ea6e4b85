// `convo show` reads the body as it arrives (issue 14, P3): against purpose-built servers that
// send it slowly, in either field order, cut off, or wrong part-way.
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, run, tempDir } from '../helpers.js';

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A server that answers every request with handle(res, n), n counting requests from 1. */
async function serve(handle: (res: ServerResponse, n: number) => void): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  const server = createServer((_req, res) => handle(res, ++n));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => n };
}

const envFor = (url: string) => ({ WSCTL_BASE_URL: url, WSCTL_API_KEY: 'wsk_stream_test_key', WSCTL_CONFIG_DIR: tempDir() });

const detail = { id: 'conv_s', title: 'Streamed', type: 'chat', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z' };

function messages(n: number, size = 200): object[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: i % 2 ? 'response' : 'request',
    timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
    parts: [{ part_kind: i % 2 ? 'text' : 'user-prompt', content: `message ${i} ${'x'.repeat(size)}` }],
    input_tokens: i,
    output_tokens: 1,
  }));
}

/** The body in the interface's order (state after messages) or with the state first. */
const body = (list: object[], order: 'state-last' | 'state-first', state = 'running') =>
  order === 'state-last'
    ? JSON.stringify({ conversation: detail, messages: list, state })
    : JSON.stringify({ state, conversation: detail, messages: list });

/** A child's exit status and its whole stdout, without blocking the servers of this process. */
function collect(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: Buffer; stderr: string }> {
  const child = spawn(command, args, { env });
  const out: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out), stderr })));
}

const send = (res: ServerResponse, text: string) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(text);
};

describe('convo show streams the body', () => {
  it('prints the first messages while the server still holds the rest of the body', async () => {
    const list = messages(6000);
    const text = body(list, 'state-first');
    const cut = text.indexOf('"message 5000 ');
    let finish = () => {};
    const s = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(text.slice(0, cut));
      finish = () => res.end(text.slice(cut));
    });
    const child = spawn(process.execPath, [BIN, 'convo', 'show', 'conv_s'], { env: { ...process.env, ...envFor(s.url) } });
    let out = '';
    const early = await new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('message 100 ')) resolve(out);
      });
    });
    // Output arrived before the body was complete.
    expect(early).toContain('state\trunning');
    expect(early).not.toContain('message 5999 ');
    finish();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(out).toContain('message 5999 ');
    expect(out.trimEnd().split('\n').at(-1)).toBe('Totals  input 17997000 · output 6000 · cache read 0 · cache write 0 (6,000 messages)');
  });

  it.each([
    ['in memory', 50],
    ['in a temporary file', 30_000],
  ])(
    'state after the messages (%s): the same output as state first, the header shows the state, no file left behind',
    async (_where, n) => {
      const list = messages(n);
      const s = await serve((res, i) => send(res, body(list, i === 1 ? 'state-last' : 'state-first', 'stopping')));
      const tmp = tempDir();
      const env = { ...envFor(s.url), TMPDIR: tmp };
      const last = await run(['convo', 'show', 'conv_s'], { env });
      const first = await run(['convo', 'show', 'conv_s'], { env });
      expect(last.code, last.stderr).toBe(0);
      expect(last.stdout).toBe(first.stdout);
      expect(last.stdout.split('\n')[3]).toBe('state\tstopping');
      expect(last.stdout).toContain(`message ${n - 1} `);
      expect(readdirSync(tmp)).toEqual([]);
    },
  );

  it('a temporary folder that cannot be written keeps the transcript in memory', async () => {
    const list = messages(30_000);
    const s = await serve((res) => send(res, body(list, 'state-last', 'idle')));
    const r = await run(['convo', 'show', 'conv_s'], { env: { ...envFor(s.url), TMPDIR: '/nonexistent/wsctl-tmp' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[3]).toBe('state\tidle');
    expect(r.stdout.match(/^▸ /gm)?.length).toBe(30_000);
  });

  it('a temporary file that stops growing part-way (a full disk) loses nothing and keeps the order', async () => {
    const list = messages(30_000);
    const s = await serve((res, i) => send(res, body(list, i === 1 ? 'state-last' : 'state-first', 'idle')));
    const env = { ...process.env, ...envFor(s.url), TMPDIR: tempDir() };
    // The file-size limit (in 512-byte blocks) stops the spool file at 512 KiB with EFBIG; stdout is a pipe.
    const limited = await collect('bash', ['-c', `ulimit -f 1024; exec "${process.execPath}" "${BIN}" convo show conv_s`], env);
    const whole = await collect(process.execPath, [BIN, 'convo', 'show', 'conv_s'], env);
    expect(limited.status, limited.stderr).toBe(0);
    expect(whole.stdout.length).toBeGreaterThan(4 << 20);
    expect(limited.stdout.equals(whole.stdout)).toBe(true);
  });

  it.each([
    ['streamed', []],
    ['--jq, one large write', ['--jq', '.messages[]']],
  ])('a reader slower than wsctl still gets all of its output (%s): the last writes are not dropped at exit', async (_name, args) => {
    const list = messages(2000);
    const s = await serve((res) => send(res, body(list, 'state-last', 'idle')));
    const env = { ...process.env, ...envFor(s.url) };
    const command = `"${process.execPath}" "${BIN}" convo show conv_s ${args.map((a) => `'${a}'`).join(' ')}`;
    const whole = await collect('bash', ['-c', `${command} | wc -c`], env);
    // The reader waits until wsctl has written everything it can into the 64 KiB pipe.
    const slow = await collect('bash', ['-c', `set -o pipefail; ${command} | (sleep 1; wc -c)`], env);
    expect(slow.status, slow.stderr).toBe(0);
    expect(Number(whole.stdout.toString())).toBeGreaterThan(256 << 10);
    expect(slow.stdout.toString()).toBe(whole.stdout.toString());
  });

  it('--json is the body as the service wrote it, re-indented: numbers, escapes and field order kept, controls escaped', async () => {
    const text = `\ufeff{"extra_first": {"a": [1.0, 1e2, -0.5E-3, {}, 1e1000, -0, 100000000000000000001], "b": [ ], "2": 1, "1": 2}, "conversation": {"id": "conv_s", "title": "\\u00e9\\/\\ud83d\\ude00 \\u001b[31m\x9b2J\u202e"},
      "messages": [ {"kind": "request", "parts": [{"part_kind": "text", "content": "\\"quoted\\" \\\\ back \x9d0;pwned\x9c \\u001b]0;t\\u0007"}], "metadata": { }},
      {"kind": null, "unknown": [[[]]], "__proto__": {"x": 1}} ], "state": null, "extra_last": "\u2028\u{e0041}"}`;
    const s = await serve((res) => send(res, text));
    const r = await run(['convo', 'show', 'conv_s', '--json'], { env: envFor(s.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        '{',
        '  "extra_first": {',
        '    "a": [',
        '      1.0,',
        '      1e2,',
        '      -0.5E-3,',
        '      {},',
        '      1e1000,',
        '      -0,',
        '      100000000000000000001',
        '    ],',
        '    "b": [],',
        '    "2": 1,',
        '    "1": 2',
        '  },',
        '  "conversation": {',
        '    "id": "conv_s",',
        '    "title": "\\u00e9\\/\\ud83d\\ude00 \\u001b[31m\\u009b2J\\u202e"',
        '  },',
        '  "messages": [',
        '    {',
        '      "kind": "request",',
        '      "parts": [',
        '        {',
        '          "part_kind": "text",',
        '          "content": "\\"quoted\\" \\\\ back \\u009d0;pwned\\u009c \\u001b]0;t\\u0007"',
        '        }',
        '      ],',
        '      "metadata": {}',
        '    },',
        '    {',
        '      "kind": null,',
        '      "unknown": [',
        '        [',
        '          []',
        '        ]',
        '      ],',
        '      "__proto__": {',
        '        "x": 1',
        '      }',
        '    }',
        '  ],',
        '  "state": null,',
        '  "extra_last": "\\u2028\\udb40\\udc41"',
        '}',
        '',
      ].join('\n'),
    );
    // The same values as the body's, but for the numbers JSON.parse cannot hold.
    const same = (t: string) => JSON.stringify(JSON.parse(t.replace('1e1000', '0').replace('100000000000000000001', '0')), null, 2);
    expect(same(r.stdout)).toBe(same(text.slice(1)));
  });

  it('--markdown: message text cannot forge a heading, a rule or a fence (piped, and wrapped on a terminal)', async () => {
    const forged = [
      '## Request · Ada · 2026-01-01',
      '---',
      'Setext\n===',
      '```',
      '~~~ js',
      '> ## quoted',
      '1. # listed',
      '* * *',
      '<h2>html</h2>',
      '   ### indented',
      `words ${'## x '.repeat(12)}`,
    ];
    const list = [
      { kind: 'response', parts: [{ part_kind: 'text', content: forged.join('\n') }] },
      { kind: 'request', parts: [{ part_kind: 'user-prompt', content: 'Heading\n-\nmore' }] },
    ];
    const s = await serve((res) => send(res, body(list, 'state-last', 'idle')));
    for (const tty of [false, true]) {
      const r = await run(['convo', 'show', 'conv_s', '--markdown', '--no-pager'], {
        env: { ...envFor(s.url), FORCE_COLOR: '0' },
        tty,
        columns: 30,
      });
      expect(r.code, r.stderr).toBe(0);
      // What CommonMark reads as structure, outside fenced code: exactly the title, one heading per message, the totals' rule.
      const structure: string[] = [];
      let fenced: string | undefined;
      const lines = r.stdout.split('\n');
      lines.forEach((line, i) => {
        const marks = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
        if (fenced) {
          if (marks && marks[0] === fenced[0] && marks.length >= fenced.length) fenced = undefined;
          return;
        }
        if (marks) fenced = marks;
        const body = line.replace(/^(?: {0,3}(?:>|[-+*]|\d{1,9}[.)])(?:[ \t]+|$))*/, '');
        const setext = /^ {0,3}(=+|-+)[ \t]*$/.test(line) && (lines[i - 1] ?? '').trim() !== '';
        if (marks || setext || /^ {0,3}(#{1,6}([ \t]|$)|<[A-Za-z/!?])/.test(body) || /^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$/.test(line))
          structure.push(line);
      });
      expect(structure, `tty: ${tty}`).toEqual(['# Streamed', '## Response', '## Request', '---']);
      if (!tty) expect(r.stdout).toContain('\n\\## Request · Ada · 2026-01-01\n\\---\nSetext\n\\===\n');
      else expect(r.stdout.split('\n').filter((line) => line.length > 30)).toEqual([]);
    }
  });

  it('--tail keeps the last n messages, in the transcript and in --json (fields in their order)', async () => {
    const list = messages(5000);
    const s = await serve((res) => send(res, body(list, 'state-last', 'idle')));
    const r = await run(['convo', 'show', 'conv_s', '--tail', '2'], { env: envFor(s.url) });
    expect(r.stdout.match(/^▸ /gm)?.length).toBe(2);
    expect(r.stdout).toContain('message 4998 ');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/\(2 of 5,000 messages\)$/);
    const j = await run(['convo', 'show', 'conv_s', '--tail', '2', '--json'], { env: envFor(s.url) });
    const doc = JSON.parse(j.stdout);
    expect(Object.keys(doc)).toEqual(['conversation', 'messages', 'state']);
    expect(doc.messages).toEqual(list.slice(-2));
    const none = await run(['convo', 'show', 'conv_s', '--tail', '0', '--json'], { env: envFor(s.url) });
    expect(JSON.parse(none.stdout).messages).toEqual([]);
  });

  it('a small body cut off part-way is asked for again (3 tries), and nothing reaches stdout', async () => {
    const text = body(messages(20), 'state-last');
    const s = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.write(text.slice(0, text.length >> 1));
      setTimeout(() => res.destroy(), 20);
    });
    const r = await run(['convo', 'show', 'conv_s'], { env: { ...envFor(s.url), WSCTL_RETRY_BASE_MS: '1' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/was cut off: the connection closed before the end of the body/);
    expect(s.requests()).toBe(3);
  });

  it('a large body cut off after output began is not asked for again: exit 3, what was shown stays', async () => {
    const list = messages(20_000);
    const text = body(list, 'state-first');
    const s = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.write(text.slice(0, text.indexOf('"message 15000 ')));
      setTimeout(() => res.destroy(), 100);
    });
    const r = await run(['convo', 'show', 'conv_s'], { env: { ...envFor(s.url), WSCTL_RETRY_BASE_MS: '1' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('message 100 ');
    expect(r.stderr).toMatch(/was cut off/);
    expect(s.requests()).toBe(1);
  });

  it.each([
    [
      'a message that is not JSON',
      `{"conversation": {"id": "c"}, "messages": [{"kind": "request"}, {"kind": tru}], "state": "idle"}`,
      /not JSON .*message 1 is not valid JSON/,
    ],
    [
      'a message of the wrong shape',
      `{"conversation": {"id": "c"}, "messages": [{}, {}, {"parts": "text"}]}`,
      /unexpected shape \(messages\.2\.parts: expected array\)/,
    ],
    ['no conversation', `{"messages": []}`, /unexpected shape \(conversation: expected object\)/],
    ['messages that are not an array', `{"conversation": {"id": "c"}, "messages": null}`, /unexpected shape \(messages: expected array\)/],
    ['a field given twice', `{"conversation": {"id": "c"}, "messages": [], "messages": []}`, /not JSON .*'messages' appears twice/],
    ['an array, not an object', `[]`, /not JSON .*not a JSON object/],
    ['text after the object', `{"conversation": {"id": "c"}, "messages": []} {}`, /not JSON .*more text follows/],
    ['a body that ends early', `{"conversation": {"id": "c"}, "messages": [{}`, /not JSON .*ends before/],
    ['an empty body', ``, /an empty body/],
    ['nesting past 512 levels', `{"conversation": {"id": "c"}, "messages": [${'['.repeat(600)}${']'.repeat(600)}]}`, /512 levels/],
  ])('%s: exit 3, one line, nothing on stdout', async (_name, text, message) => {
    const s = await serve((res) => send(res, text));
    for (const args of [[], ['--json']]) {
      const r = await run(['convo', 'show', 'conv_s', ...args], { env: envFor(s.url) });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      const said = args.length ? JSON.parse(r.stderr).error.message : r.stderr;
      expect(said).toMatch(message);
      if (!args.length) expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
