import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, startSandbox, strip, type TestSandbox } from '../helpers.js';

describe('settings', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('piped: key<TAB>value lines, an unset name shows the suggested one', async () => {
    const r = await run(['settings'], { env: sb.env });
    expect(r.code).toBe(0);
    expect(`${lastRequest(sb).method} ${lastRequest(sb).path}`).toBe('GET /settings/');
    expect(r.stdout.split('\n').slice(0, 5)).toEqual([
      'name\t',
      'suggested_name\tAlex',
      'icon\t🦊',
      'timezone\tEurope/Lisbon',
      'language\ten-GB',
    ]);
    expect(r.stdout).toContain('greeting_prompt\t\n');
  });

  it('TTY: labelled, unset values marked', async () => {
    sb.state.settings.name = 'Alexandra';
    const r = await run(['settings'], { env: sb.env, tty: true });
    const text = strip(r.stdout);
    expect(text).toMatch(/^Name: +Alexandra$/m);
    expect(text).toMatch(/^Greeting prompt: +\(not set\)$/m);
  });

  it('--json is the body, unknown fields kept', async () => {
    sb.state.settings.theme = 'dark';
    const r = await run(['settings', '--json'], { env: sb.env });
    expect(JSON.parse(r.stdout)).toEqual(sb.state.settings);
  });
});
