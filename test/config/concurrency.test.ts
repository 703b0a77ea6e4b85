// config.json under concurrent invocations and odd files: 20 writers of each kind lose nothing
// and resurrect nothing; a symlink is never written through; stale temp files go; a config that
// others can read is named; profiles are own keys only; a new key is never lost; folders made
// by two threads at the same moment are made for both.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { withLock } from '../../src/config/atomic.js';
import { atOnce, BIN, REPEAT_RUN, ROOT, run, runBin, startSandbox, storm, tempDir, type TestSandbox } from '../helpers.js';

/** Whether another user can run this Node and this clone's wsctl (every folder on the way searchable). */
function reachableByOthers(): boolean {
  const searchable = (file: string) => {
    for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) if ((statSync(dir).mode & 0o001) === 0) return false;
    return (statSync(file).mode & 0o004) !== 0;
  };
  const ok = [process.execPath, BIN, join(ROOT, 'dist', 'wsctl.cjs')].every(searchable);
  if (!ok) console.log("skipped: another user's folder (this Node or this clone is not reachable by another user)");
  return ok;
}

/** A pid that no longer exists: a killed holder's. */
const deadPid = () => spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();

/** src/config/atomic.ts built for plain Node, for threads and processes outside the test runner. */
async function buildAtomic(dir: string): Promise<string> {
  const module = join(dir, 'atomic.mjs');
  await build({
    entryPoints: [join(ROOT, 'src/config/atomic.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: module,
    logLevel: 'silent',
  });
  return module;
}

const N = 20;
const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const names = Array.from({ length: N }, (_, i) => `p${i}`);

describe('concurrent writers of config.json', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  async function loginAll(dir: string) {
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url };
    return storm(() =>
      Promise.all(
        names.map((p) =>
          runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', p], {
            env,
            stdin: `wsk_key_of_${p}_123`,
            timeoutMs: 60_000,
          }),
        ),
      ),
    );
  }

  /** The same ${N} profiles, saved by wsctl in this process: set-up for the tests of other writers. */
  async function loginAllHere(dir: string) {
    for (const p of names) {
      const r = await run(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', p], {
        env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url },
        stdin: `wsk_key_of_${p}_123`,
      });
      expect(r.code, r.stderr).toBe(0);
    }
  }

  it(`${N} parallel logins keep all ${N} profiles`, async () => {
    const dir = tempDir();
    for (const r of await loginAll(dir)) expect(r.code, r.stderr).toBe(0);
    const profiles = config(dir).profiles;
    expect(Object.keys(profiles).sort()).toEqual([...names].sort());
    for (const p of names) expect(profiles[p].api_key).toBe(`wsk_key_of_${p}_123`);
  }, 120_000);

  it(`${N} parallel logouts forget exactly their own keys`, async () => {
    const dir = tempDir();
    await loginAllHere(dir);
    const env = { WSCTL_CONFIG_DIR: dir };
    const half = names.slice(0, N / 2);
    for (const r of await storm(() => Promise.all(half.map((p) => runBin(['auth', 'logout', '--profile', p], { env, timeoutMs: 60_000 })))))
      expect(r.code, r.stderr).toBe(0);
    const profiles = config(dir).profiles;
    for (const p of names) expect(!!profiles[p].api_key, p).toBe(!half.includes(p));
    expect(Object.keys(profiles)).toHaveLength(N);
  }, 120_000);

  it('parallel profile rm and profile use: nothing removed comes back, current never names a removed profile', async () => {
    const dir = tempDir();
    await loginAllHere(dir);
    const env = { WSCTL_CONFIG_DIR: dir };
    const removed = names.filter((_, i) => i % 2 === 0);
    const used = names.filter((_, i) => i % 2 === 1);
    const results = await storm(() =>
      Promise.all([
        ...removed.map((p) => runBin(['profile', 'rm', p], { env, timeoutMs: 60_000 })),
        ...used.map((p) => runBin(['profile', 'use', p], { env, timeoutMs: 60_000 })),
        // Use a profile that is being removed: either it wins before the rm, or it fails; never resurrects.
        ...removed.map((p) => runBin(['profile', 'use', p], { env, timeoutMs: 60_000 })),
      ]),
    );
    for (const r of results.slice(0, N)) expect(r.code, r.stderr).toBe(0);
    const data = config(dir);
    expect(Object.keys(data.profiles).sort()).toEqual([...used].sort());
    expect(used).toContain(data.current_profile ?? used[0]);
  }, 120_000);

  it(`${N} parallel keys create --save-as save all ${N}, and the file always parses meanwhile`, async () => {
    const dir = tempDir();
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url, WSCTL_API_KEY: sb.key };
    let reads = 0;
    let parsing = true;
    const reader = (async () => {
      while (parsing) {
        if (existsSync(join(dir, 'config.json'))) {
          JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
          reads++;
        }
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const results = await storm(() =>
      Promise.all(names.map((p) => runBin(['keys', 'create', `k-${p}`, '--save-as', p, '--insecure-storage'], { env, timeoutMs: 60_000 }))),
    );
    parsing = false;
    await reader;
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(config(dir).profiles).sort()).toEqual([...names].sort());
    expect(reads).toBeGreaterThan(0);
  }, 120_000);
});

