// A credential store that never answers, and one that is down or refuses, as users meet them
// (cli.md §2): a Secret Service whose collection is locked and whose unlock prompt nobody can answer
// (a headless server, WSL), played by test/fixtures/fake-secret-service.py on a D-Bus session of the
// test's own; a real gnome-keyring for a store that comes back. Each wsctl runs under a kill timeout
// of its own, so a command that would never exit fails its test instead of holding it up.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

const FAKE = join(ROOT, 'test', 'fixtures', 'fake-secret-service.py');
// Debian's python3 (python3-dbus, python3-gi): another python3 first on PATH may lack them.
const PYTHON = '/usr/bin/python3';
const hasFake =
  spawnSync('sh', ['-c', 'command -v dbus-run-session']).status === 0 &&
  spawnSync(PYTHON, ['-c', 'import dbus, dbus.mainloop.glib; from gi.repository import GLib']).status === 0;
const hasKeyring = ['gnome-keyring-daemon', 'secret-tool'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);

/** The bound is 3 s; a run that has not ended by this is taken as one that never will. */
const KILL_AFTER_S = 40;
/** Generous: the bound plus a machine loaded by other suites, far below "never". */
const ENDS_WITHIN_MS = 15_000;
const LOADED_MS = 240_000;

/**
 * Runs a bash script in a fresh D-Bus session. In it: `wsctl` (the built CLI, killed after
 * KILL_AFTER_S), `timed` (says `<name>=<exit code> <ms>` at the end), `fake <mode>` and `stop_fake`,
 * `start_keyring`/`stop_keyring` (a real gnome-keyring, unlocked), `store` (what the store holds
 * for this config folder).
 */
