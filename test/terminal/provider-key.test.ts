// `byok add --api-key-stdin` with stdin a terminal: the provider key is read with echo off, at
// the same hidden prompt `auth login --with-key` uses, never echoed as it is typed.
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { crashed, runPty } from './pty.js';

const KEY = 'sk-typed-at-the-terminal-0123456789';
const ADD = [
  'byok',
  'add',
  '--name',
  'typed',
  '--provider-url',
  'https://api.groq.com/openai/v1',
  '--format',
  'groq',
  '--model',
  'llama-3.3-70b',
  '--api-key-stdin',
];

describe('byok add --api-key-stdin on a terminal', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it.each([60, 80, 200])('asks with input hidden and never shows the key (%i columns)', async (cols) => {
    const before = sb.requests.length;
    const r = await runPty(ADD, {
      cols,
      env: { ...sb.env, WSCTL_CONFIG_DIR: tempDir() },
      steps: [['input hidden', `${KEY}\r`]],
      timeoutS: 10,
    });
    expect(r.code, r.text).toBe(0);
    expect(r.text).toContain('Provider API key (input hidden): ');
    expect(r.output).not.toContain(KEY);
    expect(crashed(r.output)).toBe(false);
    const sent = sb.requests.slice(before).filter((q) => q.method === 'POST' && q.path === '/byok/');
    expect(sent.map((q) => JSON.parse(q.body).api_key)).toEqual([KEY]);
  });

  it('with prompts off it exits 2 naming what answers instead, as auth login --with-key does', async () => {
    const r = await runPty([...ADD, '--no-input'], { cols: 80, env: { ...sb.env, WSCTL_CONFIG_DIR: tempDir() }, timeoutS: 10 });
    expect(r.code).toBe(2);
    // Wrapped at the terminal's width: read as one line.
    expect(r.text.replace(/\n/g, ' ')).toMatch(/pipe the provider key in with --api-key-stdin, or set WSCTL_BYOK_API_KEY/);
    expect(r.text).not.toContain('input hidden');
  });
});
