// A person's no at a deletion's [y/N] (cli.md §5): nothing is sent, "Cancelled: nothing was sent."
// without "Error:", exit 2 (reason `declined`), as gh exits on a cancelled prompt; and the question
// names the sandbox as `the sandbox`, never its passing port (cli.md §6). The built bin/wsctl on a
// sized pseudo-terminal, as a person runs it.
import { beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { runPty } from './pty.js';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await startSandbox();
});

describe('a no at [y/N]', () => {
  it.each([['n\r'], ['\r']])('answered %j: exit 2, "Cancelled: nothing was sent.", nothing sent', async (keys) => {
    const r = await runPty(['pub', 'rm', 'pub_demo'], { cols: 80, env: sb.env, steps: [['[y/N]', keys]] });
    expect(r.code).toBe(2);
    expect(r.text).toMatch(/^Cancelled: nothing was sent\.$/m);
    expect(r.text).not.toContain('Error:');
    expect(sb.requests).toEqual([]);
  });

  it('with --sandbox the question names the sandbox, not its port', async () => {
    const env = { WSCTL_CONFIG_DIR: tempDir() };
    const r = await runPty(['--sandbox', 'device', 'rm', 'dev_phone'], { cols: 200, env, steps: [['[y/N]', 'n\r']] });
    const question = r.text.slice(0, r.text.indexOf('[y/N]'));
    expect(question).toMatch(/Remove device 'dev_phone' \(.*the sandbox\)\? $/s);
    expect(question).not.toMatch(/127\.0\.0\.1|:\d{2,5}\)/);
    expect(r.code).toBe(2);
  });
});
