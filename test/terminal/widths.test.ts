// What a terminal shows at 60, 80 and 200 columns (cli.md §3): emoji, flags, joined families,
// CJK and combining marks measured as the terminal measures them, so every column of a table
// starts at the same terminal column; every line of human output fits; a table of any length.
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin, startSandbox, type TestSandbox } from '../helpers.js';
import { crashed, runPty, tooWide } from './pty.js';

const WIDTHS = [60, 80, 200];
const NAMES = [
  '🚀 launch',
  '☕ coffee break',
  '🫠 melting',
  'family 👨‍👩‍👧 trip',
  'flags 🇫🇷🇯🇵 and more',
  '中文名字',
  'café crème',
  'cafe\u0301 cre\u0300me',
  '❤️ love',
  'plain ascii name',
];
/** No lone surrogate: nothing was cut inside a character. */
const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
/** The terminal column where needle starts on line. */
const columnOf = (line: string, needle: string) => stringWidth(line.slice(0, line.indexOf(needle)));

// Each test reads the shared sandbox only, or starts its own: they run at once.
describe.concurrent('widths on a sized terminal', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
    const now = new Date().toISOString();
    for (const [i, name] of NAMES.entries())
      sb.state.keys.push({
        id: `key_w${i}`,
        name,
        key: `wsk_w${i}secretsecret`,
        key_prefix: `wsk_w${i}pre`,
        created_at: now,
        last_used_at: null,
      });
  });

  it.each(WIDTHS)('a table with emoji, flags, families, CJK and combining marks keeps its columns aligned at %i columns', async (cols) => {
    const r = await runPty(['keys', 'list'], { cols, env: sb.env });
    expect(r.code, r.text).toBe(0);
    const rows = lines(r.text);
    const header = rows[0] as string;
    const prefixAt = columnOf(header, 'PREFIX');
    for (let i = 0; i < NAMES.length; i++) {
      const row = rows.find((l) => l.startsWith(`key_w${i} `)) as string;
      expect(row, `key_w${i}`).toBeDefined();
      expect(columnOf(row, `wsk_w${i}pre`), row).toBe(prefixAt);
      expect(stringWidth(row), row).toBeLessThanOrEqual(cols);
      // A cut name ends in … after whole characters: what is kept is the start of the name.
      const shown = row.slice(`key_w${i}`.length).trimStart().split(/ {2,}/)[0] as string;
      const kept = shown.endsWith('…') ? shown.slice(0, -1) : shown;
      expect(NAMES[i]!.startsWith(kept), `${shown} from ${NAMES[i]}`).toBe(true);
      expect(wellFormed(kept)).toBe(true);
    }
    for (const line of rows) expect(stringWidth(line), line).toBeLessThanOrEqual(cols);
  });

  it('a table of 130,000 rows renders', async () => {
    const many = await startSandbox();
    const now = new Date().toISOString();
    for (let i = 0; i < 130_000; i++)
      many.state.keys.push({
        id: `key_${i}`,
        name: `n${i}`,
        key: `wsk_${i}x`,
        key_prefix: `wsk_${i % 1000}`,
        created_at: now,
        last_used_at: null,
      });
    const r = await runPty(['keys', 'list'], { cols: 80, env: many.env, timeoutS: 90 });
    expect(crashed(r.output), r.text.slice(-500)).toBe(false);
    expect(r.code, r.text.slice(-500)).toBe(0);
    expect(r.text).toMatch(/^key_129999 +n129999 +wsk_999/m);
  }, 120_000);

  it.each(WIDTHS)(
    'every line of convo show fits %i columns: header, message heads, tool calls, tokens and totals; ids and times whole',
    async (cols) => {
      const sb2 = await startSandbox();
      const convo = sb2.state.conversations.conv_demo!;
      convo.conversation.id = 'conv_0123456789abcdefghij';
      convo.conversation.title = `Plan the Lisbon team offsite 🚀 with everyone from the ${'very '.repeat(30)}large team`;
      convo.conversation.type = `scheduled-${'x'.repeat(120)}`;
      sb2.state.conversations[convo.conversation.id] = convo;
      const message = convo.messages[1] as Record<string, unknown>;
      message.persona_name = `Ada the ${'extremely '.repeat(10)}helpful 👨‍👩‍👧 assistant`;
      message.model_name = `claude-sonnet-4-${'long-'.repeat(20)}edition`;
      message.input_tokens = 123456789;
      message.output_tokens = 987654321;
      message.cache_read_tokens = 555555555;
      message.cache_write_tokens = 444444444;
      (message.parts as Record<string, unknown>[]).push({
        part_kind: 'tool-call',
        tool_name: 'search',
        args: { query: `${'lisbon venues '.repeat(20)}`, note: 'x'.repeat(300) },
      });
      (convo.messages[2]!.parts as Record<string, unknown>[]).push({
        part_kind: 'tool-return',
        tool_name: 'fetch_page',
        content: `${'a long line of a fetched page '.repeat(15)}\n${'y'.repeat(250)}`,
      });
      const r = await runPty(['convo', 'show', convo.conversation.id, '--no-pager'], { cols, env: sb2.env });
      expect(r.code, r.text).toBe(0);
      expect(tooWide(r.text, cols), `at ${cols}`).toEqual([]);
      expect(r.text).toContain('conv_0123456789abcdefghij');
      expect(r.text).toMatch(/created \d+ \w+ ago|created just now/);
      for (const n of ['123,456,789', '987,654,321', '555,555,555', '444,444,444']) expect(r.text).toContain(n);
      expect(r.text).toMatch(/^Totals {2}input/m);
      expect(r.text).toContain('(6 messages)');
      // Piped, nothing is cut or folded.
      const piped = await runBin(['convo', 'show', convo.conversation.id], { env: sb2.env });
      expect(piped.stdout).toContain(`type\t${convo.conversation.type}\n`);
      expect(piped.stdout).toContain(`tokens: input 123456789 · output 987654321 · cache read 555555555 · cache write 444444444`);
    },
  );
});
