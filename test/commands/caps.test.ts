import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, startSandbox, strip, type TestSandbox } from '../helpers.js';

describe('caps', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('piped: one line per item, its kind first', async () => {
    const r = await run(['caps'], { env: sb.env });
    expect(`${lastRequest(sb).method} ${lastRequest(sb).path}`).toBe('GET /capabilities/');
    expect(r.stdout).toBe(
      [
        'number\t+14155550123\tPersonal line\tTexts from you reach the assistant\ttrue\tconv_demo',
        'number\t+14155550188\tFront desk\tAnswers visitors on your behalf\tfalse\t',
        'email\tada@ws-demo.example',
        'email\tinbox@ws-demo.example',
        'app\tgmail\tread\talex@example.com\tAlex Morgan',
        'app\tnotion\twrite\tws_7Qd2\tMorgan Studio',
        'prompt\tprompts/daily-brief.md\tDaily brief\tA morning summary of calendar, mail and tasks',
        'prompt\tprompts/weekly-review.md\tWeekly review\tWhat moved this week and what is stuck',
        '',
      ].join('\n'),
    );
  });

  it('TTY: four sections with tables; an empty section says so', async () => {
    sb.state.prompts = [];
    const r = await run(['caps'], { env: sb.env, tty: true });
    const text = strip(r.stdout);
    for (const title of ['Text numbers', 'E-mail addresses', 'Connected apps', 'Prompts']) expect(text).toContain(`${title}\n`);
    expect(text).toMatch(/^gmail +read +alex@example.com/m);
    expect(text).toContain('Prompts\n  No prompts.');
  });

  it('--json is the body', async () => {
    const r = await run(['caps', '--json'], { env: sb.env });
    expect(JSON.parse(r.stdout).connected_apps.map((a: { app_slug: string }) => a.app_slug)).toEqual(['gmail', 'notion']);
  });
});
