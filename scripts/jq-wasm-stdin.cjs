// esbuild plugin for jq-wasm 1.1.0-jq-1.7.1 (pinned; the build fails here if a line is not found):
// - jq's input is fed one byte at a time with `stdinBuffer = stdinBuffer.slice(1)`, which copies
//   the rest of the input for every byte: a 40 MB document would take hours. `subarray(1)` is the
//   same bytes without the copy (the 55,000-message conversation's `.messages | length` in about
//   a second).
// - The WebAssembly binary is inlined as 1.3 MB of base64 that Node parses and decodes on every
//   --jq run (Node 20 keeps no compile cache). It is written to dist/lazy/jq.wasm instead and read
//   from there, next to the chunk that loads it.
// - The module reads __dirname, which an ES module chunk does not have; nothing uses its value.
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const SLOW = 'stdinBuffer = stdinBuffer.slice(1);';
const FAST = 'stdinBuffer = stdinBuffer.subarray(1);';
const INLINE = /var wasmBinaryFile = "data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)";/;
// Resolved by the chunk's own require (createRequire(import.meta.url), see the build's banner).
const FROM_FILE = 'var wasmBinaryFile = require.resolve("../jq.wasm");';

module.exports = (outdir) => ({
  name: 'jq-wasm-stdin',
  setup(build) {
    build.onLoad({ filter: /jq-wasm[\\/]dist[\\/]build[\\/]jq\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (source.split(SLOW).length !== 2) throw new Error(`jq-wasm changed: expected one '${SLOW}' in ${args.path}; re-check scripts/jq-wasm-stdin.cjs`);
      const inline = INLINE.exec(source);
      if (!inline) throw new Error(`jq-wasm changed: its inlined WebAssembly was not found in ${args.path}; re-check scripts/jq-wasm-stdin.cjs`);
      mkdirSync(outdir, { recursive: true });
      writeFileSync(join(outdir, 'jq.wasm'), Buffer.from(inline[1], 'base64'));
      return { contents: `var __dirname = '';\n${source.replace(SLOW, FAST).replace(inline[0], FROM_FILE)}`, loader: 'js' };
    });
  },
});
