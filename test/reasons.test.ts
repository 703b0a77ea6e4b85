// Error reasons and the next command (cli.md §3 "Errors with --json", §4, §11): every reason word
// that can be provoked on this machine, as the built bin/wsctl says it, with its exact `next`; the
// `Next:` line under an agent; and the list of words, held against §4 and `help exit-codes`.
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REASONS } from '../src/errors.js';
import type { Fault } from '../src/sandbox/faults.js';
import { BIN, run, runBin, serveBody, startSandbox, tempDir, type TestSandbox } from './helpers.js';
import { runPty } from './terminal/pty.js';

type Env = Record<string, string>;

/** cli.md §4's words, by exit code, in its order: a word never changes meaning, and none may go. */
const SECTION_4: [word: string, code: number][] = [
  ['service_error', 1],
  ['service_failure', 1],
  ['output_lost', 1],
  ['local_error', 1],
  ['usage', 2],
  ['missing_argument', 2],
  ['invalid_input', 2],
  ['rejected_input', 2],
  ['confirmation_required', 2],
  ['jq_error', 2],
  ['insecure_url', 2],
  ['declined', 2],
  ['network', 3],
  ['timeout', 3],
  ['bad_response', 3],
  ['not_logged_in', 4],
  ['auth_rejected', 4],
  ['wrong_origin', 4],
  ['policy_refused', 4],
  ['credential_store', 4],
  ['not_found', 5],
  ['interrupted', 130],
];

interface ErrorDocument {
  message: string;
  exit_code: number;
  reason: string;
  next?: { command: string; why: string }[];
  status?: number;
}

/** The one JSON error document on stderr. */
function errorOf(stderr: string): ErrorDocument {
  return (JSON.parse(stderr) as { error: ErrorDocument }).error;
}

/** A sandbox whose next requests meet these faults, and the env that points wsctl at it. */
async function faulty(...faults: Fault[]): Promise<{ sb: TestSandbox; env: Env }> {
  const sb = await startSandbox();
  sb.faults.push(...faults);
  return { sb, env: sb.env };
}

const noConfig = (): Env => ({ WSCTL_CONFIG_DIR: tempDir() });

describe('the list of reasons', () => {
  it("is cli.md §4's, each word with its exit code", () => {
    expect(Object.entries(REASONS)).toEqual(SECTION_4);
  });

  it('an error on the path help takes (the entry bundle, not the whole program) says its reason too', async () => {
    const r = await runBin(['help', 'nope', '--json'], { env: noConfig() });
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).reason).toBe('usage');
  });

  it('`wsctl help exit-codes` names every word', async () => {
    const r = await runBin(['help', 'exit-codes'], { env: { COLUMNS: '200' } });
    expect(r.code).toBe(0);
    // Each word named with its meaning after it: `timeout (no answer within --timeout)`.
    for (const [word] of SECTION_4) expect(r.stdout).toMatch(new RegExp(`[ ,]${word}\\s+\\(`));
  });
});

