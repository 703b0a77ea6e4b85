// Keys in a real Secret Service: Debian's gnome-keyring inside dbus-run-session, with a throwaway
// HOME, as a Linux desktop has it. And without one: the file, with one warning. Each test has
// its own D-Bus session, keyring and config folder.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { inDbusSession, KEYRING_FUNCTIONS, type SessionRun, wsctlFunction } from './dbus-session.js';

const hasSecretService = ['dbus-run-session', 'gnome-keyring-daemon', 'secret-tool'].every(
  (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0,
);

/**
 * A test starts a D-Bus session, a keyring and several wsctl processes: ~1-3 s alone, past 30 s
 * on a machine loaded by other suites.
 */
const LOADED_MS = 90_000;

/** Runs a bash script in a fresh D-Bus session with an unlocked gnome-keyring; `wsctl` is the built CLI. */
function withSecretService(script: string, env: Record<string, string>): Promise<SessionRun> {
  const functions = `${KEYRING_FUNCTIONS}
    ${wsctlFunction()}
    # An entry as the library writes it, under any service name (as an earlier version named them).
    legacy_entry() { ${JSON.stringify(process.execPath)} -e 'const { Entry } = require(process.argv[1]); new Entry(process.argv[2], process.argv[3], { linux: { store: "secret-service" } }).setPassword(process.argv[4])' ${JSON.stringify(join(ROOT, 'node_modules', '@napi-rs', 'keyring'))} "$@"; }
    store() { secret-tool search --all service "wsctl:$WSCTL_CONFIG_DIR" 2>/dev/null | grep '^secret = ' || echo none; }
    start_keyring --unlock`;
  return inDbusSession(functions, script, env, LOADED_MS - 5000);
}

describe.skipIf(!hasSecretService && !process.env.CI)('a real Secret Service (gnome-keyring)', { timeout: LOADED_MS }, () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('login stores the key in the store and not in config.json; token, keys list and status use it; logout removes it', async () => {
    const r = await withSecretService(
      `wsctl auth login --with-key --profile work <<<"$KEY" 2>login.err; echo "login=$?"
      echo "warnings=$(grep -c . login.err || true)"
      echo "config=$(tr -d '\\n\\t ' < "$WSCTL_CONFIG_DIR/config.json")"
      echo "store-after-login=$(store)"
      echo "token=$(wsctl auth token --profile work)"
      wsctl keys list --profile work >/dev/null; echo "list=$?"
      echo "status=$(wsctl auth status --profile work --json | tr -d '\\n ')"
      wsctl profile list
      wsctl auth logout --profile work >/dev/null; echo "logout=$?"
      echo "store-after-logout=$(store)"
      wsctl auth token --profile work; echo "token-after-logout=$?"`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url },
    );
    // The one error: the token asked for after logout.
    expect(r.stderr).toBe("Error: No API key for profile 'work'. Run `wsctl auth login --profile work` or set WSCTL_API_KEY.");
    const out = r.stdout;
    expect(out).toContain('login=0');
    expect(out).toContain('warnings=0');
    expect(out).toContain('config={"profiles":{"work":{"base_url":');
    expect(out).toContain('"key_storage":"keyring"');
    expect(out).not.toMatch(/config=.*wsk_/);
    expect(out).toContain(`store-after-login=secret = ${sb.key}`);
    expect(out).toContain(`token=${sb.key}\n`);
    expect(out).toContain('list=0');
    expect(out).toContain('"key_source":"profile","key_storage":"keyring"');
    expect(out).toContain('"valid":true');
    expect(out).toMatch(/^work\thttp:\/\/127\.0\.0\.1:\d+\ttrue\ttrue\tfull$/m);
    expect(out).toContain('logout=0');
    expect(out).toContain('store-after-logout=none');
    expect(out).toContain('token-after-logout=4');
  });

  it('a key in config.json from an earlier version keeps working, and a new login moves it into the store', async () => {
    const r = await withSecretService(
      `mkdir -p -m 700 "$WSCTL_CONFIG_DIR"
      printf '{"current_profile":"old","profiles":{"old":{"base_url":"%s","api_key":"%s"}}}' "$WSCTL_BASE_URL" "$KEY" > "$WSCTL_CONFIG_DIR/config.json"
      chmod 600 "$WSCTL_CONFIG_DIR/config.json"
      wsctl keys list >/dev/null; echo "old-list=$?"
      echo "old-storage=$(wsctl auth status --json | grep -o '"key_storage": "[a-z]*"')"
      wsctl auth login --with-key <<<"$KEY" >/dev/null; echo "login=$?"
      echo "config-has-key=$(grep -c wsk_ "$WSCTL_CONFIG_DIR/config.json")"
      echo "store=$(store)"
      wsctl keys create deploy --save-as deploy >/dev/null; echo "save-as=$?"
      echo "deploy-in-store=$(secret-tool lookup service "wsctl:$WSCTL_CONFIG_DIR" username deploy | cut -c1-4)"
      wsctl profile rm deploy >/dev/null; echo "rm=$?"
      echo "deploy-after-rm=$(secret-tool lookup service "wsctl:$WSCTL_CONFIG_DIR" username deploy || echo gone)"`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url },
    );
    expect(r.stdout).toContain('old-list=0');
    expect(r.stdout).toContain('old-storage="key_storage": "file"');
    expect(r.stdout).toContain('login=0');
    expect(r.stdout).toContain('config-has-key=0');
    expect(r.stdout).toContain(`store=secret = ${sb.key}`);
    expect(r.stdout).toContain('save-as=0');
    expect(r.stdout).toContain('deploy-in-store=wsk_');
    expect(r.stdout).toContain('rm=0');
    expect(r.stdout).toContain('deploy-after-rm=gone');
  });

  it('a dry run never opens the store: login stores nothing, logout and profile rm leave the entry', async () => {
    const r = await withSecretService(
      `NODE_DEBUG=esm,module wsctl auth login --with-key --profile work --dry-run <<<"$KEY" 2>trace >dry-login.out; echo "dry-login=$?"
      echo "dry-login-loads-keyring=$(grep -c 'napi-rs/keyring' trace || true)"
      echo "store-after-dry-login=$(store)"
      echo "config-after-dry-login=$(test -e "$WSCTL_CONFIG_DIR" && echo present || echo absent)"
      wsctl auth login --with-key --profile work <<<"$KEY" >/dev/null 2>&1; echo "login=$?"
      cp "$WSCTL_CONFIG_DIR/config.json" before.json
      for dry in "auth logout --profile work" "auth logout --all" "profile rm work"; do
        NODE_DEBUG=esm,module wsctl $dry --dry-run 2>trace >/dev/null; echo "$dry=$?"
        echo "$dry loads keyring=$(grep -c 'napi-rs/keyring' trace || true)"
      done
      echo "store-after-dry-runs=$(store)"
      cmp -s before.json "$WSCTL_CONFIG_DIR/config.json" && echo "config-unchanged=yes"`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url },
    );
    const out = r.stdout;
    expect(out).toContain('dry-login=0\ndry-login-loads-keyring=0\nstore-after-dry-login=none\nconfig-after-dry-login=absent\n');
    expect(out).toContain('login=0\n');
    for (const dry of ['auth logout --profile work', 'auth logout --all', 'profile rm work'])
      expect(out).toContain(`${dry}=0\n${dry} loads keyring=0\n`);
    expect(out).toContain(`store-after-dry-runs=secret = ${sb.key}\n`);
    expect(out).toContain('config-unchanged=yes\n');
  });

  it('a key in the store is neither read nor sent when another origin is in effect; WSCTL_API_KEY goes there', async () => {
    const other = await startSandbox();
    const r = await withSecretService(
      `wsctl auth login --with-key --profile prod <<<"$KEY" >/dev/null; echo "login=$?"
      NODE_DEBUG=module WSCTL_BASE_URL="$OTHER" wsctl keys list --profile prod 2>trace >/dev/null; echo "list=$?"
      echo "list-loads-keyring=$(grep -c 'napi-rs/keyring' trace || true)"
      grep '^Error' trace
      wsctl keys list --profile prod --base-url "$OTHER" >/dev/null; echo "flag=$?"
      WSCTL_BASE_URL="$OTHER" wsctl --dry-run keys list --profile prod 2>/dev/null >dry.out; echo "dry=$?"
      echo "dry-authorization=$(grep -ci authorization dry.out || true)"
      WSCTL_BASE_URL="$OTHER" WSCTL_API_KEY="$OTHER_KEY" wsctl keys list --profile prod >/dev/null; echo "env-key=$?"
      wsctl keys list --profile prod >/dev/null; echo "own=$?"`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url, OTHER: other.url, OTHER_KEY: other.key },
    );
    const refused = `Error: The key stored in profile 'prod' belongs to ${sb.url}, not to ${other.url}: it is not sent there. Log in for that URL (\`wsctl auth login --profile <name> --base-url ${other.url}\`), or set WSCTL_API_KEY to a key for it.`;
    expect(r.stdout).toContain(`login=0\nlist=4\nlist-loads-keyring=0\n${refused}\nflag=4\ndry=0\ndry-authorization=0\nenv-key=0\nown=0\n`);
    expect(other.requests.map((q) => q.headers.authorization)).toEqual([`Bearer ${other.key}`]);
  });

  it('WSCTL_API_KEY runs and --sandbox never touch the store', async () => {
    const r = await withSecretService(
      `wsctl auth login --with-key --profile work <<<"$KEY" >/dev/null
      NODE_DEBUG=esm,module WSCTL_API_KEY="$KEY" wsctl keys list --profile work 2>trace >/dev/null; echo "env-run=$?"
      echo "env-loads-keyring=$(grep -c keyring trace || true)"
      NODE_DEBUG=esm,module wsctl --sandbox keys list 2>trace >/dev/null; echo "sandbox=$?"
      echo "sandbox-loads-keyring=$(grep -c keyring trace || true)"
      NODE_DEBUG=esm,module wsctl keys list --profile work 2>trace >/dev/null
      echo "profile-loads-keyring=$(grep -c 'napi-rs/keyring' trace || true)"`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url },
    );
    expect(r.stdout).toContain('env-run=0');
    expect(r.stdout).toContain('env-loads-keyring=0');
    expect(r.stdout).toContain('sandbox=0');
    expect(r.stdout).toContain('sandbox-loads-keyring=0');
    // The trace does see the module when a stored key is read.
    expect(r.stdout).not.toContain('profile-loads-keyring=0');
  });
});