describe('the config lock', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  const ROUNDS = REPEAT_RUN ? 2 : 8;
  const EACH = 20;
  it(`${ROUNDS} rounds of ${EACH * 3} mixed writers (login, profile rm, profile use): nothing lost, nothing resurrected`, async () => {
    const range = (prefix: string) => Array.from({ length: EACH }, (_, i) => `${prefix}${i}`);
    const [added, removed, used] = [range('new'), range('gone'), range('kept')];
    // Two rounds at once, each in its own folder: a round ends waiting on its last few writers.
    await atOnce(
      Array.from({ length: ROUNDS }, (_, round) => round),
      2,
      async (round) => {
        const dir = tempDir();
        const profiles = Object.fromEntries([...removed, ...used].map((p) => [p, { base_url: sb.url, api_key: `wsk_old_key_of_${p}` }]));
        writeFileSync(join(dir, 'config.json'), JSON.stringify({ current_profile: 'kept0', profiles }), { mode: 0o600 });
        const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url };
        const opts = { env, timeoutMs: 120_000 };
        const results = await storm(() =>
          Promise.all([
            ...added.map((p) =>
              runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', p], {
                ...opts,
                stdin: `wsk_new_key_of_${p}`,
              }),
            ),
            ...removed.map((p) => runBin(['profile', 'rm', p], opts)),
            ...used.map((p) => runBin(['profile', 'use', p], opts)),
          ]),
        );
        for (const r of results) expect(r.code, `round ${round}: ${r.stderr}`).toBe(0);
        const data = config(dir);
        expect(Object.keys(data.profiles).sort(), `round ${round}`).toEqual([...added, ...used].sort());
        for (const p of added) expect(data.profiles[p].api_key, `round ${round}`).toBe(`wsk_new_key_of_${p}`);
        for (const p of used) expect(data.profiles[p].api_key, `round ${round}`).toBe(`wsk_old_key_of_${p}`);
        expect(used).toContain(data.current_profile);
        expect(
          readdirSync(dir).filter((n) => n !== 'config.json'),
          `round ${round}`,
        ).toEqual([]);
      },
    );
  }, 900_000);

  it('a lock whose holder is gone is taken over; one held by a live process never is, however old', async () => {
    const dir = tempDir();
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url };
    const lock = join(dir, 'config.json.lock');
    writeFileSync(lock, `${deadPid()} 0123456789abcdef`);
    const taken = await runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'a'], {
      env,
      stdin: 'wsk_key_for_a_1234',
    });
    expect(taken.code, taken.stderr).toBe(0);
    expect(existsSync(lock)).toBe(false);
    // A live holder, its lock an hour old: waited for, never taken over.
    const holder = spawn('sleep', ['60']);
    writeFileSync(lock, `${holder.pid} fedcba9876543210`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lock, hourAgo, hourAgo);
    const waiting = runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'b'], {
      env,
      stdin: 'wsk_key_for_b_1234',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(readFileSync(lock, 'utf8')).toBe(`${holder.pid} fedcba9876543210`);
    expect(config(dir).profiles.b).toBeUndefined();
    // The holder finishes: the waiter goes on.
    writeFileSync(join(dir, 'released'), '');
    const { rmSync } = await import('node:fs');
    rmSync(lock);
    holder.kill();
    const r = await waiting;
    expect(r.code, r.stderr).toBe(0);
    expect(config(dir).profiles.b.api_key).toBe('wsk_key_for_b_1234');
  }, 60_000);

  it('callers in one process take the lock one at a time (a `wsctl mcp` serving two calls at once)', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    const order: string[] = [];
    let release = () => {};
    const first = withLock(
      file,
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
          order.push('first');
        }),
    );
    while (!order.includes('first')) await new Promise((r) => setTimeout(r, 5));
    const second = withLock(file, () => order.push('second'));
    await new Promise((r) => setTimeout(r, 300));
    expect(order).toEqual(['first']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['empty', ''],
    ['NULs', '\0'.repeat(24)],
  ])(
    'a lock a crash left %s (its text never reached the disk) is taken over',
    async (_name, text) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'config.json.lock'), text);
      const r = await runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'a'], {
        env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url },
        stdin: 'wsk_key_for_a_1234',
        timeoutMs: 20_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(dir)).toEqual(['config.json']);
    },
    30_000,
  );

  it("a lock and breakers' files left by killed processes are taken over, and nothing is left behind", async () => {
    const dir = tempDir();
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url };
    const lock = join(dir, 'config.json.lock');
    // A killed holder's lock, the file of a breaker killed while breaking it, and the file of a
    // breaker killed while breaking that one: each breaker's file is named after what it breaks.
    writeFileSync(lock, `${deadPid()} 0123456789abcdef`);
    writeFileSync(`${lock}.break-0123456789abcdef`, `${deadPid()} 1111aaaa2222bbbb`);
    writeFileSync(`${lock}.break-1111aaaa2222bbbb`, `${deadPid()} 3333cccc4444dddd`);
    const results = await Promise.all(
      ['a', 'b', 'c'].map((p) =>
        runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', p], {
          env,
          stdin: `wsk_key_for_${p}_1234`,
          timeoutMs: 20_000,
        }),
      ),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(config(dir).profiles).sort()).toEqual(['a', 'b', 'c']);
    expect(readdirSync(dir)).toEqual(['config.json']);
  }, 60_000);

  it("what killed lockers left beside a lock is removed by its next holder; a live breaker's file stays", async () => {
    const dir = tempDir();
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url };
    const lock = join(dir, 'config.json.lock');
    const live = spawn('sleep', ['60']);
    try {
      writeFileSync(`${lock}.break-aaaa1111`, `${deadPid()} bbbb2222`); // a breaker killed after its work
      writeFileSync(`${lock}.break`, `${deadPid()} cccc3333`); // an older wsctl's breaker
      writeFileSync(`${lock}.${deadPid()}-x1y2z3.new`, `${deadPid()} dddd4444`); // a link's temp, its writer killed
      writeFileSync(`${lock}.break-empty`, ''); // a breaker's file a crash left empty
      writeFileSync(`${lock}.break-eeee5555`, `${live.pid} ffff6666`); // a breaker at work
      writeFileSync(`${lock}.${live.pid}-abcdef.new`, `${live.pid} 7777aaaa`); // its temp, however old
      utimesSync(`${lock}.${live.pid}-abcdef.new`, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
      const r = await runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'a'], {
        env,
        stdin: 'wsk_key_for_a_1234',
      });
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(dir).sort()).toEqual([
        'config.json',
        `config.json.lock.${live.pid}-abcdef.new`,
        'config.json.lock.break-eeee5555',
      ]);
    } finally {
      live.kill();
    }
  }, 60_000);

  it('writers killed at random, some inside the lock: no finished write is lost, no two hold it at once, the next one takes it', async () => {
    const dir = tempDir();
    const module = pathToFileURL(await buildAtomic(dir)).href;
    const writer = join(ROOT, 'test/fixtures/lock-writer.mjs');
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'list.json'), '[]');
    const done: string[] = [];
    const failures: string[] = [];
    const start = (writes: number, killChance: number) => {
      const child = spawn(process.execPath, [writer, module, work, String(writes), String(killChance)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let wrote = 0;
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('done ')) {
          done.push(line.slice('done '.length));
          wrote++;
        } else failures.push(line);
      });
      child.stderr.on('data', (c) => failures.push(String(c)));
      return { child, wrote: () => wrote, ended: new Promise<void>((resolve) => child.on('close', () => resolve())) };
    };
    // Eight writers at a time, one section in ten killing itself; others are killed from outside at
    // any point of their work (once they have written, not while Node starts), until enough writes
    // have finished.
    const WANTED = REPEAT_RUN ? 40 : 100;
    await storm(async () => {
      const running = new Set<ReturnType<typeof start>>();
      const ended: Promise<void>[] = [];
      let stopping = false;
      const keepWriting = () => {
        const w = start(1000, 0.1);
        running.add(w);
        ended.push(w.ended);
        void w.ended.then(() => {
          running.delete(w);
          if (!stopping) keepWriting();
        });
      };
      for (let i = 0; i < 8; i++) keepWriting();
      const killer = setInterval(() => {
        const written = [...running].filter((w) => w.wrote() > 0);
        written[Math.floor(Math.random() * written.length)]?.child.kill('SIGKILL');
      }, 40);
      const cap = Date.now() + 60_000;
      while (done.length < WANTED && failures.length === 0 && Date.now() < cap) await new Promise((r) => setTimeout(r, 50));
      stopping = true;
      clearInterval(killer);
      for (const w of running) w.child.kill('SIGKILL');
      await Promise.all(ended);
    });
    expect(failures).toEqual([]);
    expect(done.length).toBeGreaterThanOrEqual(WANTED);
    // The next writer takes the lock, however its last holder died, long before a live holder's
    // wait (60 s) would end; then every finished write is in the list.
    const began = Date.now();
    const next = start(1, 0);
    await next.ended;
    expect(next.wrote()).toBe(1);
    expect(Date.now() - began).toBeLessThan(20_000);
    const list: string[] = JSON.parse(readFileSync(join(work, 'list.json'), 'utf8'));
    expect(done.filter((d) => !list.includes(d))).toEqual([]);
  }, 120_000);

  it('temp files left by a killed writer are removed when the config is only read', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { a: { base_url: sb.url } } }), { mode: 0o600 });
    writeFileSync(join(dir, 'config.json.tmp-999999999-abc'), '{"profiles":{"x":{"api_key":"wsk_secret"}}}', { mode: 0o600 });
    const r = await runBin(['profile', 'list'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});

