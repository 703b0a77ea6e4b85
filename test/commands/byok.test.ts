import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, startSandbox, type TestSandbox } from '../helpers.js';

const SECRET = 'sk-provider-0123456789abcdef';
const args = [
  'byok',
  'add',
  '--name',
  'fast',
  '--provider-url',
  'https://api.groq.com/openai/v1',
  '--format',
  'groq',
  '--model',
  'llama-3.3-70b',
];

describe('byok add', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('reads the key from stdin, sends all five fields, and masks the key in output', async () => {
    const r = await run([...args, '--api-key-stdin'], { env: sb.env, stdin: `${SECRET}\n` });
    expect(r.code).toBe(0);
    const req = lastRequest(sb);
    expect([req.method, req.path, JSON.parse(req.body)]).toEqual([
      'POST',
      '/byok/',
      { name: 'fast', base_url: 'https://api.groq.com/openai/v1', api_key: SECRET, format: 'groq', model_id: 'llama-3.3-70b' },
    ]);
    expect(r.stdout).toContain('api_key\tsk-p…cdef');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const json = await run([...args, '--json'], { env: { ...sb.env, WSCTL_BYOK_API_KEY: SECRET } });
    expect(JSON.parse(json.stdout).api_key).toBe('sk-p…cdef');
    expect(json.stdout).not.toContain(SECRET);
  });

  it('--show-secret shows it', async () => {
    const r = await run([...args, '--show-secret', '--json'], { env: { ...sb.env, WSCTL_BYOK_API_KEY: SECRET } });
    expect(JSON.parse(r.stdout).api_key).toBe(SECRET);
  });

  it('asks with a hidden prompt on a TTY; without any source off a TTY exits 2', async () => {
    const tty = await run(args, { env: sb.env, tty: true, stdinTTY: true, answers: [SECRET] });
    expect(tty.code).toBe(0);
    expect(tty.prompts).toEqual(['Provider API key (input hidden): ']);
    const none = await run(args, { env: sb.env });
    expect(none.code).toBe(2);
    expect(sb.requests).toHaveLength(1);
  });

  it('validates format and provider URL before sending; --dry-run redacts the provider key', async () => {
    const badFormat = await run(
      ['byok', 'add', '--name', 'x', '--provider-url', 'https://a.example', '--format', 'mistral', '--model', 'm'],
      { env: { ...sb.env, WSCTL_BYOK_API_KEY: SECRET } },
    );
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain('openai, anthropic, groq');
    const badUrl = await run(['byok', 'add', '--name', 'x', '--provider-url', 'ftp://a.example', '--format', 'openai', '--model', 'm'], {
      env: { ...sb.env, WSCTL_BYOK_API_KEY: SECRET },
    });
    expect(badUrl.code).toBe(2);
    const missing = await run(['byok', 'add', '--name', 'x'], { env: sb.env });
    expect(missing.code).toBe(2);
    expect(sb.requests).toHaveLength(0);
    const dry = await run([...args, '--dry-run', '--debug'], { env: { ...sb.env, WSCTL_BYOK_API_KEY: SECRET } });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('"api_key": "[redacted]"');
    expect(dry.stdout + dry.stderr).not.toContain(SECRET);
  });

  it('--debug never shows the provider key', async () => {
    const r = await run([...args, '--debug'], { env: { ...sb.env, WSCTL_BYOK_API_KEY: SECRET } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> POST');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });
});
