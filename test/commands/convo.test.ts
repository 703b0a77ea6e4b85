import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, startSandbox, strip, tempDir, type TestSandbox } from '../helpers.js';

describe('convo show', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('piped: header as key<TAB>value, then the transcript with ISO times, tool calls, results and totals', async () => {
    const r = await run(['convo', 'show', 'conv_demo'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(`${lastRequest(sb).method} ${lastRequest(sb).path}`).toBe('GET /conversations/conv_demo');
    const c = sb.state.conversations.conv_demo!.conversation;
    expect(
      r.stdout.startsWith(
        `title\tPlan the Lisbon team offsite\nid\tconv_demo\ntype\tchat\nstate\tidle\ncreated_at\t${c.created_at}\nupdated_at\t${c.updated_at}\n`,
      ),
    ).toBe(true);
    expect(r.stdout).not.toContain('deleted_at');
    expect(r.stdout).toContain(`▸ ${sb.state.conversations.conv_demo!.messages[1]!.timestamp} · response · Ada · claude-sonnet-4`);
    expect(r.stdout).toContain('  → search_venues({\n      "city": "Lisbon",');
    expect(r.stdout).toContain('  ← calendar_free_busy\n    Busy: Mon 9 March');
    expect(r.stdout).toContain('  tokens: input 1840 · output 96 · cache read 1200 · cache write 640');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Totals  input 6900 · output 426 · cache read 5450 · cache write 760 (6 messages)');
  });

  it('TTY: title, coloured state, relative times, no pager with --no-pager', async () => {
    sb.state.conversations.conv_demo!.state = 'running';
    const r = await run(['convo', 'show', 'conv_demo', '--no-pager'], { env: sb.env, tty: true });
    expect(r.stdout).toContain('\x1b[32mrunning\x1b[39m');
    const text = strip(r.stdout);
    expect(text.split('\n')[0]).toBe('Plan the Lisbon team offsite');
    expect(text.split('\n')[1]).toMatch(/^conv_demo · chat · running · created 1 day ago · updated 1 day ago$/);
    expect(text).toContain('input 6,900');
  });

  it('shows deleted_at when set, and tolerates absent state and metadata', async () => {
    const convo = sb.state.conversations.conv_demo!;
    convo.conversation.deleted_at = new Date().toISOString();
    delete convo.state;
    for (const m of convo.messages) delete m.metadata;
    const r = await run(['convo', 'show', 'conv_demo'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`deleted_at\t${convo.conversation.deleted_at}`);
    // A missing state is idle (cli.md §5), piped and on a terminal.
    expect(r.stdout).toContain('state\tidle\n');
    const tty = await run(['convo', 'show', 'conv_demo', '--no-pager'], { env: { ...sb.env, FORCE_COLOR: '0' }, tty: true });
    expect(tty.stdout.split('\n')[1]).toMatch(/^conv_demo · chat · idle · created/);
  });

  it('--tail n keeps the last n messages, in text and JSON', async () => {
    const r = await run(['convo', 'show', 'conv_demo', '--tail', '1'], { env: sb.env });
    expect(r.stdout.match(/▸/g)).toHaveLength(1);
    expect(r.stdout).toContain('send_email');
    // The totals count the messages shown, and say of how many.
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Totals  input 2650 · output 188 · cache read 2410 · cache write 120 (1 of 6 messages)',
    );
    const json = await run(['convo', 'show', 'conv_demo', '--tail', '2', '--json'], { env: sb.env });
    expect(JSON.parse(json.stdout).messages).toHaveLength(2);
    expect((await run(['convo', 'show', 'conv_demo', '--tail', 'x'], { env: sb.env })).code).toBe(2);
  });

  it('--json is the whole body', async () => {
    const r = await run(['convo', 'show', 'conv_demo', '--json'], { env: sb.env });
    expect(JSON.parse(r.stdout)).toEqual(sb.state.conversations.conv_demo);
  });

  it('--markdown: a title heading, a heading per message, fenced tool calls and results', async () => {
    const r = await run(['convo', 'show', 'conv_demo', '--markdown'], { env: sb.env });
    expect(r.stdout.startsWith('# Plan the Lisbon team offsite\n\n- **ID:** conv_demo\n')).toBe(true);
    expect(r.stdout).toMatch(/^## Response · Ada \(claude-sonnet-4\) · \S+$/m);
    expect(r.stdout).toContain('**Tool call:** `search_venues`\n\n```json\n{\n  "city": "Lisbon"');
    expect(r.stdout).toContain('**Tool result:** `calendar_free_busy`\n\n```\nBusy: Mon 9 March');
    expect(r.stdout).toContain('**Totals:** input 6900');
  });

  it('shortens long tool results with a note, unless --full', async () => {
    const part = sb.state.conversations.conv_demo!.messages[2]!.parts as Record<string, unknown>[];
    part[0]!.content = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const short = await run(['convo', 'show', 'conv_demo'], { env: sb.env });
    expect(short.stdout).toContain('line 19');
    expect(short.stdout).not.toContain('line 20');
    expect(short.stdout).toMatch(/more characters \(use --full to see all\)/);
    const full = await run(['convo', 'show', 'conv_demo', '--full'], { env: sb.env });
    expect(full.stdout).toContain('line 99');
  });

  it('wraps text to the terminal width on a TTY', async () => {
    const r = await run(['convo', 'show', 'conv_demo', '--no-pager'], { env: sb.env, tty: true, columns: 40 });
    const text = strip(r.stdout);
    expect(text).toContain('  Three venues fit. Your calendar is\n  free from Tuesday 10 March, so I\n');
    for (const line of text.split('\n').filter((l) => /^ {2}[^ →←]/.test(l) && !l.startsWith('  tokens:')))
      expect(line.length).toBeLessThanOrEqual(40);
  });

  it('pages through $WSCTL_PAGER on a TTY', async () => {
    const out = join(tempDir(), 'paged.txt');
    const r = await run(['convo', 'show', 'conv_demo'], { env: { ...sb.env, WSCTL_PAGER: `cat > ${out}` }, tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(strip(readFileSync(out, 'utf8'))).toContain('Plan the Lisbon team offsite');
  });

  it('an unknown id exits 5; an empty one exits 2 before sending; ids are encoded', async () => {
    const r = await run(['convo', 'show', 'nope'], { env: sb.env });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain("Conversation 'nope' not found");
    expect((await run(['convo', 'show', ''], { env: sb.env })).code).toBe(2);
    await run(['convo', 'show', '../api-keys/'], { env: sb.env });
    expect(lastRequest(sb).path).toBe('/conversations/..%2Fapi-keys%2F');
  });
});
