// npm run bench: wsctl's speed and memory goals (issue 21), each measured against its reference
// in alternation (A B A B …) after a warm-up, on Node 20 (this machine's) and on Node 22, 24 and
// 26 (from the npm registry's `node` package, or BENCH_NODE22=… and so on). Processes are started
// directly, never through a shell (which pulls every ratio toward 1), except `curl | jq .`, which
// is a pipeline. Times come from spawning each process; peak memory from separate runs under GNU
// time. Prints a table of medians and ratios with PASS/FAIL, and writes BENCHMARKS.md.
// Timings are noisy on shared machines: this is not part of npm test and never fails the build.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { largeConversation } from './conversation.mjs';
import { initializeAnswered, keptAliveGet, mcpSession, spawnToExit, toolsListed } from './mcp.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'wsctl');
const runs = Number(process.env.BENCH_RUNS ?? 10);
const tmp = mkdtempSync(join(os.tmpdir(), 'wsctl-bench-'));
const TIME = '/usr/bin/time';
const MESSAGES = 55_000;
const KEYS = 10_000;
// A filter the plain-path trick does not answer: the jq engine runs it.
const ENGINE_FILTER = '[.keys[] | select(.last_used_at != null) | .id]';

if (!existsSync(TIME)) {
  console.error('The benchmark needs GNU time (/usr/bin/time, Debian package "time") for peak memory.');
  process.exit(2);
}

// A clean environment: no NODE_EXTRA_CA_CERTS (which costs every Node start ~30-60 ms on some
// hosts), no CI.
// P2's floor with undici, bundled as wsctl's build bundles undici (node:http2 stood in).
const undiciFloor = join(tmp, 'undici-floor.cjs');
buildSync({
  entryPoints: [join(root, 'test/bench/undici-floor.cjs')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  alias: { 'node:http2': './src/tricks/no-http2.ts' },
  absWorkingDir: root,
  outfile: undiciFloor,
  logLevel: 'warning',
});
const baseEnv = { PATH: process.env.PATH, HOME: join(tmp, 'home'), LANG: 'C.UTF-8' };
mkdirSync(baseEnv.HOME);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

/** Runs argv once, started directly, stdout to /dev/null; returns wall seconds. */
function once(argv, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`failed (${result.status}): ${argv.join(' ')}\n${result.stderr}`);
  return wall;
}

/** Peak MiB of argv's largest process (GNU time starts it, no shell), the highest of `n` runs. */
function peak(argv, env, n = 3) {
  const out = join(tmp, 'time.txt');
  let highest = 0;
  for (let i = 0; i < n; i++) {
    const result = spawnSync(TIME, ['-o', out, '-f', '%M', ...argv], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.status !== 0) throw new Error(`failed (${result.status}): ${argv.join(' ')}\n${result.stderr}`);
    highest = Math.max(highest, Number(readFileSync(out, 'utf8').trim().split('\n').at(-1)) / 1024);
  }
  return highest;
}

/** A and B in turn, one warm-up each, then `n` counted pairs; the ratio is the median of pair ratios, with its quartiles. */
function compare(a, b, env, n = runs) {
  once(a, env);
  once(b, env);
  const pairs = [];
  for (let i = 0; i < n; i++) pairs.push([once(a, env), once(b, env)]);
  const ratios = pairs.map(([x, y]) => x / y);
  return {
    a: median(pairs.map(([x]) => x)),
    b: median(pairs.map(([, y]) => y)),
    ratio: median(ratios),
    low: quantile(ratios, 0.25),
    high: quantile(ratios, 0.75),
  };
}

/**
 * The calls of keys_list a server answers before its row is measured: V8 has then optimised it, as
 * it has a server that answers an agent through a session.
 */
const WARM_CALLS = 200;

