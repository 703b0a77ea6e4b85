// Accessible mode at the terminal layer (cli.md §3, §5): the terminal object with the real prompt
// reading an injected input stream. A destructive confirmation is the target's id typed out and
// anything else is no; the list to choose from is numbered and answered by a number; progress
// is lines of words, `still working: …` every 30 seconds of an injected clock.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/common/clock.js';
import { createTerminal, type Env, type Terminal } from '../../src/terminal/index.js';
import { echoed, terminalPrompt } from '../../src/terminal/prompt.js';

const QUESTION = "Remove device 'dev_phone' (default profile 'default', http://127.0.0.1:8080)?";

interface Desk {
  term: Terminal;
  /** What the person types, fed to stdin. */
  type(keys: string): void;
  /** Everything written to stderr so far. */
  said(): string;
  /** Resolves once stderr holds this text. */
  shown(text: string): Promise<void>;
}

/** A terminal on TTY streams of our own: stdin is typed into, stderr is read back. */
async function desk(options: { env?: Env; accessible?: boolean; clock?: Clock } = {}): Promise<Desk> {
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  const stdout = new PassThrough();
  let said = '';
  const waiting: [string, () => void][] = [];
  stderr.on('data', (chunk) => {
    said += chunk;
    for (const [text, resolve] of waiting) if (said.includes(text)) resolve();
  });
  const io = { stdin, stdout, stderr, stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true, columns: 80 };
  const env = options.env ?? { TERM: 'xterm-256color' };
  const term = await createTerminal(io, env, {
    json: false,
    noColor: false,
    noInput: false,
    prompt: terminalPrompt(stdin, stderr, new AbortController().signal),
    accessible: () => options.accessible ?? false,
    clock: options.clock,
  });
  return {
    term,
    type: (keys) => stdin.write(keys),
    said: () => said,
    shown: (text) => (said.includes(text) ? Promise.resolve() : new Promise((resolve) => waiting.push([text, resolve]))),
  };
}

/** Asks the confirmation and types the answer once the question shows. */
async function confirmWith(d: Desk, answer: string): Promise<boolean> {
  const asked = d.term.confirm(QUESTION, 'pass --yes to remove device dev_phone', 'dev_phone');
  await d.shown(':');
  d.type(answer);
  return asked;
}

describe('the typed confirmation of accessible mode', () => {
  it("asks to type the target's id, naming the profile and base URL; only the id typed out is yes", async () => {
    const d = await desk({ accessible: true });
    expect(await confirmWith(d, 'dev_phone\r')).toBe(true);
    expect(d.said()).toContain(QUESTION);
    expect(d.said()).toContain('Type dev_phone to remove device dev_phone: ');
    expect(d.said()).not.toContain('[y/N]');
  });

  it.each([
    ['y', 'y\r'],
    ['yes', 'yes\r'],
    ['Enter alone', '\r'],
    ['a part of the id', 'dev_phon\r'],
    ['another case', 'DEV_PHONE\r'],
    ['the id with more', 'dev_phone2\r'],
  ])('%s cancels', async (_, answer) => {
    const d = await desk({ accessible: true });
    expect(await confirmWith(d, answer)).toBe(false);
  });

  it('a connection: the quoted word holding the id is said without its quotes', async () => {
    const d = await desk({ accessible: true });
    const asked = d.term.confirm("Remove connection 'gmail/pdc_gmail' (the sandbox)?", 'pass --yes', 'pdc_gmail');
    await d.shown(':');
    d.type('pdc_gmail\r');
    expect(await asked).toBe(true);
    expect(d.said()).toContain('Type pdc_gmail to remove connection gmail/pdc_gmail: ');
  });

  it('outside accessible mode the same call asks [y/N], and y is yes', async () => {
    const d = await desk();
    expect(await confirmWith(d, 'y\r')).toBe(true);
    expect(d.said()).toContain('[y/N]');
    expect(d.said()).not.toContain('Type dev_phone');
  });
});

const ITEMS = [
  { id: 'conv_one', description: 'First \x1b[31mred\x1b[0m' },
  { id: 'conv_two', description: '' },
  { id: 'conv_three', description: 'Third' },
];

