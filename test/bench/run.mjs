// npm run bench: wsctl's speed and memory goals, each measured against its reference in
// alternation (A B A B …) after a warm-up, on Node 20 (this machine's) and on Node 22, 24 and 26
// (from the npm registry's `node` package). Prints a table of medians and ratios with PASS/FAIL, and writes BENCHMARKS.md.
// Timings are noisy on shared machines: this is not part of npm test and never fails the build.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { largeConversation } from './conversation.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'wsctl');
const runs = Number(process.env.BENCH_RUNS ?? 10);
const tmp = mkdtempSync(join(os.tmpdir(), 'wsctl-bench-'));
const TIME = '/usr/bin/time';
const MESSAGES = 55_000;

if (!existsSync(TIME)) {
  console.error('The benchmark needs GNU time (/usr/bin/time, Debian package "time") for peak memory.');
  process.exit(2);
}

// A clean environment: no NODE_EXTRA_CA_CERTS (which costs every Node start ~60 ms on some hosts), no CI.
const baseEnv = { PATH: process.env.PATH, HOME: join(tmp, 'home'), LANG: 'C.UTF-8' };
mkdirSync(baseEnv.HOME);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs a shell command line once; returns wall seconds and peak MiB of its largest process. */
function once(command, env) {
  const out = join(tmp, 'time.txt');
  const started = process.hrtime.bigint();
  const result = spawnSync(TIME, ['-o', out, '-f', '%M', 'sh', '-c', command], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`failed (${result.status}): ${command}\n${result.stderr}`);
  return { wall, peak: Number(readFileSync(out, 'utf8').trim().split('\n').at(-1)) / 1024 };
}

/** A and B in turn, one warm-up each, then `n` counted pairs; the ratio is the median of pair ratios. */
function compare(a, b, env, n = runs) {
  once(a, env);
  once(b, env);
  const pairs = [];
  for (let i = 0; i < n; i++) pairs.push([once(a, env), once(b, env)]);
  return {
    a: median(pairs.map(([x]) => x.wall)),
    b: median(pairs.map(([, y]) => y.wall)),
    ratio: median(pairs.map(([x, y]) => x.wall / y.wall)),
    peakA: Math.max(...pairs.map(([x]) => x.peak)),
    peakB: Math.max(...pairs.map(([, y]) => y.peak)),
  };
}

