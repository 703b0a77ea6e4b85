// `auth login`'s confirmation on a sized terminal (cli.md §3): wrapped at its width between words,
// never inside the path of the file that holds the key; piped, one line as it is.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../helpers.js';
import { crashed, runPty, tooWide } from './pty.js';

const KEY = 'wsk_a_key_typed_at_the_prompt_1234';
const BASE_URL = 'https://api.example.com';

describe('the ✓ line of auth login', () => {
  it.each([60, 80])('wraps at %i columns, the config path whole on one line', async (cols) => {
    // Shorter than a line (a longer path would stand alone on its own line, still whole).
    const dir = join(tempDir(), 'project-config');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: BASE_URL };
    const args = ['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'work'];
    const r = await runPty(args, { cols, env, steps: [['API key', `${KEY}\r`]] });
    expect(r.code).toBe(0);
    expect(crashed(r.output)).toBe(false);
    expect(tooWide(r.text, cols)).toEqual([]);
    const lines = r.text
      .slice(r.text.indexOf('✓'))
      .split('\n')
      .filter((l) => l.trim() !== '');
    const path = join(dir, 'config.json');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.some((l) => l.includes(path))).toBe(true);
    expect(lines.join(' ')).toBe(`✓ Logged in to ${BASE_URL} as profile 'work' (key wsk_…1234, not verified, stored in ${path}).`);
    // Piped, the same words on one line.
    const piped = await runBin(args, { env, stdin: `${KEY}\n` });
    expect(piped.stdout).toBe(`Logged in to ${BASE_URL} as profile 'work' (key wsk_…1234, not verified, stored in ${path}).\n`);
  });
});
