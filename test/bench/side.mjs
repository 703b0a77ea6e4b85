// Two builds of wsctl side by side: the same rows, run alternately (A B A B …) after two warm-up
// runs each (the second runs with the caches the first made), each side with a cache folder of
// its own; medians, the median of the pair ratios, and peak memory (GNU time). For a change
// measured against the build before it, or a trick against the same build without it.
// Usage: node test/bench/side.mjs <A folder> <B folder> [row …]
//   environment: NODE (the Node binary; default this one), RUNS (default 21), A_ENV / B_ENV
//   (extra variables for one side: "NAME=value NAME=value").
// Rows: help version keys jq jqpath tab convo convojson follow mcpinit mcplist mcpcall (default: all).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { largeConversation } from './conversation.mjs';
import { initializeAnswered, mcpSession, toolsListed } from './mcp.mjs';

const ENGINE_FILTER = '[.keys[] | select(.last_used_at != null) | .id]';
const [a, b, ...asked] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: node test/bench/side.mjs <A folder> <B folder> [row …]');
const node = process.env.NODE ?? process.execPath;
const runs = Number(process.env.RUNS ?? 21);
const tmp = mkdtempSync(join(os.tmpdir(), 'wsctl-side-'));
const sideEnv = (text) =>
  Object.fromEntries(
    (text ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => kv.split('=')),
  );
const base = { PATH: process.env.PATH, HOME: join(tmp, 'home'), LANG: 'C.UTF-8' };
mkdirSync(base.HOME);

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function serve(argv, env, lines) {
  const child = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const got = [];
  for await (const line of createInterface({ input: child.stdout })) {
    got.push(line);
    if (got.length === lines) break;
  }
  return { child, lines: got };
}

const config = join(tmp, 'config');
const binA = join(a, 'bin/wsctl');
spawnSync(node, [binA, 'sandbox', 'reset'], { env: { ...base, WSCTL_CONFIG_DIR: config } });
const sandbox = await serve(
  [node, binA, 'sandbox', 'serve', '--port', '0', '--state', join(config, 'sandbox.json')],
  { ...base, WSCTL_CONFIG_DIR: config },
  2,
);
const big = join(tmp, 'conv_big.json');
writeFileSync(big, JSON.stringify(largeConversation('conv_big', 55_000)));
// A running conversation that the server finishes after 20 polls (test/bench/run.mjs's follow row).
const running = join(tmp, 'conv_follow.json');
writeFileSync(running, JSON.stringify({ ...largeConversation('conv_follow', 55_000), state: 'running' }));
const statics = await serve(
  [node, new URL('static-server.mjs', import.meta.url).pathname, `conv_big=${big}`, `conv_follow=${running}~${big}~20`],
  base,
  1,
);
const env = { ...base, WSCTL_CONFIG_DIR: config, ...Object.fromEntries(sandbox.lines.map((l) => l.split('='))) };
const sides = [
  { name: 'A', dir: a, env: { ...env, XDG_CACHE_HOME: join(tmp, 'cache-a'), ...sideEnv(process.env.A_ENV) } },
  { name: 'B', dir: b, env: { ...env, XDG_CACHE_HOME: join(tmp, 'cache-b'), ...sideEnv(process.env.B_ENV) } },
];