function inSession(script: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const home = tempDir();
  const wrapped = `set -u
    owned() { dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true; }
    gone() { for _ in $(seq 200); do owned || break; sleep 0.05; done; }
    fake() { ${PYTHON} ${JSON.stringify(FAKE)} "$1" "$HOME/calls.log" >"$HOME/fake.out" 2>"$HOME/fake.err" & FAKE_PID=$!
      for _ in $(seq 200); do grep -q ready "$HOME/fake.out" 2>/dev/null && break; sleep 0.05; done; }
    stop_fake() { kill "$FAKE_PID"; wait "$FAKE_PID" 2>/dev/null; gone; }
    start_keyring() { echo -n throwaway | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 & KEYRING_PID=$!
      for _ in $(seq 200); do owned && break; sleep 0.05; done; }
    stop_keyring() { kill "$KEYRING_PID"; wait "$KEYRING_PID" 2>/dev/null; gone; }
    wsctl() { timeout -s KILL ${KILL_AFTER_S} ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }
    # Its line goes to a file of its own, whatever the command's output is redirected to; shown at the end.
    timed() { local name=$1; shift; local start=$(date +%s%N); "$@"; local code=$?; echo "$name=$code $(( ($(date +%s%N) - start) / 1000000 ))" >>"$HOME/timed"; }
    trap 'cat "$HOME/timed" 2>/dev/null' EXIT
    store() { secret-tool search --all service "wsctl:$WSCTL_CONFIG_DIR" 2>/dev/null | grep '^secret = ' | tr '\\n' ' ' || true; echo; }
    profiles() { tr -d '\\n\\t ' < "$WSCTL_CONFIG_DIR/config.json"; echo; }
    ${script}`;
  const child = spawn('dbus-run-session', ['--', 'bash', '-c', wrapped], {
    env: { PATH: process.env.PATH ?? '', HOME: home, WSCTL_CONFIG_DIR: join(home, 'config'), ...env },
    cwd: home,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), LOADED_MS - 5000);
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

/** `name=<code> <ms>` lines of timed: the code and whether it ended well within the kill timeout. */
function ended(out: string, name: string): { code: number; inTime: boolean } {
  const m = new RegExp(`^${name}=(\\d+) (\\d+)$`, 'm').exec(out);
  if (!m) throw new Error(`no result for ${name} in:\n${out}`);
  return { code: Number(m[1]), inTime: Number(m[2]) < ENDS_WITHIN_MS };
}

const TWO_PROFILES = (url: string) =>
  JSON.stringify({ profiles: { a: { base_url: url, key_storage: 'keyring' }, b: { base_url: url, key_storage: 'keyring' } } });

describe.skipIf(!hasFake && !process.env.CI)('a locked store whose unlock prompt never completes', { timeout: LOADED_MS }, () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('login, token, status --all and logout give it up at the 3 s bound, say so, and exit', async () => {
    const r = await inSession(
      `fake locked
      timed login wsctl auth login --with-key --profile work <<<"$KEY" >login.out 2>login.err
      echo "login-out=$(cat login.out)"; echo "login-err=$(cat login.err)"
      echo "login-config=$(profiles)"
      printf '%s' "$TWO" > "$WSCTL_CONFIG_DIR/config.json"
      timed token wsctl auth token --profile a >token.out 2>token.err
      echo "token-out=$(cat token.out)"; echo "token-err=$(cat token.err)"
      timed all wsctl auth status --all --json >all.out 2>all.err
      echo "all-errors=$(grep -c 'did not answer within 3 s' all.out)"
      timed logout wsctl auth logout --profile a >logout.out 2>logout.err
      echo "logout-err=$(cat logout.err)"
      echo "logout-config=$(profiles)"
      echo "prompts=$(grep -c '^Prompt$' calls.log)"
      stop_fake`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url, TWO: TWO_PROFILES(sb.url) },
    );
    const out = r.stdout;
    // The fake was asked to unlock, and its prompt never answered: each command met the hang.
    expect(Number(/^prompts=(\d+)$/m.exec(out)?.[1])).toBeGreaterThanOrEqual(4);
    for (const name of ['login', 'token', 'all', 'logout']) expect(ended(out, name).inTime, name).toBe(true);
    expect(ended(out, 'login').code).toBe(0);
    expect(out).toMatch(
      /^login-out=Logged in to http:\/\/127\.0\.0\.1:\d+ as profile 'work' \(key wsk_.*, stored in .*\/config\/config\.json\)\.$/m,
    );
    expect(out).toMatch(
      /^login-err=! No credential store could be reached, so the key is stored in .*config\.json \(mode 0600\) instead;/m,
    );
    expect(out).toContain(`"work":{"base_url":"${sb.url}","api_key":"${sb.key}"}`);
    expect(ended(out, 'token').code).toBe(4);
    expect(out).toContain('token-out=\n');
    expect(out).toContain(
      "token-err=Error: The key of profile 'a' is in the credential store, but the credential store did not answer within 3 s. Unlock the store, or run `wsctl auth login --profile a` to replace the key.\n",
    );
    expect(ended(out, 'all').code).toBe(4);
    expect(out).toContain('all-errors=2\n');
    expect(ended(out, 'logout').code).toBe(0);
    expect(out).toMatch(
      /^logout-err=! Could not remove the key of profile 'a' from the credential store \(the credential store did not answer within 3 s\)/m,
    );
    // The entry could not be removed: config.json still names it.
    expect(out).toContain(`logout-config={"profiles":{"a":{"base_url":"${sb.url}","key_storage":"keyring"},`);
  });

  it('ten logins at once all exit, each with its key in config.json', async () => {
    const r = await inSession(
      `fake locked
      pids=()
      for i in $(seq 10); do (timed "login$i" wsctl auth login --with-key --no-verify --profile "p$i" <<<"$KEY" >/dev/null 2>&1) & pids+=($!); done
      wait "\${pids[@]}"
      echo "saved=$(grep -o '"p[0-9]*": {' "$WSCTL_CONFIG_DIR/config.json" | wc -l)"
      stop_fake`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url },
    );
    for (let i = 1; i <= 10; i++) expect(ended(r.stdout, `login${i}`)).toEqual({ code: 0, inTime: true });
    expect(r.stdout).toContain('saved=10\n');
  });

  it('Ctrl-C while a store call waits ends the command at once with 130', async () => {
    const r = await inSession(
      `fake locked
      mkdir -m 700 "$WSCTL_CONFIG_DIR"; printf '%s' "$TWO" > "$WSCTL_CONFIG_DIR/config.json"; chmod 600 "$WSCTL_CONFIG_DIR/config.json"
      # wsctl itself, so that the signal reaches it; a watchdog stands in for the kill timeout.
      ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} auth token --profile a >token.out 2>token.err & PID=$!
      (sleep ${KILL_AFTER_S}; kill -KILL $PID) >/dev/null 2>&1 & WATCHDOG=$!
      # Until the call waits on the prompt that never completes.
      for _ in $(seq 400); do grep -q '^Prompt$' calls.log 2>/dev/null && break; sleep 0.025; done
      start=$(date +%s%N)
      kill -INT $PID; wait $PID; echo "token=$? $(( ($(date +%s%N) - start) / 1000000 ))"
      kill $WATCHDOG
      echo "token-out=$(cat token.out)"; echo "token-err=$(cat token.err)"
      stop_fake`,
      { TWO: TWO_PROFILES(sb.url) },
    );
    expect(ended(r.stdout, 'token')).toEqual({ code: 130, inTime: true });
    // Ended by Ctrl-C, not by the bound.
    expect(r.stdout).toContain('token-out=\ntoken-err=Interrupted.\n');
  });
});