describe.skipIf(!hasSecretService && !process.env.CI)('the store entry of a config folder', { timeout: LOADED_MS }, () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('is named from the absolute, normalised folder: .wsctl in two projects is two entries, cfg, cfg/ and ./cfg one', async () => {
    const r = await withSecretService(
      `unset WSCTL_CONFIG_DIR; mkdir a b
      (cd a && WSCTL_CONFIG_DIR=.wsctl wsctl auth login --with-key --no-verify <<<wsk_project_a_key_1)
      (cd b && WSCTL_CONFIG_DIR=.wsctl wsctl auth login --with-key --no-verify <<<wsk_project_b_key_2)
      echo "a=$(cd a && WSCTL_CONFIG_DIR=.wsctl wsctl auth token)"
      echo "b=$(cd b && WSCTL_CONFIG_DIR=.wsctl wsctl auth token)"
      WSCTL_CONFIG_DIR=cfg wsctl auth login --with-key --no-verify <<<wsk_one_folder_key_3
      for d in cfg cfg/ ./cfg ./cfg/ "$PWD/cfg"; do echo "token $d=$(WSCTL_CONFIG_DIR=$d wsctl auth token)"; done
      WSCTL_CONFIG_DIR=./cfg/ wsctl auth logout; echo "logout=$?"
      echo "left=$(secret-tool search --all username default 2>/dev/null | grep -c wsk_one_folder || true)"
      echo "others=$(secret-tool search --all username default 2>/dev/null | grep -c wsk_project || true)"`,
      { WSCTL_BASE_URL: sb.url },
    );
    expect(r.stdout).toContain('a=wsk_project_a_key_1\n');
    expect(r.stdout).toContain('b=wsk_project_b_key_2\n');
    for (const d of ['cfg', 'cfg/', './cfg', './cfg/']) expect(r.stdout).toContain(`token ${d}=wsk_one_folder_key_3\n`);
    expect(r.stdout).toMatch(/token \/.*\/cfg=wsk_one_folder_key_3\n/);
    expect(r.stdout).toContain("Removed the stored key of 'default'.\nlogout=0");
    expect(r.stdout).toContain('left=0');
    expect(r.stdout).toContain('others=2');
  });

  it("an entry an earlier version named from a relative folder (wsctl:.wsctl) is never read, moved, sent or deleted: another project's config claiming it asks for a login", async () => {
    // Project B, a cloned repository, claims that its key is in the store, for its own server.
    const b = await startSandbox();
    const r = await withSecretService(
      `unset WSCTL_CONFIG_DIR; mkdir a; mkdir -m 700 b b/.wsctl
      legacy_entry wsctl:.wsctl default wsk_project_a_key_5
      printf '{"profiles":{"default":{"base_url":"%s","key_storage":"keyring"}}}' "$B_URL" > b/.wsctl/config.json; chmod 600 b/.wsctl/config.json
      (cd b && WSCTL_CONFIG_DIR=.wsctl wsctl keys list); echo "b-list=$?"
      (cd b && WSCTL_CONFIG_DIR=./.wsctl/ wsctl auth token); echo "b-token=$?"
      (cd b && WSCTL_CONFIG_DIR=.wsctl wsctl auth logout >/dev/null); echo "b-logout=$?"
      (cd a && WSCTL_CONFIG_DIR=.wsctl wsctl auth token 2>/dev/null); echo "a-token=$?"
      echo "a-entry=$(secret-tool lookup service wsctl:.wsctl username default || echo gone)"
      echo "entries=$(secret-tool search --all username default 2>/dev/null | grep -c '^secret = ' || true)"`,
      { B_URL: b.url },
    );
    const asks =
      "Error: Profile 'default' keeps its key in the credential store, but the store has no entry for it. Run `wsctl auth login --profile default`.";
    expect(r.stderr).toBe(`${asks}\n${asks}`);
    expect(r.stdout).toContain('b-list=4\nb-token=4\nb-logout=0\na-token=4\n');
    expect(r.stdout).toContain('a-entry=wsk_project_a_key_5\nentries=1\n');
    expect(b.requests).toEqual([]);
  });

  it("an entry an earlier version named from the folder's absolute path (through a link, with a slash) is found and moved", async () => {
    const r = await withSecretService(
      `unset WSCTL_CONFIG_DIR; mkdir -m 700 cfg; ln -s cfg link; here=$(pwd -P)
      printf '{"profiles":{"default":{"base_url":"%s","key_storage":"keyring"},"work":{"base_url":"%s","key_storage":"keyring"}}}' "$WSCTL_BASE_URL" "$WSCTL_BASE_URL" > cfg/config.json; chmod 600 cfg/config.json
      legacy_entry "wsctl:$here/link" default wsk_written_earlier_4
      legacy_entry "wsctl:$here/cfg/" work wsk_written_earlier_5
      echo "token=$(WSCTL_CONFIG_DIR=link wsctl auth token)"
      echo "work=$(WSCTL_CONFIG_DIR=cfg wsctl auth token --profile work)"
      echo "new=$(secret-tool lookup service "wsctl:$here/cfg" username default)"
      echo "new-work=$(secret-tool lookup service "wsctl:$here/cfg" username work)"
      echo "old=$(secret-tool lookup service "wsctl:$here/link" username default || echo gone)"
      echo "old-work=$(secret-tool lookup service "wsctl:$here/cfg/" username work || echo gone)"
      echo "again=$(WSCTL_CONFIG_DIR=./cfg/ wsctl auth token)"`,
      { WSCTL_BASE_URL: sb.url },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('token=wsk_written_earlier_4\nwork=wsk_written_earlier_5\n');
    expect(r.stdout).toContain('new=wsk_written_earlier_4\nnew-work=wsk_written_earlier_5\nold=gone\nold-work=gone\n');
    expect(r.stdout).toContain('again=wsk_written_earlier_4\n');
  });

  it('a symbolic link to the folder is the same folder: logged in through the link, out through the real path; a folder not made yet under a linked parent', async () => {
    const r = await withSecretService(
      `unset WSCTL_CONFIG_DIR; mkdir -m 700 cfg; ln -s cfg link; here=$(pwd -P)
      WSCTL_CONFIG_DIR=link wsctl auth login --with-key --no-verify <<<wsk_linked_key_6 >/dev/null; echo "login=$?"
      echo "entry=$(secret-tool lookup service "wsctl:$here/cfg" username default)"
      echo "token=$(WSCTL_CONFIG_DIR=cfg wsctl auth token)"
      WSCTL_CONFIG_DIR="$here/cfg" wsctl auth logout; echo "logout=$?"
      echo "left=$(secret-tool search --all username default 2>/dev/null | grep -c wsk_linked || true)"
      mkdir real; ln -s real parent
      WSCTL_CONFIG_DIR=parent/new/cfg wsctl auth login --with-key --no-verify <<<wsk_new_folder_key_7 >/dev/null; echo "new-login=$?"
      echo "new-entry=$(secret-tool lookup service "wsctl:$here/real/new/cfg" username default)"
      echo "new-token=$(WSCTL_CONFIG_DIR=real/new/cfg wsctl auth token)"`,
      { WSCTL_BASE_URL: sb.url },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('login=0\nentry=wsk_linked_key_6\ntoken=wsk_linked_key_6\n');
    expect(r.stdout).toContain("Removed the stored key of 'default'.\nlogout=0\nleft=0\n");
    expect(r.stdout).toContain('new-login=0\nnew-entry=wsk_new_folder_key_7\nnew-token=wsk_new_folder_key_7\n');
  });
});

describe.skipIf(!hasSecretService && !process.env.CI)('a broken store never blocks the way out', { timeout: LOADED_MS }, () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('the entry deleted: token says to log in, and login replaces the key', async () => {
    const r = await withSecretService(
      `wsctl auth login --with-key --profile work <<<"$KEY" >/dev/null
      secret-tool clear service "wsctl:$WSCTL_CONFIG_DIR" username work
      wsctl auth token --profile work; echo "token=$?"
      wsctl auth login --with-key --profile work <<<"$KEY" >/dev/null; echo "login=$?"
      echo "after=$(wsctl auth token --profile work)"`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url },
    );
    expect(r.stderr).toBe(
      "Error: Profile 'work' keeps its key in the credential store, but the store has no entry for it. Run `wsctl auth login --profile work`.",
    );
    expect(r.stdout).toContain('token=4\n');
    expect(r.stdout).toContain('login=0\n');
    expect(r.stdout).toContain(`after=${sb.key}\n`);
  });

  it('a locked collection: login (with or without --insecure-storage) replaces the key, logout says what it could not remove, --dry-run needs no key', async () => {
    const r = await withSecretService(
      `wsctl auth login --with-key --profile work <<<"$KEY" >/dev/null
      wsctl auth login --with-key --profile other <<<"$KEY" >/dev/null
      # The same keyring on disk, now locked: a new daemon not given the password.
      stop_keyring; start_keyring
      wsctl auth token --profile work >/dev/null 2>token.err; echo "token=$?"
      wsctl --dry-run device rm dev_phone --profile work >dry.out 2>dry.err; echo "dry=$?"
      echo "dry-line=$(head -1 dry.out)"
      wsctl auth logout --profile other >logout.out 2>logout.err; echo "logout=$?"
      wsctl auth token --profile other; echo "token-other=$?"
      wsctl auth login --with-key --profile work <<<"$KEY" >/dev/null 2>login.err; echo "login=$?"
      echo "login-warnings=$(grep -c . login.err)"
      echo "after=$(wsctl auth token --profile work)"
      wsctl auth login --with-key --profile third --insecure-storage <<<"$KEY" >/dev/null; echo "insecure=$?"`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url },
    );
    const out = r.stdout;
    expect(out).toContain('token=4\n');
    expect(out).toContain('dry=0\n');
    expect(out).toContain(`dry-line=DELETE ${sb.url}/devices/dev_phone`);
    expect(out).toContain('logout=0\n');
    expect(out).toContain('token-other=4\n');
    expect(out).toContain('login=0\n');
    expect(out).toContain('login-warnings=1\n');
    expect(out).toContain(`after=${sb.key}\n`);
    expect(out).toContain('insecure=0\n');
  });

  it('a store that hangs is given up after 3 s with one warning: login falls back to the file, logout says what is left, --dry-run never asks', async () => {
    const r = await withSecretService(
      `wsctl auth login --with-key --profile work <<<"$KEY" >/dev/null
      kill -STOP "$KEYRING_PID"
      wsctl --dry-run keys list --profile work >/dev/null 2>&1; echo "dry=$?"
      wsctl auth logout --profile work >logout.out 2>logout.err; echo "logout=$?"
      echo "logout-out=$(cat logout.out)"
      echo "logout-err=$(cat logout.err)"
      wsctl auth login --with-key --profile work <<<"$KEY" >/dev/null 2>login.err; echo "login=$?"
      echo "login-err=$(cat login.err)"
      wsctl auth login --with-key --profile work --debug <<<"$KEY" >/dev/null 2>debug.err
      echo "debug-says-why=$(grep -c '^credential store: the credential store .*: .*DBus' debug.err)"
      echo "token=$(wsctl auth token --profile work)"
      kill -CONT "$KEYRING_PID"`,
      { KEY: sb.key, WSCTL_BASE_URL: sb.url },
    );
    const out = r.stdout;
    expect(out).toContain('dry=0\n');
    expect(out).toContain('logout=0\n');
    expect(out).not.toContain('had no stored key');
    expect(out).toMatch(
      /logout-out=Still logged in: 'work', whose key is in the credential store until `wsctl auth logout` can remove it \(see above\)\.\n/,
    );
    expect(out).toMatch(
      /logout-err=! Could not remove the key of profile 'work' from the credential store \(the credential store (?:did not answer within 3 s|could not delete the key)\): delete the entry service 'wsctl:.*\/config', account 'work' yourself, or run this again once the store is unlocked\.\n/,
    );
    expect(out).toContain('login=0\n');
    expect(out).toMatch(
      /login-err=! No credential store could be reached, so the key is stored in .*\/config\/config\.json \(mode 0600\) instead; --debug shows why, --insecure-storage skips this warning\.\n/,
    );
    expect(out).toContain('debug-says-why=1');
    expect(out).toContain(`token=${sb.key}\n`);
  });
});

