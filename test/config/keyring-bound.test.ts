// A credential store that did not answer within the bound counts as absent for the rest of the
// command (cli.md §2: the command ends within that bound, never later): the calls made with the
// same signal fail at once, without a new store process or a second unlock prompt; a later
// command (another signal: a later MCP call) asks again. Played against
// test/fixtures/fake-secret-service.py, whose unlock prompt never completes, on a session bus of
// this test's own; the fake's log of calls is what is counted, never the time taken.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringTimeout, openCredentialStore } from '../../src/config/keyring.js';
import { ROOT, tempDir } from '../helpers.js';

const FAKE = join(ROOT, 'test', 'fixtures', 'fake-secret-service.py');
const PYTHON = '/usr/bin/python3';
const hasFake =
  spawnSync('sh', ['-c', 'command -v dbus-daemon']).status === 0 &&
  spawnSync(PYTHON, ['-c', 'import dbus, dbus.mainloop.glib; from gi.repository import GLib']).status === 0;

/** The first line a child prints on stdout. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before a line: ${out}`)));
  });
}

/** Waits (polling, for a positive event) until the log says what is asked, or gives up after 20 s. */
async function until(read: () => string, done: (log: string) => boolean): Promise<string> {
  for (let i = 0; i < 400 && !done(read()); i++) await new Promise((r) => setTimeout(r, 50));
  return read();
}

const count = (log: string, line: string) => log.split('\n').filter((l) => l === line).length;

describe.skipIf(!hasFake && !process.env.CI)('a store that timed out once in a command', () => {
  let bus: ChildProcess;
  let fake: ChildProcess;
  const log = join(tempDir(), 'calls.log');
  const read = () => {
    try {
      return readFileSync(log, 'utf8');
    } catch {
      return '';
    }
  };
  const saved = process.env.DBUS_SESSION_BUS_ADDRESS;

  beforeAll(async () => {
    bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
    // The store's process inherits this environment: it talks to this bus alone.
    process.env.DBUS_SESSION_BUS_ADDRESS = await firstLine(bus);
    fake = spawn(PYTHON, [FAKE, 'locked', log], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    expect(await firstLine(fake)).toBe('ready');
  });

  afterAll(() => {
    fake?.kill();
    bus?.kill();
    process.env.DBUS_SESSION_BUS_ADDRESS = saved;
  });

  it('fails the later calls of that command at once (one store process, one prompt); another command asks again', async () => {
    const store = await openCredentialStore();
    const command = new AbortController();
    const first = await store.delete('wsctl:/cfg', 'a', command.signal).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(KeyringTimeout);
    // Its process was killed at the bound: the fake sees its connection close.
    let calls = await until(read, (l) => count(l, 'Disconnected') >= 1);
    expect([count(calls, 'Connected'), count(calls, 'Prompt'), count(calls, 'Disconnected')]).toEqual([1, 1, 1]);
    // The same command's later calls, as logout --all's next profiles or a read after a write: no new wait.
    for (const call of [
      () => store.delete('wsctl:/cfg', 'b', command.signal),
      () => store.get('wsctl:/cfg', 'c', command.signal),
      () => store.set('wsctl:/cfg', 'c', 'wsk_0123456789abcdef', command.signal),
    ])
      await expect(call()).rejects.toBe(first);
    expect(read()).toBe(calls);
    // A later command (an MCP server's next call) asks the store again: it may have been unlocked since.
    const later = await store.get('wsctl:/cfg', 'a', new AbortController().signal).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(KeyringTimeout);
    expect(later).not.toBe(first);
    calls = await until(read, (l) => count(l, 'Disconnected') >= 2);
    expect([count(calls, 'Connected'), count(calls, 'Prompt'), count(calls, 'Disconnected')]).toEqual([2, 2, 2]);
  }, 60_000);
});
