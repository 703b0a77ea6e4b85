// A credential store that never answers, and one that is down or refuses, as users meet them
// (cli.md §2): a Secret Service whose collection is locked and whose unlock prompt nobody can answer
// (a headless server, WSL), played by test/fixtures/fake-secret-service.py on a D-Bus session of the
// test's own; a real gnome-keyring for a store that comes back. Each wsctl runs under a kill timeout
// of its own, so a command that would never exit fails its test instead of holding it up. What is
// asserted is counted, never timed (a loaded machine must not change the outcome): the fake logs
// each call, each store process's connection and its closing, so a test sees how many bounds a
// command waited for (one unlock prompt each) and that the store's process was killed.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, startSandbox, type TestSandbox } from '../helpers.js';
import { inDbusSession, KEYRING_FUNCTIONS, type SessionRun, wsctlFunction } from './dbus-session.js';

const FAKE = join(ROOT, 'test', 'fixtures', 'fake-secret-service.py');
// Debian's python3 (python3-dbus, python3-gi): another python3 first on PATH may lack them.
const PYTHON = '/usr/bin/python3';
const hasFake =
  spawnSync('sh', ['-c', 'command -v dbus-run-session']).status === 0 &&
  spawnSync(PYTHON, ['-c', 'import dbus, dbus.mainloop.glib; from gi.repository import GLib']).status === 0;
const hasKeyring = ['gnome-keyring-daemon', 'secret-tool'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);

/** The bound is 3 s; a run that has not ended by this is taken as one that never will (exit 137). */
const KILL_AFTER_S = 40;
const LOADED_MS = 240_000;

/**
 * Runs a bash script in a fresh D-Bus session. In it: `wsctl` (the built CLI, killed after
 * KILL_AFTER_S), `timed` (says `<name>=<exit code> <ms>` at the end), `fake <mode>` and `stop_fake`,
 * `start_keyring`/`stop_keyring` (a real gnome-keyring, unlocked), `store` (what the store holds
 * for this config folder).
 */
function inSession(script: string, env: Record<string, string>): Promise<SessionRun> {
  const functions = `${KEYRING_FUNCTIONS}
    ${wsctlFunction(KILL_AFTER_S)}
    fake() { ${PYTHON} ${JSON.stringify(FAKE)} "$1" "$HOME/calls.log" >"$HOME/fake.out" 2>"$HOME/fake.err" & FAKE_PID=$!
      for _ in $(seq 200); do grep -q ready "$HOME/fake.out" 2>/dev/null && break; sleep 0.05; done; }
    stop_fake() { kill "$FAKE_PID"; wait "$FAKE_PID" 2>/dev/null; gone; }
    # Its line goes to a file of its own, whatever the command's output is redirected to; shown at the end.
    timed() { local name=$1; shift; local start=$(date +%s%N); "$@"; local code=$?; echo "$name=$code $(( ($(date +%s%N) - start) / 1000000 ))" >>"$HOME/timed"; }
    trap 'cat "$HOME/timed" 2>/dev/null' EXIT
    # The calls that follow belong to this command, in the fake's log.
    mark() { echo "--- $1" >>"$HOME/calls.log"; }
    # Until every store process that reached the fake has closed its connection (killed), or 10 s.
    settled() { for _ in $(seq 200); do [ "$(grep -c '^Connected$' calls.log)" = "$(grep -c '^Disconnected$' calls.log)" ] && break; sleep 0.05; done; }
    store() { secret-tool search --all service "wsctl:$WSCTL_CONFIG_DIR" 2>/dev/null | grep '^secret = ' | tr '\\n' ' ' || true; echo; }
    profiles() { tr -d '\\n\\t ' < "$WSCTL_CONFIG_DIR/config.json"; echo; }`;
  return inDbusSession(functions, script, env, LOADED_MS - 5000);
}

/** The exit code in the `name=<code> <ms>` line of timed (137 when the kill timeout ended it). */
function ended(out: string, name: string): number {
  const m = new RegExp(`^${name}=(\\d+) (\\d+)$`, 'm').exec(out);
  if (!m) throw new Error(`no result for ${name} in:\n${out}`);
  return Number(m[1]);
}