describe('without a credential store', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('login falls back to config.json with one warning naming the file; --insecure-storage gives no warning', async () => {
    const dir = tempDir();
    // No D-Bus session: the Secret Service cannot be reached.
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' };
    const fallback = await runBin(['auth', 'login', '--with-key', '--profile', 'a'], { env, stdin: sb.key });
    expect(fallback.code).toBe(0);
    // One line naming the file; the store's own words only with --debug.
    expect(fallback.stderr).toBe(
      `! No credential store could be reached, so the key is stored in ${join(dir, 'config.json')} (mode 0600) instead; --debug shows why, --insecure-storage skips this warning.\n`,
    );
    const traced = await runBin(['auth', 'login', '--with-key', '--profile', 'a', '--debug'], { env, stdin: sb.key });
    expect(traced.stderr).toMatch(/^credential store: the credential store could not store the key: .+$/m);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.a).toEqual({ base_url: sb.url, api_key: sb.key });
    const insecure = await runBin(['auth', 'login', '--with-key', '--profile', 'b', '--insecure-storage'], { env, stdin: sb.key });
    expect(insecure.code).toBe(0);
    expect(insecure.stderr).toBe('');
    const status = JSON.parse((await runBin(['auth', 'status', '--profile', 'b', '--json'], { env })).stdout);
    expect(status.key_storage).toBe('file');
    expect((await runBin(['auth', 'token', '--profile', 'b'], { env })).stdout).toBe(`${sb.key}\n`);
  });

  it('a key recorded in a store that cannot be reached is exit 4 with what to do; profile rm still removes the profile', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { k: { base_url: sb.url, key_storage: 'keyring' } } }), {
      mode: 0o600,
    });
    // No D-Bus session at all (runBin passes no DBUS_SESSION_BUS_ADDRESS): the store refuses every call.
    const env = { WSCTL_CONFIG_DIR: dir };
    const list = await runBin(['keys', 'list', '--profile', 'k'], { env });
    expect(list.code).toBe(4);
    expect(list.stderr).toBe(
      "Error: The key of profile 'k' is in the credential store, but the credential store could not read the key. Unlock the store, or run `wsctl auth login --profile k` to replace the key.\n",
    );
    const rm = await runBin(['profile', 'rm', 'k'], { env });
    expect(rm.code).toBe(0);
    expect(rm.stderr).toBe(
      `! Could not remove the key of profile 'k' from the credential store (the credential store could not delete the key): delete the entry service 'wsctl:${dir}', account 'k' yourself, or run this again once the store is unlocked.\n`,
    );
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles).toEqual({});
  });
});
