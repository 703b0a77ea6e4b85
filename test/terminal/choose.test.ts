// Choosing a missing id from a list (cli.md §10), on a pseudo-terminal with a real size: ids with
// wide characters and escape sequences from the service fit 40 and 200 columns and cannot drive
// the terminal; typing filters, arrows move, Enter chooses (the confirmation still asked), Esc
// and Ctrl-C exit 130.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeIds, type IdRef } from '../../src/ids/store.js';
import { tempDir } from '../helpers.js';
import { crashed, runPty, tooWide } from './pty.js';

async function workspace(seen: IdRef[]): Promise<Record<string, string>> {
  const dir = tempDir();
  const env = { HOME: dir, WSCTL_CONFIG_DIR: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), WSCTL_SANDBOX: '1' };
  // Seen one after another: the last one given is the most recent, first in the list.
  for (const ref of seen)
    await changeIds(
      join(env.XDG_CACHE_HOME, 'wsctl'),
      { configDir: env.WSCTL_CONFIG_DIR, sandbox: true, profile: 'sandbox' },
      { seen: [ref] },
    );
  return env;
}

const conversations: IdRef[] = [
  { kind: 'conversation', id: 'conv_demo', description: 'Plan the Lisbon team offsite' },
  {
    kind: 'conversation',
    id: 'conv_日本語の会話とても長い名前です',
    description: '\x1b[31mred\x1b[0m 会議の議事録 🎉👨‍👩‍👧 and a long tail of words to be cut',
  },
  { kind: 'conversation', id: 'conv\x1b[2Jcleared', description: '\x1b]0;title\x07osc' },
];

describe('choosing a missing id', () => {
  for (const cols of [40, 200]) {
    it(`at ${cols} columns: fits, shows no escape from the service, typing filters and Enter chooses`, async () => {
      const env = await workspace(conversations);
      const r = await runPty(['convo', 'show', '--no-pager'], {
        cols,
        env,
        steps: [
          ['Choose a conversation', 'demo'],
          [300, '\r'],
        ],
      });
      expect(r.code, r.text).toBe(0);
      expect(r.text).toContain('Plan the Lisbon team offsite');
      expect(r.text).toContain('? Choose a conversation: conv_demo');
      expect(r.output).not.toMatch(/\x1b\[31m|\x1b\[2J|\x1b\]0;/);
      expect(tooWide(r.text, cols)).toEqual([]);
      expect(crashed(r.text)).toBe(false);
    });
  }

  it('shows every entry, most recent first, wide characters cut by columns; arrows move', async () => {
    const env = await workspace(conversations);
    const r = await runPty(['convo', 'show', '--no-pager'], {
      cols: 40,
      env,
      steps: [
        ['Choose a conversation', '\x1b[B'],
        [200, '\x1b[B'],
        [200, '\x1b[A'],
        [200, '\x1b[A'],
        [200, '\x1b[B'],
        [200, '\x1b[B'],
        [300, '\r'],
      ],
    });
    // the third most recent is conv_demo
    expect(r.code, r.text).toBe(0);
    expect(r.output).toContain('conv_日本語');
    expect(r.output).toContain('convcleared');
    expect(r.text).toContain('? Choose a conversation: conv_demo');
    expect(tooWide(r.text, 40)).toEqual([]);
  });

  it('Esc and Ctrl-C cancel with exit 130', async () => {
    for (const key of ['\x1b', '\x03']) {
      const env = await workspace(conversations);
      const r = await runPty(['convo', 'show', '--no-pager'], { cols: 80, env, steps: [['Choose a conversation', key]] });
      expect(r.code, JSON.stringify(key)).toBe(130);
      expect(r.text).toContain('(cancelled)');
      expect(crashed(r.text)).toBe(false);
    }
  });

  it("conn rm gmail offers gmail's connections; the chosen one is confirmed as if typed", async () => {
    const env = await workspace([
      { kind: 'connection', id: 'pdc_notion', app: 'notion', description: 'notion, read' },
      { kind: 'connection', id: 'pdc_gmail', app: 'gmail', description: 'gmail, write' },
    ]);
    const r = await runPty(['conn', 'rm', 'gmail'], {
      cols: 80,
      env,
      steps: [
        ['Choose a connection of gmail', '\r'],
        ['[y/N]', 'y\r'],
      ],
    });
    expect(r.code, r.text).toBe(0);
    expect(r.text).not.toContain('pdc_notion');
    expect(r.text).toContain("Remove connection 'gmail/pdc_gmail'");
    expect(r.text).toContain('Removed connection gmail/pdc_gmail.');
  });

  it('with --no-input, or nothing remembered, there is no list: exit 2 saying where ids come from', async () => {
    const env = await workspace(conversations);
    const r = await runPty(['convo', 'show', '--no-input'], { cols: 80, env });
    expect(r.code).toBe(2);
    expect(r.text.replace(/\s+/g, ' ')).toContain('`wsctl caps` shows conversation ids');
    const none = await runPty(['persona', 'versions'], { cols: 80, env });
    expect(none.code).toBe(2);
    expect(none.text).toContain('persona ids');
  });
});
