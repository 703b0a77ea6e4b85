// Record views (settings, auth status) on a sized terminal: values shown in place of the raw field
// ("(suggested)", the key file's path) wrap like every other value and never pass the width.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { runPty, tooWide } from './pty.js';

const NAMES = [
  'Alexandra Konstantinopoulou-Vanderbilt-Featherstonehaugh the Third of Many Names',
  '🚀🫠☕👨‍👩‍👧 Émoji Person 🚀🫠☕👨‍👩‍👧 with a name that goes on 🚀🫠☕👨‍👩‍👧🚀🫠☕',
  '山田太郎山田太郎山田太郎山田太郎山田太郎山田太郎山田太郎山田太郎山田太郎山田太郎',
  'an_identifier_without_any_spaces_that_is_longer_than_any_terminal_line_could_hold',
];

describe('record views fit the terminal', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it.each([60, 80])('settings with name unset shows a long suggested name wrapped (%i columns)', async (cols) => {
    for (const name of NAMES) {
      sb.state.settings = { ...sb.state.settings, name: null, suggested_name: name };
      const r = await runPty(['settings'], { cols, env: sb.env });
      expect(r.code, r.text).toBe(0);
      expect(tooWide(r.text, cols), r.text).toEqual([]);
      expect(r.text).toContain('(suggested)');
      // Nothing of the name is lost: the wrapped lines put back together hold it.
      const block = r.text.split(/\nSuggested/i)[0]!.split(/^Name:/m)[1]!;
      expect(block.replace(/\s+/g, '')).toContain(name.replace(/\s+/g, ''));
    }
  });

  it.each([60, 80])('auth status wraps the path of the key file (%i columns)', async (cols) => {
    const dir = join(tempDir(), 'a-config-folder-with-a-rather-long-name', 'and-another-level-of-folders-below-it');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ current_profile: 'default', profiles: { default: { base_url: sb.url, api_key: sb.key } } }),
      { mode: 0o600 },
    );
    const r = await runPty(['auth', 'status'], { cols, env: { WSCTL_CONFIG_DIR: dir, HOME: tempDir() } });
    expect(r.code, r.text).toBe(0);
    expect(tooWide(r.text, cols), r.text).toEqual([]);
    expect(r.text.replace(/\s+/g, '')).toContain(`file${join(dir, 'config.json')}`);
  });
});