describe('the numbered list', () => {
  for (const [name, options] of [
    ['in accessible mode', { accessible: true }],
    ['under TERM=dumb', { env: { TERM: 'dumb' } }],
  ] as const) {
    it(`${name}: printed once, numbered, answered by a number and Enter, no escape sequence`, async () => {
      const d = await desk(options);
      const chosen = d.term.choose('Choose a conversation', ITEMS, 'give the id');
      await d.shown('Type a number from 1 to 3, or press Enter to cancel: ');
      d.type('4\r');
      await d.shown('Type a number from 1 to 3, or press Enter to cancel: \n');
      d.type('2\r');
      expect(await chosen).toBe('conv_two');
      expect(d.said()).toBe(
        [
          'Choose a conversation:',
          '1. conv_one: First red',
          '2. conv_two',
          '3. conv_three: Third',
          'Type a number from 1 to 3, or press Enter to cancel: ',
          "'4' is not a number from 1 to 3.",
          'Type a number from 1 to 3, or press Enter to cancel: ',
          '',
        ].join('\n'),
      );
    });
  }

  it('Enter alone cancels as Esc does (exit 130)', async () => {
    const d = await desk({ accessible: true });
    const chosen = d.term.choose('Choose a conversation', ITEMS, 'give the id');
    await d.shown('Enter to cancel: ');
    d.type('\r');
    await expect(chosen).rejects.toMatchObject({ exitCode: 130 });
  });

  it('stdin that ends before a number is typed cancels, never waits', async () => {
    const d = await desk({ accessible: true });
    const chosen = d.term.choose('Choose a conversation', ITEMS, 'give the id');
    await d.shown('Enter to cancel: ');
    d.type('x');
    (d.term.streams.stdin as PassThrough).end();
    await expect(chosen).rejects.toMatchObject({ exitCode: 130 });
  });
});

describe('an answer echoed as it is typed', () => {
  it('only what changed: a key once, a backspace once, never the whole answer again', () => {
    expect(echoed('', 'd')).toBe('d');
    expect(echoed('de', 'dev')).toBe('v');
    expect(echoed('dev', 'de')).toBe('\b \b');
    expect(echoed('dev_x', '')).toBe('\b \b'.repeat(5));
    expect(echoed('dev', 'dex')).toBe('\b \bx');
  });
});

/** A clock whose waits end only when the test moves it on. */
function manualClock(): Clock & { advance(ms: number): Promise<void>; sleeping(): number } {
  let now = 0;
  let waits: { until: number; resolve: () => void }[] = [];
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise((resolve, reject) => {
        const wait = { until: now + ms, resolve };
        waits.push(wait);
        signal.addEventListener('abort', () => {
          waits = waits.filter((w) => w !== wait);
          reject(signal.reason);
        });
      });
    },
    sleeping: () => waits.length,
    async advance(ms) {
      now += ms;
      for (const w of waits.filter((w) => w.until <= now)) {
        waits = waits.filter((x) => x !== w);
        w.resolve();
      }
      // The woken heartbeat says its line and sleeps again.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('progress in lines of words', () => {
  it('a spinner: one line when the work starts, still working every 30 s of the clock, nothing when it ends', async () => {
    const clock = manualClock();
    const d = await desk({ accessible: true, clock });
    let finish = (_: string) => {};
    const work = d.term.spin('Loading keys', new Promise<string>((resolve) => (finish = resolve)));
    await d.shown('Loading keys\n');
    await clock.advance(29_999);
    expect(d.said()).toBe('Loading keys\n');
    await clock.advance(1);
    expect(d.said()).toBe('Loading keys\nstill working: loading keys\n');
    await clock.advance(30_000);
    finish('done');
    expect(await work).toBe('done');
    await clock.advance(60_000);
    expect(d.said()).toBe('Loading keys\nstill working: loading keys\nstill working: loading keys\n');
    expect(clock.sleeping()).toBe(0);
  });

  it("a status line: said when its topic changes and every 30 s, never redrawn; '·' said as a comma", async () => {
    const clock = manualClock();
    const d = await desk({ accessible: true, clock });
    const status = await d.term.statusLine();
    status.set('running · 0 s since the last message', 'running');
    await clock.advance(2_000);
    status.set('running · 2 s since the last message', 'running');
    await clock.advance(28_000);
    status.set('running · 30 s since the last message', 'running');
    status.set('stopping · 30 s since the last message', 'stopping');
    status.clear();
    await clock.advance(29_000);
    status.set('stopping · 59 s since the last message', 'stopping');
    expect(d.said()).toBe(
      [
        'running, 0 s since the last message',
        'still working: running, 30 s since the last message',
        'stopping, 30 s since the last message',
        '',
      ].join('\n'),
    );
  });

  it('done: and warning: in words instead of ✓ and !', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (c) => (out += c));
    const d = await desk({ accessible: true });
    const term = await createTerminal(
      { ...d.term.streams, stdout, stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true, columns: 80 },
      { TERM: 'xterm-256color' },
      {
        json: false,
        noColor: false,
        noInput: false,
        prompt: terminalPrompt(d.term.streams.stdin, d.term.streams.stderr, new AbortController().signal),
        accessible: () => true,
      },
    );
    term.done("Removed device 'dev_phone'.");
    term.warn('Copy the key now: it will not be shown again.');
    expect(out).toBe("done: Removed device 'dev_phone'.\n");
    expect(d.said()).toBe('warning: Copy the key now: it will not be shown again.\n');
  });
});
