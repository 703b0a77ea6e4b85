// npm run bench:tricks: what each speed trick of src/tricks/registry.ts buys, measured on the product.
// Each trick is compared with a build (or a run) of wsctl that differs by that trick alone:
// variant builds are made from this checkout in a temporary folder with one line changed; the
// V8 flags are held back by a preload; the compile cache (Node 22+) and the code cache (Node 20)
// by NODE_DISABLE_COMPILE_CACHE. Runs
// alternate (A B A B …) after a warm-up; medians. Usage: node test/bench/tricks.mjs [node …]
// (the Node binaries to measure on; default this one); TRICKS_ONLY=<regular expression> measures
// only the tricks it matches. Prints a table; writes nothing.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { largeConversation } from './conversation.mjs';

// A filter the plain-path trick does not answer: the jq engine runs it.
const ENGINE_FILTER = '[.keys[] | select(.last_used_at != null) | .id]';
const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 15);
const only = process.env.TRICKS_ONLY ? new RegExp(process.env.TRICKS_ONLY) : undefined;
const tmp = mkdtempSync(join(os.tmpdir(), 'wsctl-tricks-'));
const baseEnv = { PATH: process.env.PATH, HOME: join(tmp, 'home'), LANG: 'C.UTF-8', WSCTL_NO_TRICKS: '0' };
mkdirSync(baseEnv.HOME);