/** An MCP server (argv) started and warmed by `calls` calls of keys_list, for work; closed after. */
async function warmServer(argv, env, work, calls = WARM_CALLS) {
  const session = await mcpSession(argv, env);
  try {
    for (let i = 0; i < calls; i++) await session.call('keys_list');
    return await work(session);
  } finally {
    await session.close();
  }
}

/** compare() for measures taken by async functions (each resolves with milliseconds). */
async function compareAsync(a, b, n = runs) {
  await a();
  await b();
  const pairs = [];
  for (let i = 0; i < n; i++) pairs.push([await a(), await b()]);
  const ratios = pairs.map(([x, y]) => x / y);
  return {
    a: median(pairs.map(([x]) => x)) / 1000,
    b: median(pairs.map(([, y]) => y)) / 1000,
    ratio: median(ratios),
    low: quantile(ratios, 0.25),
    high: quantile(ratios, 0.75),
  };
}

async function serve(node, args, lines) {
  const child = spawn(node, args, { env: baseEnv, stdio: ['ignore', 'pipe', 'ignore'] });
  const got = [];
  for await (const line of createInterface({ input: child.stdout })) {
    got.push(line);
    if (got.length === lines) break;
  }
  return { child, lines: got };
}

function installNode(major) {
  if (process.env[`BENCH_NODE${major}`]) return process.env[`BENCH_NODE${major}`];
  const prefix = join(tmp, `node${major}`);
  try {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `node@${major}`], { stdio: 'ignore' });
    const node = join(prefix, 'node_modules', '.bin', 'node');
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).startsWith(`v${major}`) ? node : undefined;
  } catch {
    return undefined;
  }
}

