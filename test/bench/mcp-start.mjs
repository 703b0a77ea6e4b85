// wsctl mcp's start-up: spawn to the first answer line of `initialize`, against `node -e 0` (spawn to
// exit), medians of alternating runs. Usage: node test/bench/mcp-start.mjs [runs] (after npm run build).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../../bin/wsctl', import.meta.url).pathname;
const runs = Number(process.argv[2] ?? 15);
const env = {
  PATH: process.env.PATH,
  HOME: tmpdir(),
  WSCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'wsctl-bench-')),
  WSCTL_BASE_URL: 'http://127.0.0.1:9',
  WSCTL_API_KEY: 'wsk_bench_key_0123456789',
};
const INIT = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;

function nodeZero() {
  const start = process.hrtime.bigint();
  return new Promise((resolve) =>
    spawn(process.execPath, ['-e', '0'], { env, stdio: 'ignore' }).on('exit', () => resolve(Number(process.hrtime.bigint() - start) / 1e6)),
  );
}

function initialize(_method = 'initialize') {
  const start = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'mcp'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.once('data', () => {
      resolve(Number(process.hrtime.bigint() - start) / 1e6);
      child.kill('SIGKILL');
    });
    child.stdin.write(INIT);
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const zero = [];
const init = [];
for (let i = 0; i < runs; i++) {
  zero.push(await nodeZero());
  init.push(await initialize());
}
console.log(
  `node -e 0: ${median(zero).toFixed(1)} ms; initialize answered: ${median(init).toFixed(1)} ms; ratio ${(median(init) / median(zero)).toFixed(2)}x (${runs} alternating runs, Node ${process.version})`,
);
