// Boolean and test-only variables, as the built CLI reads them: one way for every boolean
// (cli.md §1), and a bad value is exit 2 naming it before anything is sent.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, runBin, tempDir } from '../helpers.js';

describe('boolean variables', () => {
  // Stands in for a real service: it must never be asked anything here.
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('{}');
  });
  let real = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    real = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each(['true', 'yes', 'ON', '1'])('WSCTL_SANDBOX=%s is the sandbox, never the configured service', async (value) => {
    const env = { WSCTL_CONFIG_DIR: tempDir(), WSCTL_BASE_URL: real, WSCTL_API_KEY: 'wsk_real_service_key', WSCTL_SANDBOX: value };
    const r = await runBin(['--dry-run', 'device', 'rm', 'dev_phone', '--yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^DELETE http:\/\/127\.0\.0\.1:\d+\/devices\/dev_phone$/);
    expect(r.stdout).not.toContain(real);
    expect(hits).toBe(0);
  });

  it.each(['false', 'no', 'Off', '0', ''])('WSCTL_SANDBOX=%j is off', async (value) => {
    const env = { WSCTL_CONFIG_DIR: tempDir(), WSCTL_BASE_URL: real, WSCTL_API_KEY: 'wsk_real_service_key', WSCTL_SANDBOX: value };
    const r = await runBin(['--dry-run', 'device', 'rm', 'dev_phone', '--yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`DELETE ${real}/devices/dev_phone`);
  });

  it.each([
    ['WSCTL_SANDBOX', 'maybe'],
    ['WSCTL_NO_INPUT', '2'],
    ['WSCTL_DEBUG', 'verbose'],
  ])('%s=%s is exit 2 naming the variable and its values, and sends nothing', async (name, value) => {
    const env = { WSCTL_CONFIG_DIR: tempDir(), WSCTL_BASE_URL: real, WSCTL_API_KEY: 'wsk_real_service_key', [name]: value };
    const r = await runBin(['device', 'rm', 'dev_phone', '--yes'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Error: Invalid ${name} '${value}': use 1, true, yes or on to turn it on, or 0, false, no, off or empty to turn it off.\n`,
    );
    expect(hits).toBe(0);
  });

  it.each([
    ['true', true],
    ['yes', true],
    [' 1', true],
    ['ON', true],
    ['1', true],
    ['off', false],
    ['', false],
  ])('WSCTL_SANDBOX=%j: the entry `mcp config` prints drives the sandbox too (%s)', async (value, sandbox) => {
    const r = await runBin(['mcp', 'config'], { env: { WSCTL_CONFIG_DIR: tempDir(), WSCTL_SANDBOX: value } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).mcpServers.wsctl.args.includes('--sandbox')).toBe(sandbox);
  });

  it('WSCTL_NO_INPUT=true turns prompts off on a terminal', async () => {
    const r = await run(['device', 'rm', 'dev_phone'], {
      tty: true,
      stdinTTY: true,
      env: { WSCTL_CONFIG_DIR: tempDir(), WSCTL_BASE_URL: real, WSCTL_API_KEY: 'wsk_real_service_key', WSCTL_NO_INPUT: 'true' },
    });
    expect(r.code).toBe(2);
    expect(r.prompts).toEqual([]);
    expect(r.stderr).toMatch(/^Error: Prompts are off/);
  });

  it('WSCTL_DEBUG=yes traces, as --debug does', async () => {
    const r = await runBin(['keys', 'list'], { env: { WSCTL_CONFIG_DIR: tempDir(), WSCTL_DEBUG: 'yes', WSCTL_SANDBOX: 'on' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api-keys\//);
  });
});

describe('test-only variables', () => {
  it.each([
    ['WSCTL_MAX_RESPONSE_MB', 'abc', 'MiB from 1 to 256'],
    ['WSCTL_MAX_RESPONSE_MB', '100000', 'MiB from 1 to 256'],
    ['WSCTL_RETRY_BASE_MS', '1e12', 'milliseconds from 0 to 10000'],
  ])('%s=%s is exit 2', async (name, value, range) => {
    const r = await runBin(['--sandbox', 'keys', 'list'], { env: { WSCTL_CONFIG_DIR: tempDir(), [name]: value } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`Error: Invalid ${name} '${value}': give a whole number of ${range}.\n`);
  });
});
