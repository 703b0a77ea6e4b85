// A bash script in a fresh D-Bus session (`dbus-run-session`), for the tests of the credential
// store: each test file gives the script's helper functions (a keyring, a fake Secret Service);
// here the shell functions both need, and the run itself.
import { spawn } from 'node:child_process';
import { BIN, tempDir } from '../helpers.js';

export interface SessionRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The functions every script may use: `owned` (a Secret Service holds its D-Bus name), `gone` (until none does). */
const COMMON = `owned() { dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true; }
    gone() { for _ in $(seq 200); do owned || break; sleep 0.05; done; }`;

/**
 * A real gnome-keyring: `start_keyring [--unlock]`, in the foreground so that $KEYRING_PID names it
 * (to stop, freeze or restart it), and `stop_keyring`.
 */
export const KEYRING_FUNCTIONS = `start_keyring() { echo -n throwaway | gnome-keyring-daemon --foreground "$@" --components=secrets >/dev/null 2>&1 & KEYRING_PID=$!
      for _ in $(seq 200); do owned && break; sleep 0.05; done; }
    stop_keyring() { kill "$KEYRING_PID"; wait "$KEYRING_PID" 2>/dev/null; gone; }`;

/** `wsctl`: the built CLI, run by this Node, killed after `killAfterS` when given. */
export function wsctlFunction(killAfterS?: number): string {
  const node = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
  return `wsctl() { ${killAfterS ? `timeout -s KILL ${killAfterS} ` : ''}${node} "$@"; }`;
}

/**
 * Runs `script` (after `functions`) with HOME a new folder and WSCTL_CONFIG_DIR in it; asynchronous,
 * as the sandbox that answers wsctl runs in this process. Killed after `limitMs`; D-Bus's own lines
 * are left out of stderr.
 */
export function inDbusSession(functions: string, script: string, env: Record<string, string>, limitMs: number): Promise<SessionRun> {
  const home = tempDir();
  const child = spawn('dbus-run-session', ['--', 'bash', '-c', `set -u\n    ${COMMON}\n    ${functions}\n    ${script}`], {
    env: { PATH: process.env.PATH ?? '', HOME: home, WSCTL_CONFIG_DIR: `${home}/config`, ...env },
    cwd: home,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({
        status,
        stdout,
        stderr: stderr
          .split('\n')
          .filter((l) => l && !l.startsWith('dbus-daemon['))
          .join('\n'),
      });
    });
  });
}