describe.skipIf(!(hasFake && hasKeyring) && !process.env.CI)(
  'config.json names an entry until it is really gone',
  { timeout: LOADED_MS },
  () => {
    let sb: TestSandbox;
    beforeAll(async () => {
      sb = await startSandbox();
    });

    it('logout and a re-login to the file while the store is down or refusing keep the pointer; a logout once it is up removes the entry', async () => {
      const r = await inSession(
        `start_keyring
        wsctl auth login --with-key --profile work <<<"$KEY" >/dev/null 2>&1
        wsctl auth login --with-key --no-verify --profile moved <<<wsk_old_key_in_the_store >/dev/null 2>&1
        echo "before=$(store)"
        stop_keyring
        # Down: no session bus at all.
        DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent wsctl auth logout --profile work >down.out 2>down.err; echo "down-logout=$?"
        echo "down-out=$(cat down.out)"; echo "down-err=$(cat down.err)"
        echo "down-config=$(profiles)"
        # Refusing: a service that answers every call with an error.
        fake refuse
        wsctl auth logout --profile work --json >refused.out 2>/dev/null; echo "refused-logout=$?"
        echo "refused-json=$(tr -d '\\n ' < refused.out)"
        wsctl auth login --with-key --no-verify --profile moved <<<wsk_new_key_in_the_file >/dev/null 2>relogin.err; echo "relogin=$?"
        echo "relogin-warnings=$(grep -c . relogin.err)"
        echo "refused-config=$(profiles)"
        echo "moved-token=$(wsctl auth token --profile moved)"
        stop_fake
        # Up again, the same keyring on disk.
        start_keyring
        echo "up-before=$(store)"
        wsctl auth logout --profile work >up.out 2>up.err; echo "up-logout=$?"
        echo "up-out=$(cat up.out)"; echo "up-err=$(cat up.err)"
        wsctl auth logout --profile moved >/dev/null 2>&1; echo "moved-logout=$?"
        echo "up-config=$(profiles)"
        echo "after=$(store)"
        stop_keyring`,
        { KEY: sb.key, WSCTL_BASE_URL: sb.url },
      );
      const out = r.stdout;
      expect(out).toMatch(new RegExp(`^before=.*secret = ${sb.key} `, 'm'));
      expect(out).toMatch(/^before=.*secret = wsk_old_key_in_the_store /m);
      expect(out).toContain('down-logout=0\n');
      expect(out).toContain(
        "down-out=Still logged in: 'work', whose key is in the credential store until `wsctl auth logout` can remove it (see above).\n",
      );
      expect(out).toMatch(
        /^down-err=! Could not remove the key of profile 'work' from the credential store \(the credential store could not delete the key\)/m,
      );
      expect(out).toContain(`down-config={"profiles":{"work":{"base_url":"${sb.url}","key_storage":"keyring"},`);
      expect(out).toContain('refused-logout=0\n');
      expect(out).toContain('refused-json={"logged_out":[],"left_in_credential_store":["work"]}\n');
      // The new key goes to the file with one warning; the old entry stays named beside it.
      expect(out).toContain('relogin=0\nrelogin-warnings=1\n');
      expect(out).toContain(`"moved":{"base_url":"${sb.url}","api_key":"wsk_new_key_in_the_file","key_storage":"keyring"}`);
      expect(out).toContain('moved-token=wsk_new_key_in_the_file\n');
      expect(out).toContain('up-logout=0\n');
      expect(out).toContain("up-out=Removed the stored key of 'work'.\nup-err=\n");
      expect(out).toContain('moved-logout=0\n');
      expect(out).toContain(`up-config={"profiles":{"work":{"base_url":"${sb.url}"},"moved":{"base_url":"${sb.url}"}},`);
      expect(out).toContain('after=\n');
    });
  },
);