/** One process: wall ms and peak MiB. */
function once(side, args, extra = {}) {
  const out = join(tmp, 'time.txt');
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-o', out, '-f', '%M %U %S', node, join(side.dir, 'bin/wsctl'), ...args], {
    env: { ...side.env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${side.name} failed (${r.status}): ${args.join(' ')}\n${r.stderr}`);
  const [peak, user, system] = readFileSync(out, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, peak: peak / 1024, cpu: (user + system) * 1000 };
}

const processRow =
  (args, extra, n = runs) =>
  async () => {
    for (const side of sides) for (let i = 0; i < 2; i++) once(side, args, extra);
    const pairs = [];
    for (let i = 0; i < n; i++) pairs.push(sides.map((side) => once(side, args, extra)));
    return pairs;
  };

const mcpArgv = (side) => [node, join(side.dir, 'bin/wsctl'), 'mcp'];
const timedRow = (time) => async () => {
  for (const side of sides) for (let i = 0; i < 2; i++) await time(side);
  const pairs = [];
  for (let i = 0; i < runs; i++) {
    const pair = [];
    for (const side of sides) pair.push({ wall: await time(side), peak: Number.NaN, cpu: Number.NaN });
    pairs.push(pair);
  }
  return pairs;
};

const big55 = { WSCTL_BASE_URL: statics.lines[0] };
const ROWS = {
  help: ['`--help` (piped)', processRow(['--help'])],
  version: ['`--version`', processRow(['--version'])],
  keys: ['`keys list --json`', processRow(['keys', 'list', '--json'])],
  jq: [`\`keys list --jq '${ENGINE_FILTER}'\``, processRow(['keys', 'list', '--jq', ENGINE_FILTER])],
  jqpath: ["`keys list --jq '.keys[].id'`", processRow(['keys', 'list', '--jq', '.keys[].id'])],
  tab: ['a TAB (`__complete ids app -- conn rm`)', processRow(['__complete', 'ids', 'app', '--', 'conn', 'rm'])],
  convo: ['`convo show` of 55,000 messages, piped', processRow(['convo', 'show', 'conv_big'], big55, Math.max(7, Math.round(runs / 2)))],
  convojson: [
    '`convo show --json` of the same',
    processRow(['convo', 'show', 'conv_big', '--json'], big55, Math.max(7, Math.round(runs / 2))),
  ],
  follow: [
    '`convo show --follow --interval 0.5` of 55,000 messages over 20 polls',
    processRow(['convo', 'show', 'conv_follow', '--follow', '--interval', '0.5'], big55, 3),
  ],
  mcpinit: ['`wsctl mcp`: spawn to the answer to `initialize`', timedRow((side) => initializeAnswered(mcpArgv(side), side.env))],
  mcplist: ['`wsctl mcp`: spawn to the answer to `tools/list`', timedRow((side) => toolsListed(mcpArgv(side), side.env))],
  mcpcall: [
    '`wsctl mcp`: one `tools/call keys_list` (median of 50 calls of a session)',
    timedRow(async (side) => {
      const session = await mcpSession(mcpArgv(side), side.env);
      const calls = [];
      for (let i = 0; i < 50; i++) calls.push(await session.call('keys_list'));
      await session.close();
      return median(calls.slice(5));
    }),
  ],
};

try {
  console.log(
    `${node} ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}; A ${a}${process.env.A_ENV ? ` (${process.env.A_ENV})` : ''}; B ${b}${process.env.B_ENV ? ` (${process.env.B_ENV})` : ''}; load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('| row | A | B | A/B (median of pairs) | pairs | peak A / B | CPU A / B |\n|---|---|---|---|---|---|---|');
  for (const name of asked.length > 0 ? asked : Object.keys(ROWS)) {
    const [what, measure] = ROWS[name];
    const pairs = await measure();
    const ratio = median(pairs.map(([x, y]) => x.wall / y.wall));
    const peaks = sides.map((_, i) => Math.max(...pairs.map((p) => p[i].peak)));
    const cpus = sides.map((_, i) => median(pairs.map((p) => p[i].cpu)));
    console.log(
      `| ${what} | ${median(pairs.map((p) => p[0].wall)).toFixed(1)} ms | ${median(pairs.map((p) => p[1].wall)).toFixed(1)} ms | ${ratio.toFixed(3)}× | ${pairs.length} | ${Number.isNaN(peaks[0]) ? '' : `${peaks[0].toFixed(0)} / ${peaks[1].toFixed(0)} MiB`} | ${Number.isNaN(cpus[0]) ? '' : `${cpus[0].toFixed(0)} / ${cpus[1].toFixed(0)} ms`} |`,
    );
  }
} finally {
  sandbox.child.kill('SIGINT');
  statics.child.kill();
  await new Promise((r) => setTimeout(r, 300));
  rmSync(tmp, { recursive: true, force: true });
}