/** What the fake saw of each command (after its `mark`): unlock prompts, store connections made and closed. */
function seen(out: string, name: string): { prompts: number; connected: number; closed: number } {
  const log = /^calls-log=([\s\S]*)^end-of-log$/m.exec(out)?.[1] ?? '';
  const part = log.split(`--- ${name}\n`)[1]?.split('\n--- ')[0];
  if (part === undefined) throw new Error(`no calls for ${name} in:\n${log}`);
  const lines = part.split('\n');
  const count = (line: string) => lines.filter((l) => l === line).length;
  return { prompts: count('Prompt'), connected: count('Connected'), closed: count('Disconnected') };
}

const inStore = (url: string, names: string[]) =>
  JSON.stringify({ profiles: Object.fromEntries(names.map((name) => [name, { base_url: url, key_storage: 'keyring' }])) });
const TWO_PROFILES = (url: string) => inStore(url, ['a', 'b']);
const THREE_PROFILES = (url: string) => inStore(url, ['a', 'b', 'c']);

describe.skipIf(!hasFake && !process.env.CI)('a locked store whose unlock prompt never completes', { timeout: LOADED_MS }, () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('login, token, status --all, logout and logout --all give it up at the 3 s bound (one each), say so, and exit', async () => {
    const r = await inSession(
      `fake locked
      mark login; timed login wsctl auth login --with-key --profile work <<<"$KEY" >login.out 2>login.err; settled
      echo "login-out=$(cat login.out)"; echo "login-err=$(cat login.err)"
      echo "login-config=$(profiles)"
      printf '%s' "$TWO" > "$WSCTL_CONFIG_DIR/config.json"
      mark token; timed token wsctl auth token --profile a >token.out 2>token.err; settled
      echo "token-out=$(cat token.out)"; echo "token-err=$(cat token.err)"
      mark all; timed all wsctl auth status --all --json >all.out 2>all.err; settled
      echo "all-errors=$(grep -c 'did not answer within 3 s' all.out)"
      mark logout; timed logout wsctl auth logout --profile a >logout.out 2>logout.err; settled
      echo "logout-err=$(cat logout.err)"
      echo "logout-config=$(profiles)"
      printf '%s' "$THREE" > "$WSCTL_CONFIG_DIR/config.json"
      mark logout-all; timed logout-all wsctl auth logout --all >all-out.out 2>all-out.err; settled
      echo "logout-all-bounds=$(grep -c 'did not answer within 3 s' all-out.err)"
      echo "logout-all-config=$(profiles)"
      echo "calls-log=$(cat calls.log)"; echo end-of-log
      stop_fake`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url, TWO: TWO_PROFILES(sb.url), THREE: THREE_PROFILES(sb.url) },
    );
    const out = r.stdout;
    // Each command met the prompt that never completes once, waited for one bound, and its store
    // process was killed there (its connection closed). status --all asks for its two profiles at
    // once, so both may reach the prompt within that one bound; logout --all asks for one profile
    // and gives the other two up at once.
    for (const name of ['login', 'token', 'logout', 'logout-all'])
      expect(seen(out, name), name).toEqual({ prompts: 1, connected: 1, closed: 1 });
    const all = seen(out, 'all');
    expect(all.prompts).toBeGreaterThanOrEqual(1);
    expect(all.prompts).toBeLessThanOrEqual(2);
    expect(all.closed).toBe(all.connected);
    expect(ended(out, 'login')).toBe(0);
    expect(out).toMatch(
      /^login-out=Logged in to http:\/\/127\.0\.0\.1:\d+ as profile 'work' \(key wsk_.*, stored in .*\/config\/config\.json\)\.$/m,
    );
    expect(out).toMatch(
      /^login-err=! No credential store could be reached, so the key is stored in .*config\.json \(mode 0600\) instead;/m,
    );
    expect(out).toContain(`"work":{"base_url":"${sb.url}","api_key":"${sb.key}"}`);
    expect(ended(out, 'token')).toBe(4);
    expect(out).toContain('token-out=\n');
    expect(out).toContain(
      "token-err=Error: The key of profile 'a' is in the credential store, but the credential store did not answer within 3 s. Unlock the store, or run `wsctl auth login --profile a` to replace the key.\n",
    );
    expect(ended(out, 'all')).toBe(4);
    expect(out).toContain('all-errors=2\n');
    expect(ended(out, 'logout')).toBe(0);
    expect(out).toMatch(
      /^logout-err=! Could not remove the key of profile 'a' from the credential store \(the credential store did not answer within 3 s\)/m,
    );
    // The entry could not be removed: config.json still names it.
    expect(out).toContain(`logout-config={"profiles":{"a":{"base_url":"${sb.url}","key_storage":"keyring"},`);
    expect(ended(out, 'logout-all')).toBe(0);
    expect(out).toContain('logout-all-bounds=3\n');
    expect(out).toContain(`logout-all-config={"profiles":{"a":{"base_url":"${sb.url}","key_storage":"keyring"},"b":`);
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
    for (let i = 1; i <= 10; i++) expect(ended(r.stdout, `login${i}`)).toBe(0);
    expect(r.stdout).toContain('saved=10\n');
  });

  it('Ctrl-C while a store call waits ends the command at once with 130, before the bound: token, login, profile rm, keys create --save-as', async () => {
    const r = await inSession(
      `fake locked
      mkdir -m 700 "$WSCTL_CONFIG_DIR"; printf '%s' "$TWO" > "$WSCTL_CONFIG_DIR/config.json"; chmod 600 "$WSCTL_CONFIG_DIR/config.json"
      before=$(profiles)
      # wsctl itself, so that the signal reaches it; a watchdog stands in for the kill timeout. SIGINT
      # goes as soon as the call waits on the prompt that never completes, well inside the 3 s bound.
      interrupt() { local name=$1; shift; mark "$name"; local prompts=$(grep -c '^Prompt$' calls.log)
        ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@" <<<"$KEY" >"$name.out" 2>"$name.err" & local pid=$!
        (sleep ${KILL_AFTER_S}; kill -KILL $pid) >/dev/null 2>&1 & local watchdog=$!
        for _ in $(seq 400); do [ "$(grep -c '^Prompt$' calls.log)" -gt "$prompts" ] && break; sleep 0.025; done
        kill -INT $pid; wait $pid; echo "$name=$? 0"; kill $watchdog; settled
        echo "$name-err=$(tail -n 1 "$name.err")"; echo "$name-config=$(profiles)"; }
      interrupt token auth token --profile a
      interrupt login auth login --with-key --no-verify --profile a
      interrupt rm profile rm b
      WSCTL_API_KEY=$KEY interrupt create keys create saved --save-as a --force --base-url "$URL"
      echo "before=$before"
      echo "calls-log=$(cat calls.log)"; echo end-of-log
      stop_fake`,
      { TWO: TWO_PROFILES(sb.url), KEY: sb.key, URL: sb.url },
    );
    const out = r.stdout;
    const before = /^before=(.*)$/m.exec(out)?.[1];
    for (const name of ['token', 'login', 'rm', 'create']) {
      // 130 and "Interrupted.": ended by Ctrl-C itself. The bound would have ended it otherwise (token: exit 4;
      // login, rm, create: exit 0 with the key or profile handled without the store), and Node's fallback
      // exit a second after Ctrl-C says nothing.
      expect([ended(out, name), new RegExp(`^${name}-err=(.*)$`, 'm').exec(out)?.[1]], name).toEqual([130, 'Interrupted.']);
      // Its store process was killed (the connection closed), and nothing was changed.
      expect(seen(out, name), name).toEqual({ prompts: 1, connected: 1, closed: 1 });
      expect(new RegExp(`^${name}-config=(.*)$`, 'm').exec(out)?.[1], name).toBe(before);
    }
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
        `start_keyring --unlock
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
        start_keyring --unlock
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