describe('every --json error says its reason, and next where wsctl knows it', () => {
  it('usage: a typo, with the corrected line', async () => {
    const r = await runBin(['key', 'list', '--json', '--profile', 'work'], { env: noConfig() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const e = errorOf(r.stderr);
    expect([e.exit_code, e.reason]).toEqual([2, 'usage']);
    expect(e.next).toEqual([{ command: 'wsctl keys list --json --profile work', why: "'key' is not a command; 'keys' is." }]);
  });

  it('usage: a mistyped flag and a mistyped choice, corrected where they were typed', async () => {
    const flag = errorOf((await runBin(['--json', 'keys', 'list', '--profil', 'work'], { env: noConfig() })).stderr);
    expect(flag.reason).toBe('usage');
    expect(flag.next?.map((n) => n.command)).toEqual(['wsctl --json keys list --profile work']);
    const choice = errorOf(
      (await runBin(['--sandbox', 'site', 'create', 'my site', '--variant', 'blgo', '--json'], { env: noConfig() })).stderr,
    );
    expect(choice.reason).toBe('usage');
    expect(choice.next?.map((n) => n.command)).toEqual(["wsctl --sandbox site create 'my site' --variant blog --json"]);
  });

  it('usage: a corrected line that still lacks what the command needs names it with placeholders', async () => {
    const lines = async (argv: string[]) => errorOf((await runBin(argv, { env: noConfig() })).stderr).next?.map((n) => n.command);
    expect(await lines(['--sandbox', 'site', 'create', '--variant', 'blgo', '--json'])).toEqual([
      'wsctl --sandbox site create --variant blog --json <name>',
    ]);
    expect(await lines(['--sandbox', 'byok', 'add', '--nme', 'fast', '--json'])).toEqual([
      'wsctl --sandbox byok add --name fast --json --provider-url <url> --format <format> --model <model_id>',
    ]);
    // An id a terminal would offer a list for is needed all the same on a line a program runs.
    expect(await lines(['--sandbox', 'convo', 'shwo', '--json'])).toEqual(['wsctl --sandbox convo show --json <conversation_id>']);
  });

  it('usage: a typo close to a command and its alias suggests the command once, with the line', async () => {
    const e = errorOf((await runBin(['--sandbox', 'keys', 'lst', '--json'], { env: noConfig() })).stderr);
    expect(e.message).toMatch(/^unknown command 'lst'\. Did you mean 'list'\? /);
    expect(e.next?.map((n) => n.command)).toEqual(['wsctl --sandbox keys list --json']);
  });

  it('missing_argument: a missing conversation id, next `wsctl caps` with the global flags', async () => {
    const r = await runBin(['--sandbox', 'convo', 'show', '--json'], { env: noConfig() });
    expect(r.code).toBe(2);
    const e = errorOf(r.stderr);
    expect(e.reason).toBe('missing_argument');
    expect(e.next).toEqual([{ command: 'wsctl caps --sandbox --json', why: 'It shows conversation ids.' }]);
  });

  it('missing_argument: a required option commander finds missing', async () => {
    const r = await runBin(['--sandbox', 'byok', 'add', '--json'], { env: noConfig() });
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).reason).toBe('missing_argument');
  });

  it('invalid_input: a file that is not an image', async () => {
    const file = join(tempDir(), 'avatar.png');
    writeFileSync(file, 'not an image');
    const r = await runBin(['--sandbox', 'persona', 'upload-avatar', file, '--json'], { env: noConfig() });
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).reason).toBe('invalid_input');
  });

  it('rejected_input: HTTP 422', async () => {
    const body = JSON.stringify({ detail: [{ loc: ['body', 'name'], msg: 'too long', type: 'value_error' }] });
    const { env } = await faulty({ status: 422, body });
    const e = errorOf((await runBin(['keys', 'create', 'x', '--json'], { env: { ...env, ...noConfig() } })).stderr);
    expect([e.exit_code, e.reason, e.status]).toEqual([2, 'rejected_input', 422]);
  });

  it("confirmation_required: the user's own line plus --yes, its id quoted for the shell", async () => {
    const r = await runBin(['--sandbox', 'device', 'rm', "it's mine", '--json'], { env: noConfig() });
    expect(r.code).toBe(2);
    const e = errorOf(r.stderr);
    expect(e.reason).toBe('confirmation_required');
    expect(e.next).toEqual([
      {
        command: "wsctl --sandbox device rm 'it'\\''s mine' --json --yes",
        why: "Only the person's yes allows this: pass --yes once they have said yes to it.",
      },
    ]);
  });

  it('confirmation_required through an alias: the expanded line', async () => {
    const env = noConfig();
    expect((await runBin(['alias', 'set', 'drm', 'device rm'], { env })).code).toBe(0);
    const e = errorOf((await runBin(['--sandbox', 'drm', 'dev_phone', '--json'], { env })).stderr);
    expect(e.next?.map((n) => n.command)).toEqual(['wsctl --sandbox device rm dev_phone --json --yes']);
  });

  it('a next command never holds a secret the line had', async () => {
    const r = await runBin(['--sandbox', 'api', '/byok/', '-f', 'api_key=wsk_secret_value_123', '--methd', 'POST', '--json'], {
      env: noConfig(),
    });
    expect(r.code).toBe(2);
    const e = errorOf(r.stderr);
    expect(e.reason).toBe('usage');
    expect(e.next?.map((n) => n.command)).toEqual(['wsctl --sandbox api /byok/ -f api_key=<api_key> --method POST --json']);
    expect(r.stderr).not.toContain('wsk_secret_value_123');
  });

  it('jq_error', async () => {
    const r = await runBin(['--sandbox', 'keys', 'list', '--jq', '.['], { env: noConfig() });
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).reason).toBe('jq_error');
  });

  it('insecure_url', async () => {
    const env = { ...noConfig(), WSCTL_BASE_URL: 'http://example.com', WSCTL_API_KEY: 'wsk_whatever_key' };
    const e = errorOf((await runBin(['keys', 'list', '--json'], { env })).stderr);
    expect([e.exit_code, e.reason]).toEqual([2, 'insecure_url']);
  });

  it('network: nothing listens', async () => {
    const closed = await startSandbox();
    await closed.close();
    const e = errorOf((await runBin(['keys', 'list', '--json'], { env: { ...closed.env, ...noConfig() } })).stderr);
    expect([e.exit_code, e.reason]).toEqual([3, 'network']);
  });

  it('timeout: no answer within --timeout', async () => {
    // Each of the three tries of a GET meets the delay.
    const { env } = await faulty({ delay_ms: 60_000, times: 3 });
    const e = errorOf((await runBin(['keys', 'list', '--json', '--timeout', '0.2'], { env: { ...env, ...noConfig() } })).stderr);
    expect([e.exit_code, e.reason]).toEqual([3, 'timeout']);
  });

  it('bad_response: HTML where JSON was expected', async () => {
    const { env } = await faulty({ malformed: 'html', times: 3 });
    const e = errorOf((await runBin(['keys', 'list', '--json'], { env: { ...env, ...noConfig() } })).stderr);
    expect([e.exit_code, e.reason]).toEqual([3, 'bad_response']);
  });

  it('not_logged_in: no key, next `wsctl auth login --profile <p>`', async () => {
    const sb = await startSandbox();
    const env = { WSCTL_BASE_URL: sb.url, ...noConfig() };
    const e = errorOf((await runBin(['--profile', 'work', 'keys', 'list', '--json'], { env })).stderr);
    expect([e.exit_code, e.reason]).toEqual([4, 'not_logged_in']);
    expect(e.next?.map((n) => n.command)).toEqual(['wsctl auth login --profile work --json']);
  });

  it('not_logged_in: no base URL either, next names the value to supply', async () => {
    const e = errorOf((await runBin(['keys', 'list', '--json'], { env: noConfig() })).stderr);
    expect(e.reason).toBe('not_logged_in');
    expect(e.next?.map((n) => n.command)).toEqual(['wsctl auth login --profile default --base-url <url> --json']);
  });

  it('auth_rejected: HTTP 401', async () => {
    const sb = await startSandbox();
    const env = { ...sb.env, WSCTL_API_KEY: 'wsk_not_a_key_it_knows', ...noConfig() };
    const e = errorOf((await runBin(['keys', 'list', '--json'], { env })).stderr);
    expect([e.exit_code, e.reason, e.status]).toEqual([4, 'auth_rejected', 401]);
  });

  it('wrong_origin: a stored key and another base URL', async () => {
    const sb = await startSandbox();
    const other = await startSandbox();
    const env = noConfig();
    const login = await runBin(['auth', 'login', '--with-key', '--insecure-storage', '--base-url', sb.url], { env, stdin: `${sb.key}\n` });
    expect(login.code, login.stderr).toBe(0);
    const e = errorOf((await runBin(['keys', 'list', '--base-url', other.url, '--json'], { env })).stderr);
    expect([e.exit_code, e.reason]).toEqual([4, 'wrong_origin']);
    expect(e.next?.map((n) => n.command)).toEqual([`wsctl auth login --profile <name> --base-url ${other.url} --json`]);
  });

  it("policy_refused: a profile's agent policy", async () => {
    const sb = await startSandbox();
    const env = noConfig();
    await runBin(['auth', 'login', '--with-key', '--insecure-storage', '--base-url', sb.url], { env, stdin: `${sb.key}\n` });
    expect((await runBin(['profile', 'agents', 'default', 'read-only'], { env })).code).toBe(0);
    const seen = sb.requests.length;
    const r = await runBin(['keys', 'create', 'x', '--json'], { env: { ...env, WSCTL_AGENT: 'tester' } });
    expect([r.code, errorOf(r.stderr).reason]).toEqual([4, 'policy_refused']);
    expect(sb.requests).toHaveLength(seen);
  });

  it('not_found: HTTP 404', async () => {
    const e = errorOf((await runBin(['--sandbox', 'convo', 'show', 'conv_nope', '--json'], { env: noConfig() })).stderr);
    expect([e.exit_code, e.reason]).toEqual([5, 'not_found']);
  });

  it('service_error: HTTP 500', async () => {
    const { env } = await faulty({ status: 500, times: 3 });
    const e = errorOf((await runBin(['keys', 'list', '--json'], { env: { ...env, ...noConfig() } })).stderr);
    expect([e.exit_code, e.reason, e.status]).toEqual([1, 'service_error', 500]);
  });

  it('local_error: a config.json that cannot be parsed is wsctl failing on its own, never the service', async () => {
    const env = noConfig();
    writeFileSync(join(env.WSCTL_CONFIG_DIR as string, 'config.json'), '{bad', { mode: 0o600 });
    const r = await runBin(['keys', 'list', '--json'], { env });
    expect(r.code).toBe(1);
    expect(errorOf(r.stderr)).toMatchObject({ exit_code: 1, reason: 'local_error' });
    expect(errorOf(r.stderr).message).toContain('config.json');
  });

  it('service_failure: a 2xx body that reports failure is printed, and the error says so', async () => {
    const env = { ...(await serveBody('{"success": false}')), ...noConfig() };
    const r = await runBin(['device', 'rm', 'dev_phone', '--yes', '--json'], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ success: false });
    expect(errorOf(r.stderr).reason).toBe('service_failure');
  });

  it('the line of `auth status --all --json` that says how many failed is an error document with its reason', async () => {
    const sb = await startSandbox();
    const env = noConfig();
    await runBin(['auth', 'login', '--no-verify', '--with-key', '--insecure-storage', '--base-url', sb.url], {
      env,
      stdin: 'wsk_rejected_by_it\n',
    });
    const r = await runBin(['auth', 'status', '--all', '--json'], { env });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout).profiles).toHaveLength(1);
    const e = errorOf(r.stderr);
    expect([e.exit_code, e.reason]).toEqual([4, 'auth_rejected']);
    expect(e.message).toBe('1 of 1 profiles could not be used (see "error" above).');
  });
});

