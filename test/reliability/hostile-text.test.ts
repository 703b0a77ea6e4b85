// Text from the service that tries to drive the terminal is printed without its control
// sequences in human output, on a TTY and piped; JSON keeps it, escaped.
import { describe, expect, it } from 'vitest';
import { run, startSandbox } from '../helpers.js';

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
