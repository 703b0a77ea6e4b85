// Keys in a real Secret Service: Debian's gnome-keyring inside dbus-run-session, with a throwaway
// HOME, as a Linux desktop has it. And without one: the file, with one warning.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

const hasSecretService = ['dbus-run-session', 'gnome-keyring-daemon', 'secret-tool'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);

/** Runs a bash script in a fresh D-Bus session with an unlocked gnome-keyring; `wsctl` is the built CLI. */
function withSecretService(script: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const home = tempDir();
  const wrapped = `set -u
    echo -n throwaway | gnome-keyring-daemon --daemonize --unlock --components=secrets >/dev/null 2>&1
    wsctl() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }
    store() { secret-tool search --all service "wsctl:$WSCTL_CONFIG_DIR" 2>/dev/null | grep '^secret = ' || echo none; }
    ${script}`;
  // Asynchronous: the sandbox server that answers wsctl runs in this process.
  const child = spawn('dbus-run-session', ['--', 'bash', '-c', wrapped], {
    env: { PATH: process.env.PATH ?? '', HOME: home, WSCTL_CONFIG_DIR: join(home, 'config'), ...env },
    cwd: home,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr: stderr.split('\n').filter((l) => l && !l.startsWith('dbus-daemon[')).join('\n') });
    });
  });
}

describe.skipIf(!hasSecretService && !process.env.CI)('a real Secret Service (gnome-keyring)', () => {
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
    expect(out).toMatch(/^work\thttp:\/\/127\.0\.0\.1:\d+\ttrue\ttrue$/m);
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
    const warnings = fallback.stderr.trim().split('\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(join(dir, 'config.json'));
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
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { k: { base_url: sb.url, key_storage: 'keyring' } } }), { mode: 0o600 });
    // No D-Bus session at all (runBin passes no DBUS_SESSION_BUS_ADDRESS): the store refuses every call.
    const env = { WSCTL_CONFIG_DIR: dir };
    const list = await runBin(['keys', 'list', '--profile', 'k'], { env });
    expect(list.code).toBe(4);
    expect(list.stderr).toMatch(/^Error: The key of profile 'k' is in the credential store, but the credential store cannot be reached \(read: .*\)\. Unlock the store, or run `wsctl auth login --profile k --insecure-storage`\.$/m);
    const rm = await runBin(['profile', 'rm', 'k'], { env });
    expect(rm.code).toBe(0);
    expect(rm.stderr).toMatch(/^! Its key was left in the credential store \(service 'wsctl:.*', account 'k'\): /);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles).toEqual({});
  });
});