async function startSandbox(node, state) {
  const child = spawn(node, [bin, 'sandbox', 'serve', '--port', '0', '--state', state], { env: baseEnv, stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = [];
  for await (const line of createInterface({ input: child.stdout })) {
    lines.push(line);
    if (lines.length === 2) break;
  }
  return { child, env: Object.fromEntries(lines.map((l) => l.split('='))) };
}

function installNode(major) {
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
  const lines = ['wsctl ke', 'wsctl keys ', 'wsctl site create x --variant ', 'wsctl keys create --'];
  for (const line of lines) {
    const words = line.split(' ').map((w) => `'${w}'`).join(' ');
    execFileSync('bash', ['-c', `source ${script}; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _wsctl`], { env: { ...baseEnv, PATH: `${stubs}:${baseEnv.PATH}` } });
  }
  return !existsSync(marker);
}

async function measure(label, node) {
  const w = `'${node}' '${bin}'`;
  const state = join(tmp, `${label.replace(/\W/g, '')}-state.json`);
  const config = join(tmp, `${label.replace(/\W/g, '')}-config`);
  execFileSync(node, [bin, 'sandbox', 'reset'], { env: { ...baseEnv, WSCTL_CONFIG_DIR: config } });
  writeFileSync(state, readFileSync(join(config, 'sandbox.json')));
  const sandbox = await startSandbox(node, state);
  const env = { ...baseEnv, ...sandbox.env, WSCTL_CONFIG_DIR: config };
  const nodeE0 = `'${node}' -e 0`;
  // P3: the large conversations as static files (issue 14), in the interface's field order.
  const files = ['conv_big', 'conv_double'].map((id, i) => {
    const file = join(tmp, `${id}.json`);
    writeFileSync(file, JSON.stringify(largeConversation(id, (i + 1) * MESSAGES)));
    return `${id}=${file}`;
  });
  const statics = spawn(node, [join(root, 'test/bench/static-server.mjs'), ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
  const staticUrl = (await createInterface({ input: statics.stdout })[Symbol.asyncIterator]().next()).value;
  const p3env = { ...env, WSCTL_BASE_URL: staticUrl };
  const bigSize = readFileSync(files[0].split('=')[1]).length;
  const jq = `curl -s -H "Authorization: Bearer $WSCTL_API_KEY" ${staticUrl}/conversations/conv_big | jq . > /dev/null`;
  try {
    const results = [];
    const goal = (id, what, target, r, extra = {}) => results.push({ id, what, target, ...r, ...extra });
    const p1v = compare(`${w} --version > /dev/null`, nodeE0, env, runs * 2);
    goal('P1', '`wsctl --version` / `node -e 0`', 1.3, p1v);
    const p1h = compare(`${w} --help > /dev/null`, nodeE0, env, runs * 2);
    goal('P1', '`wsctl --help` / `node -e 0`', 1.3, p1h);
    const p2 = compare(`${w} keys list --json > /dev/null`, `'${node}' '${join(root, 'test/bench/http-get.mjs')}' > /dev/null`, env, runs * 2);
    goal('P2', '`wsctl keys list --json` / node:http GET', label === 'Node 20' ? 1.5 : 1.3, p2);
    const pjq = compare(`${w} keys list --jq '.keys[].id' > /dev/null`, `${w} keys list --json > /dev/null`, env, runs * 2);
    goal('jq', "`wsctl keys list --jq '.keys[].id'` / `keys list --json`", 1.3, pjq);
    const p3 = compare(`${w} convo show conv_big > /dev/null`, jq, p3env, Math.max(3, runs / 2));
    goal('P3', `\`convo show\` of ${MESSAGES} messages (${(bigSize / 1e6).toFixed(0)} MB, a static file), piped / \`curl | jq .\``, 0.3, p3, { memoryLimit: 120 });
    const p3j = compare(`${w} convo show conv_big --json > /dev/null`, jq, p3env, Math.max(3, runs / 2));
    goal('P3', '`convo show --json` of the same / `curl | jq .`', 0.3, p3j, { memoryLimit: 120 });
    const double = once(`${w} convo show conv_double > /dev/null`, p3env);
    results.push({ id: 'P3', what: `peak memory of \`convo show\` of ${2 * MESSAGES} messages / of ${MESSAGES}`, target: 1.2, ratio: double.peak / p3.peakA, a: double.peak, b: p3.peakA, memory: true });
    const p4 = completionStartsNoNode();
    results.push({ id: 'P4', what: 'completing commands and flags starts no Node process', pass: p4 });
    const floor = p1v.peakB;
    const others = [
      ['--version', `${w} --version > /dev/null`],
      ['--help', `${w} --help > /dev/null`],
      ['keys list --json', `${w} keys list --json > /dev/null`],
      ['settings', `${w} settings > /dev/null`],
      ['caps', `${w} caps > /dev/null`],
      ['convo show conv_demo', `${w} convo show conv_demo > /dev/null`],
      ['completion bash', `${w} completion bash > /dev/null`],
    ].map(([name, cmd]) => [name, Math.max(...[0, 1, 2].map(() => once(cmd, env).peak))]);
    const worst = others.reduce((a, b) => (b[1] > a[1] ? b : a));
    results.push({ id: 'P5', what: `peak memory of other commands / \`node -e 0\` (${floor.toFixed(0)} MiB); worst: ${worst[0]}`, target: 2, ratio: worst[1] / floor, a: worst[1], b: floor, memory: true });
    return results;
  } finally {
    sandbox.child.kill('SIGINT');
    statics.kill();
  }
}

function verdict(r) {
  if (r.pass !== undefined) return r.pass ? 'PASS' : 'FAIL';
  const memoryOk = r.memoryLimit === undefined || r.peakA <= r.memoryLimit;
  return r.ratio <= r.target && memoryOk ? 'PASS' : 'FAIL';
}

function row(r) {
  if (r.pass !== undefined) return `| ${r.id} | ${r.what} | | | | none | ${verdict(r)} |`;
  if (r.memory) return `| ${r.id} | ${r.what} | ${r.a.toFixed(0)} MiB | ${r.b.toFixed(0)} MiB | ${r.ratio.toFixed(2)}× | ≤ ${r.target}× | ${verdict(r)} |`;
  const memory = r.memoryLimit !== undefined ? `; peak ${r.peakA.toFixed(0)} MiB (≤ ${r.memoryLimit})` : '';
  return `| ${r.id} | ${r.what} | ${(r.a * 1000).toFixed(0)} ms | ${(r.b * 1000).toFixed(0)} ms | ${r.ratio.toFixed(2)}× | ≤ ${r.target}×${memory} | ${verdict(r)} |`;
}

const sections = [];
const versions = [['Node 20', process.execPath]];
for (const major of [22, 24, 26]) {
  const node = installNode(major);
  if (node) versions.push([`Node ${major}`, node]);
  else console.error(`Node ${major} could not be installed from the npm registry; not measured.`);
}
try {
  for (const [label, node] of versions) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    console.error(`measuring on ${version} (${runs} runs)…`);
    const results = await measure(label, node);
    const table = ['| goal | measure | wsctl (median) | reference (median) | ratio | target | verdict |', '|---|---|---|---|---|---|---|', ...results.map(row)].join('\n');
    console.log(`\n${label} (${version})\n${table}`);
    sections.push(`### ${label} (${version})\n\n${table}\n`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const header = `# Benchmarks

Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}.
Each measure runs wsctl and its reference in turn after a warm-up; times are medians of whole
processes, the ratio is the median of the pair ratios, peak memory is that of the largest process
(GNU time). The machine is shared and noisy: read the ratios, not the absolute times.
`;
const notes = existsSync(join(root, 'test/bench/NOTES.md')) ? readFileSync(join(root, 'test/bench/NOTES.md'), 'utf8') : '';
writeFileSync(join(root, 'BENCHMARKS.md'), `${header}\n${sections.join('\n')}\n${notes}`);
console.error('\nwrote BENCHMARKS.md');
