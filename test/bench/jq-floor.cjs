// The floor of the --jq goal: the least a fresh Node process does to answer
// `wsctl keys list --jq <filter>` piped: the GET of the P2 reference (node:http, CommonJS) while the
// engine wsctl uses (the built dist/jq-worker.cjs glue and dist/jq.wasm) is compiled
// and instantiated, then the filter once on the body, with jq's `-r -c` as wsctl gives it piped.
// The V8 flags wsctl sets too (Liftoff only: tier-up would hold the process at exit), so that the
// floor is the engine's, not V8's. Usage: node jq-floor.cjs '<filter>'.
const v8 = require('node:v8');
for (const flag of ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering']) v8.setFlagsFromString(flag);
const http = require('node:http');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const lazy = join(__dirname, '..', '..', 'dist');
const engine = Promise.resolve().then(() =>
  require(join(lazy, 'jq-worker.cjs')).loadJq({ wasmModule: new WebAssembly.Module(readFileSync(join(lazy, 'jq.wasm'))) }),
);
const url = new URL('/api-keys/', process.env.WSCTL_BASE_URL);
http.get(url, { headers: { authorization: `Bearer ${process.env.WSCTL_API_KEY}` } }, (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', async () => {
    const jq = await engine;
    const { stdout, stderr, exitCode } = jq.raw(Buffer.concat(chunks).toString(), process.argv[2], ['-r', '-c']);
    process.stdout.write(stdout === '' || stdout.endsWith('\n') ? stdout : `${stdout}\n`);
    process.stderr.write(stderr);
    process.exitCode = exitCode;
  });
});
