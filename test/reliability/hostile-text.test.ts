// Text from the service that tries to drive the terminal is printed without its control
// sequences in human output, on a TTY and piped; JSON keeps it, escaped.
import { describe, expect, it } from 'vitest';
import { run, runBin, startSandbox, tempDir } from '../helpers.js';
import { runPty } from '../terminal/pty.js';

const HOSTILE = [
  '\x1b[2J\x1b[H', // clear screen, cursor home
  '\x1b]0;pwned\x07', // set the window title
  '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\', // an OSC 8 link
  '\x1b[5A\x1b[10C', // cursor movement
  '\x9b31m', // an 8-bit CSI
  '\x07\x08\x7f\r', // bell, backspace, delete, carriage return
];
const EVIL = `Hi${HOSTILE.join('')}there`;
// Colour that wsctl itself adds is allowed; nothing else may start an escape.
const withoutOwnColour = (s: string) => s.replace(/\x1b\[\d{1,2}m/g, '');
const hasControl = (s: string) => /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(withoutOwnColour(s));

describe('hostile text from the service', () => {
  it.each([false, true])('is stripped from every human view (tty: %s) and kept escaped in JSON', async (tty) => {
    const sb = await startSandbox();
    const convo = sb.state.conversations.conv_demo!;
    convo.conversation.title = EVIL;
    convo.messages[0]!.persona_name = EVIL;
    (convo.messages[1]!.parts as Record<string, unknown>[])[1]!.tool_name = EVIL;
    (convo.messages[2]!.parts as Record<string, unknown>[])[0]!.content = EVIL;
    (convo.messages[3]!.parts as Record<string, unknown>[])[0]!.content = EVIL;
    sb.state.settings.bio = EVIL;
    sb.state.connections[0]!.account_name = EVIL;
    sb.state.keys[0]!.name = EVIL;
    sb.state.personas.persona_demo!.published[0]!.id = EVIL;
    const views = [
      ['convo', 'show', 'conv_demo', '--no-pager'],
      ['convo', 'show', 'conv_demo', '--markdown', '--no-pager'],
      ['settings'],
      ['caps'],
      ['keys', 'list'],
      ['persona', 'versions', 'persona_demo'],
    ];
    for (const args of views) {
      const r = await run(args, { env: { ...sb.env, FORCE_COLOR: '0' }, tty });
      expect(r.code, args.join(' ')).toBe(0);
      expect(hasControl(r.stdout), `${args.join(' ')}: ${JSON.stringify(r.stdout.slice(0, 200))}`).toBe(false);
      expect(r.stdout).toContain('Hi');
    }
    const json = await run(['convo', 'show', 'conv_demo', '--json'], { env: sb.env, tty });
    expect(json.stdout).toContain('\\u001b[2J');
    expect(JSON.parse(json.stdout).conversation.title).toBe(EVIL);
  });

  it('error messages that quote ids are cleaned too', async () => {
    const sb = await startSandbox();
    const r = await run(['convo', 'show', '\x1b]0;pwned\x07x'], { env: sb.env });
    expect(r.code).toBe(5);
    expect(hasControl(r.stderr)).toBe(false);
  });
});

describe('invisible and format characters', () => {
  // Bidi marks, separators, soft hyphen, interlinear annotations, tags, deprecated format controls.
  const GAPS = [
    '\u061c',
    '\u2028',
    '\u2029',
    '\u00ad',
    '\ufff9',
    '\ufffa',
    '\ufffb',
    '\u{e0001}',
    '\u{e0041}',
    '\u{e007f}',
    '\u206a',
    '\u180e',
    '\u200e',
    '\u2066',
    '\u200b',
  ];
  const SNEAKY = `Hi${GAPS.join('x')}there`;
  const hasGap = (s: string) => GAPS.some((g) => s.includes(g));

  it.each([false, true])('never reach human output (tty: %s); JSON keeps them', async (tty) => {
    const sb = await startSandbox();
    sb.state.conversations.conv_demo!.conversation.title = SNEAKY;
    (sb.state.conversations.conv_demo!.messages[2]!.parts as Record<string, unknown>[])[0]!.content = SNEAKY;
    sb.state.keys[0]!.name = SNEAKY;
    sb.state.settings.bio = SNEAKY;
    for (const args of [['convo', 'show', 'conv_demo', '--no-pager'], ['keys', 'list'], ['settings']]) {
      const r = await run(args, { env: sb.env, tty });
      expect(r.code, args.join(' ')).toBe(0);
      expect(hasGap(r.stdout), `${args.join(' ')}: ${JSON.stringify(r.stdout.slice(0, 300))}`).toBe(false);
      expect(r.stdout).toContain('Hi');
    }
    const json = await run(['keys', 'list', '--json'], { env: sb.env, tty });
    expect(JSON.parse(json.stdout).keys[0].name).toBe(SNEAKY);
    // Written as \u escapes, on a terminal and piped (cli.md §3).
    expect(hasGap(json.stdout)).toBe(false);
  });

  it('a joined emoji family keeps its joiners; a stray joiner goes', async () => {
    const sb = await startSandbox();
    sb.state.keys[0]!.name = 'family 👨‍👩‍👧 a\u200db';
    const r = await run(['keys', 'list'], { env: sb.env, tty: true });
    expect(r.stdout).toContain('family 👨‍👩‍👧 ab');
  });
});

describe('text bodies and prompts on a terminal', () => {
  it('api --json escapes C1 controls of a text body, on a TTY and piped', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('before\x9b2Jafter\u061c\u2028end');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const env = { WSCTL_BASE_URL: url, WSCTL_API_KEY: 'wsk_test_0123456789', WSCTL_CONFIG_DIR: tempDir() };
      const r = await runPty(['api', '/x', '--json'], { cols: 80, env });
      expect(r.code, r.text).toBe(0);
      expect(r.output).not.toMatch(/[\x9b\u061c\u2028]/);
      expect(r.output).toContain('before\\u009b2Jafter\\u061c\\u2028end');
      const piped = await runBin(['api', '/x', '--json'], { env });
      expect(piped.stdout).not.toMatch(/[\x9b\u061c\u2028]/);
      expect(JSON.parse(piped.stdout)).toEqual({ body: 'before\x9b2Jafter\u061c\u2028end' });
    } finally {
      server.close();
    }
  });

  it('the [y/N] prompt shows a pasted id without its escape sequences', async () => {
    const sb = await startSandbox();
    const r = await runPty(['device', 'rm', 'dev\x1b]0;PWN\x07\x1b[2J'], { cols: 80, env: sb.env, steps: [['[y/N]', 'n\r']] });
    expect(r.code).toBe(2);
    expect(r.text).toMatch(/Remove device 'dev(\]0;PWN)?' .*\[y\/N\]/);
    expect(r.output).not.toContain('\x1b]0;PWN');
    expect(r.output).not.toContain('\x1b[2J');
    expect(r.output).not.toContain('\x07');
  });

  it('a dry run repeats arguments without their control characters', async () => {
    const sb = await startSandbox();
    const r = await runPty(
      [
        'byok',
        'add',
        '--name',
        'n\x9b2J\u202eevil',
        '--provider-url',
        'https://p.example',
        '--format',
        'groq',
        '--model',
        'm',
        '--dry-run',
      ],
      { cols: 80, env: { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-0123456789abcdef' } },
    );
    expect(r.code, r.text).toBe(0);
    expect(r.output).not.toMatch(/[\x9b\u202e]/);
    expect(r.text).toContain('"name": "n\\u009b2J\\u202eevil"');
  });
});