describe('reasons only a real process shows', () => {
  const full = openSync('/dev/full', 'w');
  afterAll(() => closeSync(full));

  /** bin/wsctl with stdout on /dev/full. */
  function toFullDisk(args: string[], env: Env): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: { PATH: process.env.PATH, HOME: tempDir(), ...env },
        stdio: ['ignore', full, 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (c) => (stderr += c));
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it('output_lost: a full disk, from the program and from the launcher', async () => {
    const program = await toFullDisk(['--sandbox', 'keys', 'list', '--json'], noConfig());
    expect(program.code).toBe(1);
    expect(errorOf(program.stderr)).toMatchObject({ exit_code: 1, reason: 'output_lost' });
    // `--version --json` is not answered by the launcher (two words): the program's path again;
    // `--version` alone is, and says it in words.
    const launcher = await toFullDisk(['--version'], {});
    expect(launcher.code).toBe(1);
    expect(launcher.stderr).toBe('Error: Cannot write the output: ENOSPC.\n');
  });

  it('interrupted: Ctrl-C while a request is in flight', async () => {
    const { sb, env } = await faulty({ delay_ms: 60_000 });
    const child = spawn(process.execPath, [BIN, 'keys', 'list', '--json'], {
      env: { PATH: process.env.PATH, HOME: tempDir(), ...env, ...noConfig() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Sent once the request has arrived: the command is waiting for its answer.
    while (sb.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await code).toBe(130);
    expect(errorOf(stderr)).toMatchObject({ exit_code: 130, reason: 'interrupted' });
  });

  it('declined: a person says no on a terminal', async () => {
    const r = await runPty(['--sandbox', 'device', 'rm', 'dev_phone', '--json'], {
      cols: 200,
      env: noConfig(),
      steps: [['[y/N]', 'n\r']],
    });
    expect(r.code).toBe(2);
    const doc = r.text.slice(r.text.indexOf('{'));
    expect(errorOf(doc)).toMatchObject({ exit_code: 2, reason: 'declined' });
    expect(errorOf(doc).next).toBeUndefined();
  });
});

describe('under an agent, a human error ends with `Next: <command>`', () => {
  it('confirmation_required', async () => {
    const r = await runBin(['--sandbox', 'device', 'rm', 'dev_phone'], { env: { ...noConfig(), WSCTL_AGENT: 'tester' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "Error: Prompts are off under an AI agent (tester, from WSCTL_AGENT): pass --yes to remove device 'dev_phone'.\n" +
        'Next: wsctl --sandbox device rm dev_phone --yes\n',
    );
  });

  it('not_logged_in, and no Next: line for a person', async () => {
    const agent = await runBin(['--profile', 'work', 'keys', 'list'], { env: { ...noConfig(), CLAUDECODE: '1' } });
    expect(agent.stderr.trimEnd().split('\n').at(-1)).toBe('Next: wsctl auth login --profile work --base-url <url>');
    const person = await run(['--profile', 'work', 'keys', 'list'], { env: noConfig() });
    expect(person.stderr).not.toContain('Next:');
  });
});