describe('folders made at once', () => {
  it('two threads making the same new folders at the same moment both succeed: a folder found made is as good as one made', async () => {
    const dir = tempDir();
    const module = await buildAtomic(dir);
    const ROUNDS = 400;
    const THREADS = 2;
    // Each round, the threads meet at a barrier, then make made/<round>/a/b/c: every level is new to
    // both. A thread that waits 10 s at the barrier (the other one failed) says so and stops.
    const thread = `
      const { workerData, parentPort } = require('node:worker_threads');
      import(workerData.module).then(({ makeFolder }) => {
        const arrived = new Int32Array(workerData.barrier);
        const failures = [];
        for (let round = 0; round < workerData.rounds; round++) {
          Atomics.add(arrived, 0, 1);
          const deadline = Date.now() + 10_000;
          for (let spins = 0; Atomics.load(arrived, 0) < workerData.threads * (round + 1); spins++) {
            if (spins % 1_000_000 === 0 && Date.now() > deadline) return parentPort.postMessage([round + ': barrier timeout']);
          }
          try {
            makeFolder(workerData.dir + '/made/' + round + '/a/b/c');
          } catch (error) {
            failures.push(round + ': ' + (error.code ?? error.message));
          }
        }
        parentPort.postMessage(failures);
      });
    `;
    const barrier = new SharedArrayBuffer(4);
    const workers: Worker[] = [];
    // Two threads spinning are a CPU storm: not beside a timed check in another file.
    const failures = await storm(async () => {
      try {
        return await Promise.all(
          Array.from(
            { length: THREADS },
            () =>
              new Promise<string[]>((resolve, reject) => {
                const worker = new Worker(thread, {
                  eval: true,
                  workerData: { module: pathToFileURL(module).href, barrier, rounds: ROUNDS, threads: THREADS, dir },
                });
                workers.push(worker);
                worker.once('message', resolve);
                worker.once('error', reject);
                worker.once('exit', (code) => reject(new Error(`a thread ended (${code}) before its answer`)));
              }),
          ),
        );
      } finally {
        await Promise.all(workers.map((w) => w.terminate()));
      }
    });
    expect(failures.flat()).toEqual([]);
    expect(readdirSync(join(dir, 'made'))).toHaveLength(ROUNDS);
    expect(statSync(join(dir, 'made', '0', 'a', 'b', 'c')).mode & 0o777).toBe(0o700);
  }, 60_000);
});

