// Under an AI agent on a real, sized terminal (cli.md §11): an agent that runs wsctl in a pty gets
// no [y/N] (exit 2 with the hint), no pager and no spinner, where a person on the same terminal
// gets all three. Each check runs with and without CLAUDECODE=1.
import { beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox } from '../helpers.js';
import { crashed, runPty } from './pty.js';

describe('under an agent, on an 80-column terminal', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('a destructive command without --yes asks nothing: exit 2 with the hint, nothing sent', async () => {
    // Were a prompt shown, "y" would answer it.
    const agent = await runPty(['device', 'rm', 'dev_phone'], {
      cols: 80,
      env: { ...sb.env, CI: '1', CLAUDECODE: '1' },
      steps: [['[y/N]', 'y\r']],
    });
    expect(agent.code, agent.text).toBe(2);
    expect(agent.text).not.toContain('[y/N]');
    // One line, wrapped at the terminal's width, and the way on (then the "y" typed after it ended, echoed by the terminal).
    expect(agent.text.replace(/\s+/g, ' ').trim().replace(/ y$/, '')).toBe(
      "Error: Prompts are off under an AI agent (claude-code, from CLAUDECODE): pass --yes to remove device 'dev_phone'. " +
        'Next: wsctl device rm dev_phone --yes',
    );
    expect(agent.text).toMatch(/^Next: wsctl device rm dev_phone --yes$/m);
    expect(sb.requests).toHaveLength(0);
    expect(sb.state.devices.map((d) => d.id)).toContain('dev_phone');

    const person = await runPty(['device', 'rm', 'dev_phone'], { cols: 80, env: { ...sb.env, CI: '1' }, steps: [['[y/N]', 'y\r']] });
    expect(person.code, person.text).toBe(0);
    expect(person.text).toContain('[y/N]');
    expect(sb.state.devices.map((d) => d.id)).not.toContain('dev_phone');
  });

  it('convo show prints the transcript directly: no pager', async () => {
    // A pager that marks every line it shows.
    const env = { ...sb.env, CI: '1', WSCTL_PAGER: 'sed s/^/paged:/' };
    const agent = await runPty(['convo', 'show', 'conv_demo'], { cols: 80, env: { ...env, CLAUDECODE: '1' } });
    expect(agent.code, agent.text).toBe(0);
    expect(agent.text).toMatch(/^Plan the Lisbon team offsite/m);
    expect(agent.text).toMatch(/\(6 messages\)$/m);
    expect(agent.text).not.toContain('paged:');
    expect(crashed(agent.output)).toBe(false);

    const person = await runPty(['convo', 'show', 'conv_demo'], { cols: 80, env });
    expect(person.code, person.text).toBe(0);
    expect(person.text).toMatch(/^paged:Plan the Lisbon team offsite/m);
  });

  it('a slow answer shows no spinner', async () => {
    // No CI variable: outside CI a person's terminal shows the spinner while the answer is late.
    sb.faults.push({ path: '/api-keys', delay_ms: 1500 }, { path: '/api-keys', delay_ms: 1500 });
    const agent = await runPty(['keys', 'list'], { cols: 80, env: { ...sb.env, CI: undefined, CLAUDECODE: '1' } });
    expect(agent.code, agent.text).toBe(0);
    expect(agent.output).toContain('LAST USED');
    expect(agent.output).not.toContain('Loading keys');
    // ora hides the cursor while it spins.
    expect(agent.output).not.toContain('\x1b[?25l');

    const person = await runPty(['keys', 'list'], { cols: 80, env: { ...sb.env, CI: undefined } });
    expect(person.code, person.text).toBe(0);
    expect(person.output).toContain('Loading keys');
  });
});
