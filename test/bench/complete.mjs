// What a TAB costs: `wsctl __complete ids` (and `profiles`) against `node -e 0`, alternating runs,
// medians. cli.md §10's budget is 1.3x `node -e 0`. Usage: npm run build && node test/bench/complete.mjs [runs]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 15);
const bin = fileURLToPath(new URL('../../bin/wsctl', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wsctl-bench-complete-'));
const env = {
  PATH: process.env.PATH,
  HOME: dir,
  XDG_CACHE_HOME: join(dir, 'cache'),
  WSCTL_CONFIG_DIR: join(dir, 'config'),
  WSCTL_SANDBOX: '1',
};
mkdirSync(env.WSCTL_CONFIG_DIR);
writeFileSync(join(env.WSCTL_CONFIG_DIR, 'config.json'), JSON.stringify({ profiles: { work: {}, home: {} } }));
// Some remembered ids, as a first command leaves them.
spawnSync(process.execPath, [bin, 'caps'], { env, stdio: 'ignore' });
const cases = {
  'node -e 0': [process.execPath, ['-e', '0']],
  '__complete ids conversation': [process.execPath, [bin, '__complete', 'ids', 'conversation', '--', 'convo', 'show']],
  '__complete profiles': [process.execPath, [bin, '__complete', 'profiles']],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, [cmd, args]] of Object.entries(cases)) {
    const start = process.hrtime.bigint();
    spawnSync(cmd, args, { env, stdio: 'ignore' });
    times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times['node -e 0']);
for (const [name, xs] of Object.entries(times))
  console.log(`${name.padEnd(30)} ${median(xs).toFixed(1).padStart(7)} ms  ${(median(xs) / base).toFixed(2)}x`);