describe('a config folder that cannot be written', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  const login = (env: Record<string, string>, extra: string[] = []) =>
    runBin(['auth', 'login', '--with-key', '--no-verify', ...extra], {
      env: { WSCTL_BASE_URL: sb.url, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', ...env },
      stdin: sb.key,
    });

  it('WSCTL_CONFIG_DIR naming a file: one line naming it, exit 1, for writes and reads', async () => {
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, 'x');
    const expected = `Error: The config folder ${file} is a file, not a folder: set WSCTL_CONFIG_DIR to a folder (it is created when missing).\n`;
    const r = await login({ WSCTL_CONFIG_DIR: file }, ['--insecure-storage']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(expected);
    const list = await runBin(['profile', 'list'], { env: { WSCTL_CONFIG_DIR: file } });
    expect(list.code).toBe(1);
    expect(list.stderr).toBe(expected);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('a folder that cannot hold folders (/proc): one line naming it, exit 1, for a login and a detached sandbox with its state elsewhere; sandbox stop has nothing to stop', async () => {
    const dir = '/proc/wsctl-config';
    const env = { WSCTL_CONFIG_DIR: dir, HOME: tempDir() };
    const expected = `Error: Cannot create the config folder ${dir}. Set WSCTL_CONFIG_DIR to a folder you can write.\n`;
    const r = await login({ WSCTL_CONFIG_DIR: dir }, ['--insecure-storage']);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', expected]);
    const state = join(tempDir(), 'state.json');
    const serve = await runBin(['sandbox', 'serve', '--detach', '--state', state], { env, timeoutMs: 20_000 });
    expect([serve.code, serve.stdout, serve.stderr]).toEqual([1, '', expected]);
    const stop = await runBin(['sandbox', 'stop'], { env });
    expect([stop.code, stop.stderr]).toEqual([0, '']);
    expect(stop.stdout).toMatch(/No sandbox server was running/);
  });

  it('a config folder that is a symlink to nowhere: one line saying it is not a folder, exit 1', async () => {
    const link = join(tempDir(), 'wsctl');
    symlinkSync(join(tempDir(), 'not-cloned-yet', 'wsctl'), link);
    const r = await login({ WSCTL_CONFIG_DIR: link }, ['--insecure-storage']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(new RegExp(`^Error: The config folder ${link} is a file, not a folder: .*\n$`));
  });

  const canMount =
    process.getuid?.() === 0 &&
    spawnSync('sh', ['-c', 'd=$(mktemp -d) && mount -t tmpfs -o ro none "$d" && umount "$d"; r=$?; rmdir "$d"; exit $r']).status === 0;
  it.skipIf(!canMount)('a read-only file system: one line naming the folder, and no claim that the key was stored', async () => {
    const dir = tempDir();
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro', 'none', dir]).status).toBe(0);
    try {
      for (const folder of [dir, join(dir, 'wsctl')]) {
        const r = await login({ WSCTL_CONFIG_DIR: folder });
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(
          `Error: Cannot write the config folder ${folder}: it is on a read-only file system. Nothing was saved. Make it writable, or set WSCTL_CONFIG_DIR to a folder you can write.\n`,
        );
      }
    } finally {
      spawnSync('umount', [dir]);
    }
  });

  it.skipIf(process.getuid?.() !== 0 || !reachableByOthers())("another user's folder: one line naming the folder, exit 1", async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    chownSync(dir, 0, 0);
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'auth', 'login', '--with-key', '--no-verify', '--insecure-storage'], {
        env: { PATH: process.env.PATH, HOME: '/nonexistent', WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url },
        uid: 65534,
        gid: 65534,
      });
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      child.on('error', (error) => resolve({ code: null, stderr: `could not start as another user: ${error.message}` }));
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin.end(sb.key);
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(
      `Error: Cannot write the config folder ${dir}: you may not change it (is it owned by another user?). Nothing was saved. Make it writable, or set WSCTL_CONFIG_DIR to a folder you can write.\n`,
    );
  });
});

