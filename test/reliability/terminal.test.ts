// The interactive paths a person sees, in a real terminal (tmux).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { BIN, startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { Terminal } from '../terminal.js';

const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;

describe.skipIf(!hasTmux && !process.env.CI)('in a real terminal', () => {
  let sb: TestSandbox;
  let term: Terminal;
  let env: Record<string, string>;
  beforeEach(async () => {
    sb = await startSandbox();
    const dir = tempDir();
    mkdirSync(join(dir, 'bin'));
    symlinkSync(BIN, join(dir, 'bin', 'wsctl'));
    // No CI variable here: spinners show only outside CI.
    env = {
      PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
      HOME: dir,
      TERM: 'xterm-256color',
      WSCTL_CONFIG_DIR: join(dir, 'config'),
      WSCTL_BASE_URL: sb.url,
    };
    term = new Terminal(env);
    term.send("PS1='$ '", 'Enter');
    return () => term.close();
  });

  it('the hidden key prompt of auth login echoes nothing', async () => {
    term.send('wsctl auth login', 'Enter');
    await term.waitFor(/Paste your API key \(input hidden\): *$/m);
    term.send(sb.key, 'Enter');
    const screen = await term.waitFor(/Logged in to/);
    expect(screen).not.toContain(sb.key);
    expect(JSON.parse(readFileSync(join(env.WSCTL_CONFIG_DIR!, 'config.json'), 'utf8')).profiles.default.api_key).toBe(sb.key);
  });

  it('the [y/N] of device rm defaults to no', async () => {
    term.send(`WSCTL_API_KEY=${sb.key} wsctl device rm dev_phone`, 'Enter');
    await term.waitFor(/Remove device 'dev_phone' \(default profile 'default', http:\/\/127\.0\.0\.1:\d+\)\? \[y\/N\]/);
    term.send('Enter');
    await term.waitFor(/Cancelled: nothing was sent/);
    expect(sb.state.devices.map((d) => d.id)).toContain('dev_phone');
    expect(sb.requests).toHaveLength(0);
  });

  it('a spinner shows on a TTY and never in piped output', async () => {
    sb.faults.push({ path: '/api-keys', delay_ms: 2500 }, { path: '/api-keys', delay_ms: 1500 });
    term.send(`WSCTL_API_KEY=${sb.key} wsctl keys list`, 'Enter');
    await term.waitFor(/Loading keys/);
    await term.waitFor(/LAST USED/);
    const out = join(env.HOME!, 'piped.txt');
    term.send('clear', 'Enter');
    term.send(`WSCTL_API_KEY=${sb.key} wsctl keys list > ${out} 2>&1; echo done-$?`, 'Enter');
    await term.waitFor(/done-0/);
    const piped = readFileSync(out, 'utf8');
    expect(piped).not.toContain('Loading keys');
    expect(piped).not.toContain('\x1b');
  });

  it('colours show on a TTY, and never with NO_COLOR or --no-color', async () => {
    term.send(`WSCTL_API_KEY=${sb.key} wsctl keys list`, 'Enter');
    expect(await term.waitFor(/\x1b\[1mID/, true)).toBeTruthy();
    term.send('clear', 'Enter');
    term.send(`NO_COLOR=1 WSCTL_API_KEY=${sb.key} wsctl keys list; echo nocolor-$((40+2))`, 'Enter');
    const plain = await term.waitFor(/nocolor-42/, true);
    expect(plain).toMatch(/^ID +NAME +PREFIX +CREATED +LAST USED\n─+ +─+/m);
    expect(plain.split('nocolor-42')[0]).not.toMatch(/\x1b\[1m/);
    term.send('clear', 'Enter');
    term.send(`WSCTL_API_KEY=${sb.key} wsctl keys list --no-color; echo flag-$((40+2))`, 'Enter');
    const flag = await term.waitFor(/flag-42/, true);
    expect(flag.split('flag-42')[0]).not.toMatch(/\x1b\[1m/);
  });

  it('Ctrl-C in the pager leaves less on the screen until it quits, then the shell gets exit 130', async () => {
    const small = new Terminal(env, ['bash', '--norc', '--noprofile'], { cols: 80, rows: 12 });
    try {
      small.send("PS1='$ '", 'Enter');
      small.send(`WSCTL_API_KEY=${sb.key} PAGER=less wsctl convo show conv_demo; echo "exit-$?"`, 'Enter');
      await small.waitFor(/Plan the Lisbon team offsite/);
      small.send('C-c');
      await sleep(1500);
      // wsctl waits for the pager, as git does: no shell prompt under a running less.
      expect(small.screen()).not.toMatch(/exit-\d+/);
      small.send('q');
      await small.waitFor(/exit-130/);
    } finally {
      small.close();
    }
  });
});
