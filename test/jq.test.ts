// --jq: the jq 1.8 language on any JSON output, printed as gh prints it.
import { loadJq } from 'jq-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { forJq } from '../src/terminal/jq.js';
// @ts-expect-error: a plain ES module shared with the benchmark
import { largeConversation } from './bench/conversation.mjs';
import { run, runBin, serveBody, startSandbox, type TestSandbox } from './helpers.js';

describe('--jq', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('prints each result on its own line: strings raw, everything else compact JSON', async () => {
    const r = await run(['keys', 'list', '--jq', '.keys[0].name, .keys[0], (.keys | length), null, 1.5, true, [1, "a"]'], { env: sb.env });
    expect(r.code).toBe(0);
    const key = sb.state.keys[0]!;
    const listed = { id: key.id, name: key.name, key_prefix: key.key_prefix, created_at: key.created_at, last_used_at: key.last_used_at };
    expect(r.stdout.split('\n')).toEqual([
      key.name,
      JSON.stringify(JSON.parse(r.stdout.split('\n')[1]!)),
      String(sb.state.keys.length),
      'null',
      '1.5',
      'true',
      '[1,"a"]',
      '',
    ]);
    expect(JSON.parse(r.stdout.split('\n')[1]!)).toMatchObject({ ...listed, last_used_at: expect.anything() });
  });

  it('select, test, map, join, dates, @tsv and @csv: the jq language itself', async () => {
    const r = await run(
      [
        'caps',
        '--jq',
        '([.connected_apps[] | select(.app_slug | test("^g")) | .app_slug] | join(",")), (.connected_apps | map(.permission) | @csv), (.connected_apps[] | [.app_slug, .account_name] | @tsv), ("2026-01-02T03:04:05Z" | fromdateiso8601 | todate)',
      ],
      { env: sb.env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('gmail\n"read","write"\ngmail\tAlex Morgan\nnotion\tMorgan Studio\n2026-01-02T03:04:05Z\n');
  });

  it("an expression that does not compile exits 2 with jq's message and sends nothing", async () => {
    const before = sb.requests.length;
    const r = await run(['keys', 'list', '--jq', '.keys |||'], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error.message).toMatch(/^Invalid --jq expression: jq: error: syntax error, unexpected '\|'/);
    expect(sb.requests.length).toBe(before);
  });

  it.each([
    ['.[', 'line 1, column 2'],
    ['.a | .b ]', 'line 1, column 9'],
    ['{a:}', 'line 1, column 4'],
    ['  .x | $y', 'line 1, column 8'],
    ['.a |\n .[', 'line 2, column 3'],
  ])('a compile error in %j is placed at its line and column as typed (%s)', async (expression, place) => {
    const r = await run(['keys', 'list', '--jq', expression], { env: sb.env });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toMatch(new RegExp(`^Invalid --jq expression: jq: error: .* at <top-level>, ${place}$`));
  });

  it("an error at run time exits 2 with jq's message on one line", async () => {
    const r = await run(['settings', '--jq', '.timezone | .[]'], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toEqual({
      message: '--jq failed: jq: error: Cannot iterate over string ("Europe/Lisbon")',
      exit_code: 2,
      reason: 'jq_error',
    });
  });

  it('an error response is reported as with --json, and --jq never runs on it', async () => {
    const r = await run(['convo', 'show', 'conv_nope', '--jq', '.conversation.id'], { env: sb.env });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({ exit_code: 5, status: 404 });
  });

  it('api --jq, and expressions that start with a minus sign', async () => {
    const api = await run(['api', '/settings/', '--jq', '.language'], { env: sb.env });
    expect([api.code, api.stderr, api.stdout]).toEqual([0, '', 'en-GB\n']);
    const negative = await run(['api', '/settings/', '--jq', '-1'], { env: sb.env });
    expect([negative.code, negative.stderr, negative.stdout]).toEqual([0, '', '-1\n']);
  });

  it('the local documents of auth status and profile list', async () => {
    const status = await run(['auth', 'status', '--jq', '.key_source'], { env: sb.env });
    expect([status.code, status.stderr, status.stdout]).toEqual([0, '', 'env\n']);
    const profiles = await run(['profile', 'list', '--jq', '.profiles | length'], { env: sb.env });
    expect([profiles.code, profiles.stderr, profiles.stdout]).toEqual([0, '', '0\n']);
  });

  it('a document with a lone high surrogate, which jq 1.8 refuses whole, is filtered with U+FFFD in its place', async () => {
    const env = await serveBody(String.raw`{"name":"a\ud800b","note":"\\ud800 is text","ok":true}`);
    const json = await run(['api', '/settings/', '--json'], { env });
    expect(json.stdout, json.stderr).toContain(String.raw`"name": "a\ud800b"`);
    for (const filter of ['.name, .note', '[.name, .note] | .[]']) {
      const r = await run(['api', '/settings/', '--jq', filter], { env });
      expect([r.code, r.stderr, r.stdout], filter).toEqual([0, '', 'a\ufffdb\n\\ud800 is text\n']);
    }
  });

  it('filters the --json document as jq 1.8 reads it: numbers, escapes and key order as the service wrote them', async () => {
    const body = String.raw`{"n":1.0,"e":1E2,"neg":-0,"big":100000000000000000001,"ok":1.5,"order":{"b":1,"2":2},"pair":"\uD83D\uDE00","lone":"x\uDC00"}`;
    const env = await serveBody(body);
    const json = await run(['api', '/settings/', '--json'], { env });
    const jq = await loadJq();
    const cases: [string, string][] = [
      ['.n', '1.0\n'],
      ['.order', '{"b":1,"2":2}\n'],
      ['.ok', '1.5\n'],
      ['[.n, .e, .neg, .big]', '[1.0,1E+2,-0,100000000000000000001]\n'],
      ['.order | keys_unsorted[]', 'b\n2\n'],
      ['.pair, .lone', '😀\nx\ufffd\n'],
      ['.n + 1', '2\n'],
    ];
    for (const [filter, printed] of cases) {
      const r = await run(['api', '/settings/', '--jq', filter], { env });
      expect([r.code, r.stderr, r.stdout], filter).toEqual([0, '', printed]);
      // jq itself on the --json document (which prints the service's numbers as it wrote them).
      expect(`${jq.raw(forJq(json.stdout), filter, ['-r', '-c']).stdout}\n`, filter).toBe(printed);
    }
    const child = await runBin(['api', '/settings/', '--jq', '[.n, .e], .order'], { env });
    expect([child.code, child.stderr, child.stdout]).toEqual([0, '', '[1.0,1E+2]\n{"b":1,"2":2}\n']);
  });

  it('reads a text of many blocks with multi-byte characters, and prints more than a chunk, byte for byte', async () => {
    // Names of 1-4 byte characters, so that jq's reads and the output's chunks cut through them.
    const names = Array.from({ length: 8000 }, (_, i) => `${[...'aé中😀'].slice(0, 1 + (i % 4)).join('')}-${i}-${'😀中éa'.repeat(i % 3)}`);
    const body = JSON.stringify({ items: names.map((name) => ({ name })) });
    const env = await serveBody(body);
    const r = await runBin(['api', '/settings/', '--jq', '[.items[].name] | .[]'], { env });
    expect(Buffer.byteLength(r.stdout)).toBeGreaterThan(128 << 10);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(`${names.join('\n')}\n`);
  });

  it('convo show --tail filters the --json document of the last messages, from the service text', async () => {
    const conversation = largeConversation('conv_literal', 6);
    conversation.messages[5] = { ...conversation.messages[5], weight: 0 };
    const body = `{"score":1.0,"7":1E2,${JSON.stringify(conversation).slice(1)}`.replace('"weight":0', '"weight":1.50');
    const env = await serveBody(body);
    const filter = '[.score, .messages[-1].weight, (.messages | length), .messages[0].timestamp], (keys_unsorted | .[0:2])';
    const r = await run(['convo', 'show', 'conv_literal', '--tail', '2', '--jq', filter], { env });
    expect([r.code, r.stderr, r.stdout]).toEqual([
      0,
      '',
      `[1.0,1.50,2,${JSON.stringify(conversation.messages[4].timestamp)}]\n["score","7"]\n`,
    ]);
    const json = await run(['convo', 'show', 'conv_literal', '--tail', '2', '--json'], { env });
    const jq = await loadJq();
    expect(`${jq.raw(forJq(json.stdout), filter, ['-r', '-c']).stdout}\n`).toBe(r.stdout);
    // A field written twice, which JSON.parse takes: refused by --tail --jq as by --tail --json.
    const twice = await serveBody(`{"state":"idle",${body.slice(1)}`);
    const refused = await Promise.all(
      [['--json'], ['--jq', '.']].map((flags) => run(['convo', 'show', 'conv_literal', '--tail', '2', ...flags], { env: twice })),
    );
    for (const r of refused) {
      expect([r.code, r.stdout]).toEqual([3, '']);
      expect(JSON.parse(r.stderr).error.message).toMatch(
        /^The service sent a body that is not JSON .*: the field 'state' appears twice\.$/,
      );
    }
  });

  it('a 55,000-message conversation: .messages | length, end to end', async () => {
    const big = JSON.stringify(largeConversation('conv_big', 55_000));
    const env = await serveBody(big);
    const r = await runBin(['convo', 'show', 'conv_big', '--jq', '.messages | length'], {
      env,
      timeoutMs: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('55000\n');
  }, 90_000);
});