describe('config edge cases', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('a symlink in place of config.json is replaced by a regular file, never written through', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = join(tempDir(), 'elsewhere.json');
    writeFileSync(target, '{"profiles":{}}', { mode: 0o644 });
    symlinkSync(target, join(dir, 'config.json'));
    const r = await runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage'], {
      env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url },
      stdin: sb.key,
    });
    expect(r.code).toBe(0);
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(false);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(target, 'utf8')).toBe('{"profiles":{}}');
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });

  it('temp files left by a killed writer are removed on the next write', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json.tmp-999999999-abc'), '{"profiles":{"x":{"api_key":"wsk_secret"}}}', { mode: 0o600 });
    const r = await runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage'], {
      env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url },
      stdin: sb.key,
    });
    expect(r.code).toBe(0);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('a config that others can read is named with a warning when it is read', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: sb.url, api_key: sb.key } } }));
    chmodSync(join(dir, 'config.json'), 0o644);
    chmodSync(dir, 0o755);
    const r = await runBin(['keys', 'list'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${join(dir, 'config.json')} is readable by others (file 0644, folder 0755)`);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'profile use %s is a profile like any other: exit 2, nothing set',
    async (name) => {
      const dir = tempDir();
      const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url };
      await runBin(['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'real'], { env, stdin: sb.key });
      const r = await runBin(['profile', 'use', name], { env });
      expect(r.code).toBe(2);
      expect(config(dir).current_profile).toBe('real');
    },
  );

  it('keys create --save-as over an existing profile refuses without --force and sends nothing; --force replaces it', async () => {
    const dir = tempDir();
    const env = { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url, WSCTL_API_KEY: sb.key };
    await runBin(
      ['auth', 'login', '--with-key', '--no-verify', '--insecure-storage', '--profile', 'prod', '--base-url', 'https://prod.example.com'],
      { env: { WSCTL_CONFIG_DIR: dir }, stdin: 'wsk_prod_key_1234' },
    );
    const before = sb.requests.length;
    const refused = await runBin(['keys', 'create', 't', '--save-as', 'prod'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "Error: --save-as would replace profile 'prod' (https://prod.example.com, with a stored key): pass --force to replace it, or choose another name.\n",
    );
    expect(sb.requests.length).toBe(before);
    const forced = await runBin(['keys', 'create', 't', '--save-as', 'prod', '--force', '--insecure-storage', '--json'], { env });
    expect(forced.code).toBe(0);
    expect(config(dir).profiles.prod).toEqual({ base_url: sb.url, api_key: JSON.parse(forced.stdout).key });
  });

  it('keys create --save-as with a config that cannot be written prints the new key first, then fails (exit 1)', async () => {
    // sysfs: nothing to read there, and nothing can be written (even as root).
    const dir = '/sys/kernel/wsctl-test-config';
    const r = await runBin(['keys', 'create', 'k', '--save-as', 'p', '--insecure-storage'], {
      env: { WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url, WSCTL_API_KEY: sb.key },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^key\twsk_\w+$/m);
    expect(r.stderr).toMatch(/^Error: .+/m);
  });
});
