// What loading a Node module by hand (process.getBuiltinModule, only where it is used) buys over a
// plain import, for the modules wsctl once loaded so (src/tricks/registry.ts says which it still
// does). Two measures, on each Node given (default this one), medians of alternating runs:
// - alone: a fresh process times loading the module with getBuiltinModule and with import()
//   (its ES module facade), once the ES module loader is warm, as it is in wsctl by then;
// - on the product: a wsctl command with the module preloaded (--require) against without, which
//   is what a static import at start-up would cost it.
// Usage: node test/bench/builtins.mjs [node …]. Prints its figures; writes nothing but temporary folders.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(root, 'bin/wsctl');
const nodes = process.argv.length > 2 ? process.argv.slice(2) : [process.execPath];
const runs = Number(process.env.BENCH_RUNS ?? 21);
const tmp = mkdtempSync(join(os.tmpdir(), 'wsctl-builtins-'));
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

const one = join(tmp, 'one.mjs');
writeFileSync(
  one,
  `const [mode, name] = process.argv.slice(2);
await import('node:os');
const t = process.hrtime.bigint();
if (mode === 'gbm') process.getBuiltinModule(name); else await import(name);
process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e6));
`,
);
writeFileSync(join(tmp, 'none.cjs'), '');

// A sandbox to ask.
const sandbox = spawn(process.execPath, [BIN, 'sandbox', 'serve'], { env: { ...process.env, WSCTL_CONFIG_DIR: join(tmp, 'sb') } });
const env = await new Promise((resolve, reject) => {
  let out = '';
  sandbox.stdout.on('data', (c) => {
    out += c;
    const url = /WSCTL_BASE_URL=(\S+)/.exec(out);
    const key = /WSCTL_API_KEY=(\S+)/.exec(out);
    if (url && key) resolve({ WSCTL_BASE_URL: url[1], WSCTL_API_KEY: key[1] });
  });
  sandbox.on('exit', () => reject(new Error(`the sandbox did not start: ${out}`)));
});

const product = [
  ['node:worker_threads', ['keys', 'list', '--jq', '.keys|map(.id)']],
  ['node:tty', ['keys', 'list', '--json']],
  ['node:v8', ['keys', '--help']],
];

try {
  for (const node of nodes) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    for (const name of ['node:fs/promises', 'node:worker_threads', 'node:vm', 'node:tty', 'node:v8', 'node:crypto']) {
      const r = { gbm: [], import: [] };
      for (let i = 0; i < runs; i++)
        for (const mode of i % 2 ? ['gbm', 'import'] : ['import', 'gbm'])
          r[mode].push(Number(execFileSync(node, [one, mode, name], { env: {} })));
      console.log(`${version} alone ${name}: getBuiltinModule ${median(r.gbm).toFixed(2)} ms, import() ${median(r.import).toFixed(2)} ms`);
    }
    for (const [name, args] of product) {
      const pre = join(tmp, `${name.slice(5)}.cjs`);
      writeFileSync(pre, `require(${JSON.stringify(name)});`);
      const cache = mkdtempSync(join(tmp, 'cache-'));
      const time = (file) => {
        const t = process.hrtime.bigint();
        const p = spawnSync(node, [BIN, ...args], {
          env: {
            PATH: process.env.PATH,
            HOME: tmp,
            XDG_CACHE_HOME: cache,
            WSCTL_CONFIG_DIR: cache,
            ...env,
            NODE_OPTIONS: `--require ${file}`,
          },
        });
        if (p.status !== 0) throw new Error(p.stderr.toString());
        return Number(process.hrtime.bigint() - t) / 1e6;
      };
      const none = join(tmp, 'none.cjs');
      time(none);
      const r = { without: [], with: [] };
      for (let i = 0; i < runs; i++) {
        if (i % 2) {
          r.without.push(time(none));
          r.with.push(time(pre));
        } else {
          r.with.push(time(pre));
          r.without.push(time(none));
        }
      }
      const [a, b] = [median(r.without), median(r.with)];
      console.log(
        `${version} wsctl ${args.join(' ')} with ${name} preloaded: ${b.toFixed(1)} ms against ${a.toFixed(1)} ms (${(b - a).toFixed(1)})`,
      );
    }
  }
} finally {
  sandbox.kill();
}
