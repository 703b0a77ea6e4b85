// esbuild plugin: jq-wasm 1.1.0-jq-1.7.1 feeds jq its input one byte at a time with
// `stdinBuffer = stdinBuffer.slice(1)`, which copies the rest of the input for every byte: a
// 40 MB document would take hours. `subarray(1)` is the same bytes without the copy (measured:
// the 55,000-message conversation's `.messages | length` in about a second). The package is
// pinned to that exact version, and the build fails here if the line is not found.
// The module also reads __dirname, which an ES module chunk does not have; its wasm is inlined,
// so the folder is never used.
const { readFileSync } = require('node:fs');

const SLOW = 'stdinBuffer = stdinBuffer.slice(1);';
const FAST = 'stdinBuffer = stdinBuffer.subarray(1);';

module.exports = {
  name: 'jq-wasm-stdin',
  setup(build) {
    build.onLoad({ filter: /jq-wasm[\\/]dist[\\/]build[\\/]jq\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (source.split(SLOW).length !== 2) {
        throw new Error(`jq-wasm changed: expected one '${SLOW}' in ${args.path}; re-check scripts/jq-wasm-stdin.cjs`);
      }
      return { contents: `var __dirname = '';\n${source.replace(SLOW, FAST)}`, loader: 'js' };
    });
  },
};