/** P4: completing commands and flags must not start Node: stub node and wsctl, and see. */
function completionStartsNoNode() {
  const stubs = join(tmp, 'stubs');
  mkdirSync(stubs, { recursive: true });
  const marker = join(tmp, 'node-started');
  for (const name of ['node', 'wsctl']) writeFileSync(join(stubs, name), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
  const script = join(root, 'completions', 'wsctl.bash');
  // Not the first word: aliases complete like commands (cli.md), which the completer reads from the config.
  const lines = ['wsctl keys ', 'wsctl keys cr', 'wsctl site create x --variant ', 'wsctl keys create --'];
  for (const line of lines) {
    const words = line
      .split(' ')
      .map((w) => `'${w}'`)
      .join(' ');
    execFileSync('bash', ['-c', `source ${script}; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _wsctl`], {
      env: { ...baseEnv, PATH: `${stubs}:${baseEnv.PATH}` },
    });
  }
  return !existsSync(marker);
}

// Lines where a TAB would complete an id, as a user types them.
const ID_LINES = [
  'wsctl device rm ',
  'wsctl conn rm ',
  'wsctl pub rm ',
  'wsctl convo show ',
  'wsctl conn set-permission ',
  'wsctl persona versions ',
  'wsctl keys rm ',
];

/**
 * The argv bash's completion gives `wsctl` for a TAB that completes an id (a stub wsctl on PATH
 * records it), so that the row times the completer as a shell starts it; undefined while the
 * completion scripts complete no id (then the row times `__complete profiles`, the one dynamic
 * completion there is).
 */
function idCompletionArgv() {
  const stubs = join(tmp, 'argv-stubs');
  const record = join(tmp, 'completion-argv');
  mkdirSync(stubs, { recursive: true });
  writeFileSync(join(stubs, 'wsctl'), `#!/bin/sh\nprintf '%s\\0' "$@" > ${record}\n`, { mode: 0o755 });
  const script = join(root, 'completions', 'wsctl.bash');
  for (const line of ID_LINES) {
    rmSync(record, { force: true });
    const words = line
      .split(' ')
      .map((w) => `'${w}'`)
      .join(' ');
    spawnSync('bash', ['-c', `source ${script}; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _wsctl`], {
      env: { ...baseEnv, PATH: `${stubs}:${baseEnv.PATH}` },
    });
    if (!existsSync(record)) continue;
    const argv = readFileSync(record, 'utf8').split('\0').slice(0, -1);
    if (argv[0] === '__complete' && argv[1] !== 'profiles') return { line, argv };
  }
  return undefined;
}

// The large bodies, written once for every Node line.
const bodies = {};
function body(name, make) {
  if (!bodies[name]) {
    bodies[name] = join(tmp, `${name}.json`);
    writeFileSync(bodies[name], JSON.stringify(make()));
  }
  return bodies[name];
}

function keyList(n) {
  const t0 = Date.parse('2026-01-05T09:00:00Z');
  return {
    keys: Array.from({ length: n }, (_, i) => ({
      id: `key_${String(i).padStart(6, '0')}`,
      name: `key number ${i}`,
      key_prefix: `wsk_${i.toString(36)}`,
      created_at: new Date(t0 + i * 6e4).toISOString(),
      last_used_at: i % 3 ? new Date(t0 + i * 9e4).toISOString() : null,
    })),
  };
}

async function measure(_label, major, node) {
  const w = [node, bin];
  const state = join(tmp, `${major}-state.json`);
  const config = join(tmp, `${major}-config`);
  execFileSync(node, [bin, 'sandbox', 'reset'], { env: { ...baseEnv, WSCTL_CONFIG_DIR: config } });
  writeFileSync(state, readFileSync(join(config, 'sandbox.json')));
  const sandbox = await serve(node, [bin, 'sandbox', 'serve', '--port', '0', '--state', state], 2);
  const env = { ...baseEnv, ...Object.fromEntries(sandbox.lines.map((l) => l.split('='))), WSCTL_CONFIG_DIR: config };
  const nodeE0 = [node, '-e', '0'];
  const big = body('conv_big', () => largeConversation('conv_big', MESSAGES));
  const huge = body('conv_huge', () => largeConversation('conv_huge', 4 * MESSAGES));
  const running = body('conv_follow_running', () => ({ ...largeConversation('conv_follow', MESSAGES), state: 'running' }));
  const keys = body('api-keys', () => keyList(KEYS));
  const POLLS = 20;
  const statics = await serve(
    node,
    [
      join(root, 'test/bench/static-server.mjs'),
      `conv_big=${big}`,
      `conv_huge=${huge}`,
      `conv_follow=${running}~${big}~${POLLS}`,
      `api-keys=${keys}`,
    ],
    1,
  );
  const staticEnv = { ...env, WSCTL_BASE_URL: statics.lines[0] };
  const bigSize = readFileSync(big).length;
  const floor = [node, join(root, 'test/bench/download-parse.cjs'), 'conv_big'];
  const jq = [
    'sh',
    '-c',
    `curl -s -H "Authorization: Bearer $WSCTL_API_KEY" ${statics.lines[0]}/conversations/conv_big | jq . > /dev/null`,
  ];
  try {
    const results = [];
    const goal = (id, what, target, r, extra = {}) => results.push({ id, what, target, ...r, ...extra });
    const memory = (id, what, target, a, b, extra = {}) => results.push({ id, what, target, ratio: a / b, a, b, memory: true, ...extra });
    const e0Peak = peak(nodeE0, env);
    // BENCH_ONLY=P2,mcp measures only the rows of those goals.
    const only = process.env.BENCH_ONLY?.split(',');
    const want = (id) => !only || only.includes(id);

    if (want('P1')) goal('P1', '`wsctl --version` / `node -e 0`', 1.3, compare([...w, '--version'], nodeE0, env, runs * 2));
    if (want('P1')) goal('P1', '`wsctl --help` / `node -e 0`', 1.15, compare([...w, '--help'], nodeE0, env, runs * 2));
    const p2 = want('P2') && compare([...w, 'keys', 'list', '--json'], [node, join(root, 'test/bench/http-get.cjs')], env, runs * 2);
    if (want('P2')) goal('P2', '`wsctl keys list --json` / CommonJS `node:http` GET', major === 20 ? 2.3 : 1.6, p2);
    // No goal: how far P2 is from the least a Node script with undici takes for the same GET.
    if (want('P2'))
      goal(
        'P2',
        '`wsctl keys list --json` / the same GET with undici (test/bench/undici-floor.cjs, bundled as wsctl bundles it)',
        Infinity,
        compare([...w, 'keys', 'list', '--json'], [node, undiciFloor], env, runs * 2),
      );
    if (want('jq'))
      goal(
        'jq',
        "`wsctl keys list --jq '.keys[].id'` (a plain path) / `keys list --json`",
        1.3,
        compare([...w, 'keys', 'list', '--jq', '.keys[].id'], [...w, 'keys', 'list', '--json'], env, runs * 2),
      );
    // The engine's goal is met by either row: 1.3× `--json`, or 1.1× the engine's own floor.
    if (want('jq'))
      goal(
        'jq',
        `\`wsctl keys list --jq '${ENGINE_FILTER}'\` (the engine) / \`keys list --json\``,
        1.3,
        compare([...w, 'keys', 'list', '--jq', ENGINE_FILTER], [...w, 'keys', 'list', '--json'], env, runs * 2),
        { either: 'jq-engine' },
      );
    if (want('jq'))
      goal(
        'jq',
        `the same / the engine's floor (test/bench/jq-floor.cjs: the \`node:http\` GET while jq-wasm is instantiated, then the filter once)`,
        1.1,
        compare([...w, 'keys', 'list', '--jq', ENGINE_FILTER], [node, join(root, 'test/bench/jq-floor.cjs'), ENGINE_FILTER], env, runs * 2),
        { either: 'jq-engine' },
      );

    if (want('P4')) {
      const completing = idCompletionArgv();
      const completer = completing ? completing.argv : ['__complete', 'profiles'];
      const completionWhat = completing
        ? `a TAB that completes an id (\`${completing.line.trim()} <TAB>\`: \`wsctl ${completer.join(' ')}\`, as bash starts it) / \`node -e 0\``
        : 'a TAB that completes an id / `node -e 0` (the scripts complete no id yet: `wsctl __complete profiles`, the one dynamic completion)';
      goal('P4', completionWhat, 1.3, compare([...w, ...completer], nodeE0, env, runs * 2));
    }

    // wsctl mcp: its start, and one tool call on a running server.
    if (want('mcp')) {
      const mcp = [...w, 'mcp'];
      goal(
        'mcp',
        '`wsctl mcp`: spawn to the answer to `initialize` / `node -e 0` (spawn to exit)',
        2,
        await compareAsync(
          () => initializeAnswered(mcp, env),
          () => spawnToExit(nodeE0, env),
          runs * 2,
        ),
      );
      // No goal: the launcher answers `initialize` (a speed trick), the program the rest.
      goal(
        'mcp',
        '`wsctl mcp`: spawn to the answer to `tools/list`, sent once `initialize` is answered / `node -e 0` (what a client waits for before its first call)',
        Infinity,
        await compareAsync(
          () => toolsListed(mcp, env),
          () => spawnToExit(nodeE0, env),
          runs * 2,
        ),
      );
      // One tools/call keys_list on a running server, timed against another's (or the GET's), 40
      // pairs a run, once the server and the reference have answered WARM_CALLS each.
      const calls = (what, target, a, b, pairs = runs * 40) => compareAsync(a, b, pairs).then((r) => goal('mcp', what, target, r));
      const reference = keptAliveGet(env.WSCTL_BASE_URL, env.WSCTL_API_KEY);
      try {
        for (let i = 0; i < WARM_CALLS; i++) await reference.get();
        // The calls that follow a start, before V8 has optimised much: three answered, then calls
        // 5 to 4 + 4 × runs (compareAsync's first pair is not counted); the same for the floor.
        const firstCalls = (what, target, argv, b) =>
          warmServer(argv, env, (session) => calls(what, target, () => session.call('keys_list'), b, runs * 4), 3);
        await firstCalls(
          '`wsctl mcp`: one of the first `tools/call keys_list` calls after the start / the same GET from a Node script on a kept-alive `node:http` connection',
          2,
          mcp,
          () => reference.get(),
        );
        await firstCalls(
          "the floor with the design's libraries (test/bench/mcp-sdk-floor.mjs): one of its first calls / the same GET",
          Infinity,
          [node, join(root, 'test/bench/mcp-sdk-floor.mjs')],
          () => reference.get(),
        );
        await warmServer(mcp, env, async (session) => {
          const call = () => session.call('keys_list');
          await calls(
            '`wsctl mcp`: one `tools/call keys_list` on a running server / the same GET from a Node script on a kept-alive `node:http` connection',
            2,
            call,
            () => reference.get(),
          );
          // No goal: how far the call is from the least a stdio server in Node can do for it.
          await warmServer([node, join(root, 'test/bench/mcp-floor.cjs')], env, (floor) =>
            calls(
              '`wsctl mcp`: one `tools/call keys_list` / the same call to the floor (test/bench/mcp-floor.cjs: JSON lines on stdio, no SDK, the GET on a kept-alive `node:http` connection)',
              Infinity,
              call,
              () => floor.call('keys_list'),
            ),
          );
          // No goal: the same floor with the design's libraries, the MCP SDK's stdio Server and
          // undici, which wsctl cannot go below without leaving them.
          await warmServer([node, join(root, 'test/bench/mcp-sdk-floor.mjs')], env, async (floor) => {
            await calls(
              "the floor with the design's libraries (test/bench/mcp-sdk-floor.mjs: the MCP SDK's stdio Server, the GET with undici on a kept-alive connection): one `tools/call keys_list` / the same GET from a Node script on a kept-alive `node:http` connection",
              Infinity,
              () => floor.call('keys_list'),
              () => reference.get(),
            );
            await calls(
              "`wsctl mcp`: one `tools/call keys_list` / the same call to the floor with the design's libraries (test/bench/mcp-sdk-floor.mjs)",
              Infinity,
              call,
              () => floor.call('keys_list'),
            );
          });
        });
      } finally {
        reference.close();
      }
    }

    const n3 = Math.max(3, Math.round(runs / 2));
    const mb = (bigSize / 1e6).toFixed(0);
    const textPeak = want('P3') && peak([...w, 'convo', 'show', 'conv_big'], staticEnv);
    const jsonPeak = want('P3') && peak([...w, 'convo', 'show', 'conv_big', '--json'], staticEnv);
    if (want('P3'))
      goal(
        'P3',
        `\`convo show\` of ${MESSAGES} messages (${mb} MB, a static file), piped / download and JSON.parse`,
        1.0,
        compare([...w, 'convo', 'show', 'conv_big'], floor, staticEnv, n3),
        { peak: textPeak, memoryLimit: 120 },
      );
    if (want('P3'))
      goal(
        'P3',
        '`convo show --json` of the same / download and JSON.parse',
        1.15,
        compare([...w, 'convo', 'show', 'conv_big', '--json'], floor, staticEnv, n3),
        { peak: jsonPeak, memoryLimit: 120 },
      );
    if (want('P3'))
      goal(
        'P3',
        '`convo show` of the same / `curl | jq .` (issue 14)',
        0.3,
        compare([...w, 'convo', 'show', 'conv_big'], jq, staticEnv, n3),
      );
    if (want('P3'))
      goal(
        'P3',
        '`convo show --json` of the same / `curl | jq .` (issue 14)',
        0.3,
        compare([...w, 'convo', 'show', 'conv_big', '--json'], jq, staticEnv, n3),
      );
    if (want('P3'))
      memory(
        'P3',
        `peak memory of \`convo show\` of ${4 * MESSAGES} messages / of ${MESSAGES}`,
        1.2,
        peak([...w, 'convo', 'show', 'conv_huge'], staticEnv, 2),
        textPeak,
        { memoryLimit: 120 },
      );
    if (want('P3'))
      memory(
        'P3',
        `peak memory of \`convo show --json\` of ${4 * MESSAGES} messages / of ${MESSAGES}`,
        1.2,
        peak([...w, 'convo', 'show', 'conv_huge', '--json'], staticEnv, 2),
        jsonPeak,
        { memoryLimit: 120 },
      );
    if (want('follow'))
      memory(
        'follow',
        `peak memory of \`convo show --follow --interval 0.5\` of ${MESSAGES} messages over ${POLLS} polls / \`node -e 0\``,
        Infinity,
        peak([...w, 'convo', 'show', 'conv_follow', '--follow', '--interval', '0.5'], staticEnv, 2),
        e0Peak,
        { memoryLimit: 90 },
      );
    if (want('keys'))
      memory(
        'keys',
        `peak memory of \`keys list\` of ${KEYS} keys (a table) / \`node -e 0\``,
        2,
        peak([...w, 'keys', 'list'], staticEnv),
        e0Peak,
      );
    if (want('keys'))
      memory(
        'keys',
        `peak memory of \`keys list --jq '.keys[].id'\` of ${KEYS} keys / \`node -e 0\``,
        2,
        peak([...w, 'keys', 'list', '--jq', '.keys[].id'], staticEnv),
        e0Peak,
      );
    if (want('keys'))
      memory(
        'keys',
        `peak memory of \`keys list --jq '${ENGINE_FILTER}'\` of ${KEYS} keys / \`node -e 0\``,
        2,
        peak([...w, 'keys', 'list', '--jq', ENGINE_FILTER], staticEnv),
        e0Peak,
      );
    if (want('P4'))
      results.push({
        id: 'P4',
        what: "completing a noun's verbs, flags and their values starts no Node process (the first word starts the completer for aliases)",
        pass: completionStartsNoNode(),
      });
    if (want('P5')) {
      const others = [
        ['--version', ['--version']],
        ['--help', ['--help']],
        ['keys list --json', ['keys', 'list', '--json']],
        ['settings', ['settings']],
        ['caps', ['caps']],
        ['convo show conv_demo', ['convo', 'show', 'conv_demo']],
        ['completion bash', ['completion', 'bash']],
      ].map(([name, args]) => [name, peak([...w, ...args], env)]);
      const worst = others.reduce((a, b) => (b[1] > a[1] ? b : a));
      memory('P5', `peak memory of other commands / \`node -e 0\`; worst: ${worst[0]}`, 2, worst[1], e0Peak);
    }
    return results;
  } finally {
    sandbox.child.kill('SIGINT');
    statics.child.kill();
  }
}

function ownVerdict(r) {
  if (r.pass !== undefined) return r.pass ? 'PASS' : 'FAIL';
  if (r.target === Infinity && r.memoryLimit === undefined) return 'no goal';
  const memoryOk = r.memoryLimit === undefined || (r.peak ?? r.a) <= r.memoryLimit;
  return r.ratio <= r.target && memoryOk ? 'PASS' : 'FAIL';
}

/** A row of a goal that either of its rows meets (r.either names the goal) passes with the other. */
function verdict(r) {
  const own = ownVerdict(r);
  if (own === 'PASS' || !r.either || !r.group?.some((o) => o !== r && ownVerdict(o) === 'PASS')) return own;
  return 'PASS (the other measure)';
}

function targetText(r) {
  const limit = r.memoryLimit !== undefined ? `${r.target === Infinity ? '' : '; '}≤ ${r.memoryLimit} MiB` : '';
  return `${r.target === Infinity ? '' : `≤ ${r.target}×`}${limit}`;
}

function row(r) {
  if (r.pass !== undefined) return `| ${r.id} | ${r.what} | | | | | none | ${verdict(r)} |`;
  const target = targetText(r);
  if (r.memory)
    return `| ${r.id} | ${r.what} | ${r.a.toFixed(0)} MiB | ${r.b.toFixed(0)} MiB | ${r.ratio.toFixed(2)}× | | ${target} | ${verdict(r)} |`;
  const peakNote = r.peak !== undefined ? `; peak ${r.peak.toFixed(0)} MiB` : '';
  const time = (seconds) => `${(seconds * 1000).toFixed(seconds < 0.02 ? 1 : 0)} ms`;
  return `| ${r.id} | ${r.what} | ${time(r.a)} | ${time(r.b)} | ${r.ratio.toFixed(2)}× | ${r.low.toFixed(2)}-${r.high.toFixed(2)}${peakNote} | ${target} | ${verdict(r)} |`;
}

const sections = [];
// BENCH_MAJORS=20,24 measures only those lines.
const majors = (process.env.BENCH_MAJORS ?? '20,22,24,26').split(',').map(Number);
const versions = majors.includes(20) ? [[20, process.execPath]] : [];
for (const major of majors.filter((m) => m !== 20)) {
  const node = installNode(major);
  if (node) versions.push([major, node]);
  else console.error(`Node ${major} could not be installed from the npm registry; not measured.`);
}
const load = [os.loadavg()[0]];
const missed = [];
const started = new Date();
try {
  for (const [major, node] of versions) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const label = `Node ${major}`;
    console.error(`measuring on ${version} (${runs} runs)…`);
    const results = await measure(label, major, node);
    for (const r of results) if (r.either) r.group = results.filter((o) => o.either === r.either);
    load.push(os.loadavg()[0]);
    for (const r of results.filter((x) => verdict(x) === 'FAIL'))
      missed.push(
        r.pass !== undefined
          ? `- ${label}: ${r.id}, ${r.what}: not so`
          : `- ${label}: ${r.id}, ${r.what}: ${r.ratio.toFixed(2)}×${r.peak !== undefined ? `, peak ${r.peak.toFixed(0)} MiB` : ''} (${targetText(r)})`,
      );
    const table = [
      '| goal | measure | wsctl (median) | reference (median) | ratio | pair ratios, quartiles | target | verdict |',
      '|---|---|---|---|---|---|---|---|',
      ...results.map(row),
    ].join('\n');
    console.log(`\n${label} (${version})\n${table}`);
    sections.push(`### ${label} (${version})\n\n${table}\n`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const header = `# Benchmarks

Measured by \`npm run bench\` on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}; load average ${load.map((l) => l.toFixed(1)).join(', ')} (at the start and after each Node line).
Each measure runs wsctl and its reference in turn after a warm-up, each process started directly
(no shell, except the \`curl | jq .\` pipeline), stdout to /dev/null, \`NODE_EXTRA_CA_CERTS\` unset;
times are medians of whole processes, the ratio is the median of the pair ratios (with the
quartiles of those ratios, to show the noise); peak memory is the highest of separate runs under
GNU time. The machine is shared and noisy: read the ratios, not the absolute times.

${missed.length ? `Goals missed in this run:\n\n${missed.join('\n')}\n` : 'Every goal met in this run.\n'}`;
const notes = existsSync(join(root, 'test/bench/NOTES.md')) ? readFileSync(join(root, 'test/bench/NOTES.md'), 'utf8') : '';
// Some rows only (BENCH_ONLY): printed, BENCHMARKS.md left whole.
if (process.env.BENCH_ONLY)
  console.error(`\nload average ${load.map((l) => l.toFixed(1)).join(', ')}; BENCHMARKS.md not written (BENCH_ONLY)`);
else {
  writeFileSync(join(root, 'BENCHMARKS.md'), `${header}\n${sections.join('\n')}\n${notes}`);
  console.error('\nwrote BENCHMARKS.md');
}