/** A copy of this checkout with one change, built; returns its bin/wsctl. */
function variant(name, file, from, to) {
  const dir = join(tmp, name);
  for (const part of ['src', 'scripts', 'bin', 'package.json', 'tsconfig.json'])
    cpSync(join(root, part), join(dir, part), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const source = readFileSync(join(dir, file), 'utf8');
  if (!source.includes(from)) throw new Error(`${name}: '${from}' not found in ${file}`);
  writeFileSync(join(dir, file), source.replace(from, to));
  execFileSync(process.execPath, [join(dir, 'scripts/build.mjs')], { stdio: 'inherit' });
  return join(dir, 'bin/wsctl');
}

// Holds back the run-time V8 flags named in SKIP_FLAGS (a regular expression).
const skipFlags = join(tmp, 'skip-flags.cjs');
writeFileSync(
  skipFlags,
  "const v8 = require('node:v8'); const set = v8.setFlagsFromString; const skip = new RegExp(process.env.SKIP_FLAGS); v8.setFlagsFromString = (f) => (skip.test(f) ? undefined : set.call(v8, f));\n",
);

/** A command's words as the table shows them: `keys list --jq '.keys[].id'`. */
function shown(args) {
  return `\`${args.map((a) => (/^[\w.-]+$/.test(a) ? a : `'${a}'`)).join(' ')}\``;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One run: wall ms and peak MiB (GNU time, which starts the process itself: no shell). */
function once({ argv, env }) {
  const out = join(tmp, 'time.txt');
  const started = process.hrtime.bigint();
  // stdout is a pipe, as when a user pipes wsctl; drained and dropped.
  const r = spawnSync('/usr/bin/time', ['-o', out, '-f', '%M', ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`failed (${r.status}): ${argv.join(' ')}\n${r.stderr}`);
  return { wall, peak: Number(readFileSync(out, 'utf8').trim().split('\n').at(-1)) / 1024 };
}

function compare(on, off, n) {
  once(on);
  once(off);
  const pairs = [];
  for (let i = 0; i < n; i++) pairs.push([once(on), once(off)]);
  return {
    on: median(pairs.map(([a]) => a.wall)),
    off: median(pairs.map(([, b]) => b.wall)),
    peakOn: median(pairs.map(([a]) => a.peak)),
    peakOff: median(pairs.map(([, b]) => b.peak)),
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

const bin = join(root, 'bin/wsctl');
console.error('building the variants…');
const variants = {
  quickCheck: variant(
    'quick',
    'src/tricks/registry.ts',
    '  if (!tricksOn) return undefined;\n  let check',
    '  return undefined;\n  let check',
  ),
  undici: variant('undici', 'src/tricks/registry.ts', '  if (!tricksOn) {\n    const loaded', '  if (true) {\n    const loaded'),
  http2: variant('http2', 'scripts/no-http2.cjs', 'module.exports = tricksOn()', 'module.exports = false'),
  child: variant('child', 'scripts/lazy-child-process.cjs', 'module.exports = tricksOn()', 'module.exports = false'),
  assert: variant('assert', 'scripts/undici-assert.cjs', 'module.exports = tricksOn()', 'module.exports = false'),
  http: variant('http', 'scripts/undici-http.cjs', 'module.exports = tricksOn()', 'module.exports = false'),
  writeSync: variant('write', 'src/cli/process.ts', '  if (!tricksOn) delete io.writeHelp;', '  delete io.writeHelp;'),
  paths: variant('paths', 'src/terminal/jq.ts', 'const steps = tricksOn ? plainPath(expression) : undefined;', 'const steps = undefined;'),
  local: variant(
    'local',
    'src/terminal/jq.ts',
    '    if (!tricksOn) {\n      // node:fs/promises only here',
    '    if (true) {\n      // node:fs/promises only here',
  ),
  glue: variant('glue', 'src/terminal/jq-local.ts', 'const glue = (runCached?.(path) ?? ', 'const glue = (undefined ?? '),
  crypto: variant(
    'crypto',
    'src/conversation/spool.ts',
    "import { builtinCrypto } from '../tricks/registry.js';",
    "import * as crypto from 'node:crypto';\nconst builtinCrypto = () => crypto;",
  ),
};

const nodes = process.argv.length > 2 ? process.argv.slice(2) : [process.execPath];
try {
  for (const node of nodes) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const config = join(tmp, `config-${version}`);
    execFileSync(node, [bin, 'sandbox', 'reset'], { env: { ...baseEnv, WSCTL_CONFIG_DIR: config } });
    const sandbox = await serve(node, [bin, 'sandbox', 'serve', '--port', '0', '--state', join(config, 'sandbox.json')], 2);
    const file = join(tmp, 'conv_big.json');
    writeFileSync(file, JSON.stringify(largeConversation('conv_big', 55_000)));
    const statics = await serve(node, [join(root, 'test/bench/static-server.mjs'), `conv_big=${file}`], 1);
    const env = { ...baseEnv, WSCTL_CONFIG_DIR: config, ...Object.fromEntries(sandbox.lines.map((l) => l.split('='))) };
    const big = { ...env, WSCTL_BASE_URL: statics.lines[0] };
    // Each build and command keeps a code cache of its own, made by its warm-up run: the cache holds
    // the code of the run that made it, and one made by another command would hold less of this one.
    const cacheOf = (wsctl, args) => {
      const build = wsctl === bin ? 'this' : relative(tmp, wsctl).split(sep)[0];
      return join(tmp, `cache-${version}-${build}-${args.join('_').replace(/\W/g, '_')}`);
    };
    const run = (wsctl, args, e = env) => ({ argv: [node, wsctl, ...args], env: { XDG_CACHE_HOME: cacheOf(wsctl, args), ...e } });
    // Each set of flags keeps its own code cache: V8 rejects one made under other flags.
    const hold = (flags, args, e = env) => ({
      argv: [node, '--require', skipFlags, bin, ...args],
      env: { ...e, SKIP_FLAGS: flags, XDG_CACHE_HOME: join(tmp, `cache-${version}-${flags.replace(/\W/g, '_')}`) },
    });
    // `keys list --json` with the program's code cache made by another kind of command (`profile
    // list`): a cache that learns this kind (at the warm-up), and one that cannot (24 kinds taken).
    const madeByAnother = (learns) => {
      const cache = join(tmp, `cache-${version}-made-by-another-${learns}`);
      spawnSync(node, [bin, 'profile', 'list'], { env: { ...env, XDG_CACHE_HOME: cache }, stdio: 'ignore' });
      const folder = join(cache, 'wsctl');
      const taken = Array.from({ length: 24 }, (_, i) => `kind${i}`).join(' ');
      for (const name of learns ? [] : readdirSync(folder).filter((n) => n.startsWith('code-cache-'))) {
        const text = readFileSync(join(folder, name), 'latin1');
        writeFileSync(join(folder, name), Buffer.from(text.replace(/\n[^\n]*\n/, `\n${taken}\n`), 'latin1'));
      }
      return { argv: [node, bin, 'keys', 'list', '--json'], env: { ...env, XDG_CACHE_HOME: cache } };
    };
    const small = runs;
    const large = Math.max(3, Math.round(runs / 3));
    // A row: the same command with this build and with the variant built without the trick.
    const versus = (name, variant, args, e = env, n = small) => [name, shown(args), run(bin, args, e), run(variant, args, e), n];
    const rows = [
      [
        'compile cache',
        '`--help`',
        run(bin, ['--help']),
        { ...run(bin, ['--help']), env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } },
        small,
      ],
      [
        'compile cache',
        '`keys list --json`',
        run(bin, ['keys', 'list', '--json']),
        { ...run(bin, ['keys', 'list', '--json']), env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } },
        small,
      ],
      [
        'code cache of the whole program',
        '`keys list --json`',
        run(bin, ['keys', 'list', '--json']),
        { ...run(bin, ['keys', 'list', '--json']), env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } },
        small,
      ],
      [
        'code cache of the whole program',
        `\`keys list --jq '${ENGINE_FILTER}'\` (the jq engine's glue)`,
        run(bin, ['keys', 'list', '--jq', ENGINE_FILTER]),
        run(variants.glue, ['keys', 'list', '--jq', ENGINE_FILTER]),
        small,
      ],
      [
        'code cache of the whole program',
        '`keys list --json` with a cache made by `profile list` (the kinds it learns)',
        madeByAnother(true),
        madeByAnother(false),
        small,
      ],
      ['version in the launcher', '`--version`', run(bin, ['--version']), run(bin, ['--version', '--no-color']), small],
      versus('help written synchronously', variants.writeSync, ['--help']),
      versus('node:child_process stand-in', variants.child, ['--help']),
      versus('node:http2 stand-in', variants.http2, ['keys', 'list', '--json']),
      versus('node:assert stand-in', variants.assert, ['keys', 'list', '--json']),
      versus('node:http stand-in', variants.http, ['keys', 'list', '--json']),
      versus('undici deep imports', variants.undici, ['keys', 'list', '--json']),
      versus('jq paths without the engine', variants.paths, ['keys', 'list', '--jq', '.keys[].id']),
      versus('jq on the main thread', variants.local, ['keys', 'list', '--jq', ENGINE_FILTER]),
      [
        'Liftoff only',
        '`keys list --json`',
        hold('^$', ['keys', 'list', '--json']),
        hold('wasm|liftoff', ['keys', 'list', '--json']),
        small,
      ],
      [
        'Liftoff only',
        `\`keys list --jq '${ENGINE_FILTER}'\``,
        hold('^$', ['keys', 'list', '--jq', ENGINE_FILTER]),
        hold('wasm|liftoff', ['keys', 'list', '--jq', ENGINE_FILTER]),
        small,
      ],
      [
        'steady young generation',
        '`convo show` of 55,000 messages',
        hold('^$', ['convo', 'show', 'conv_big'], big),
        hold('semi-space', ['convo', 'show', 'conv_big'], big),
        large,
      ],
      versus('quickCheck', variants.quickCheck, ['convo', 'show', 'conv_big', '--json'], big, large),
      versus('node:crypto without its ES module facade', variants.crypto, ['keys', 'list', '--json']),
    ];
    console.log(`\n${version}\n| trick | measured on | with it | without | saves | peak with / without |\n|---|---|---|---|---|---|`);
    for (const [name, what, on, off, n] of rows) {
      if (name === 'compile cache' && !version.match(/^v(2[2-9]|[3-9]\d)/)) continue;
      if (only && !only.test(name)) continue;
      const r = compare(on, off, n);
      console.log(
        `| ${name} | ${what} | ${r.on.toFixed(0)} ms | ${r.off.toFixed(0)} ms | ${(r.off - r.on).toFixed(0)} ms (${((1 - r.on / r.off) * 100).toFixed(0)}%) | ${r.peakOn.toFixed(0)} / ${r.peakOff.toFixed(0)} MiB |`,
      );
    }
    sandbox.child.kill('SIGINT');
    statics.child.kill();
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
