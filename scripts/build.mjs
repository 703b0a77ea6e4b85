// Builds dist/ with esbuild in two parts, so that start-up stays small:
//   dist/wsctl.cjs   the entry (main.ts, the command tree and commander), CommonJS, which Node
//                    loads faster than an ES module;
//   dist/lazy/       app.js (every command, the HTTP client, zod/mini, the sandbox) loaded once a
//                    command runs, and chunks of the heavy libraries each loaded where used.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const jqWasmStdin = createRequire(import.meta.url)('./jq-wasm-stdin.cjs');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
rmSync(join(root, 'dist'), { recursive: true, force: true });

// What main.ts and program.ts load with import(): every command and what they share (app.ts).
const lazyEntries = [join(root, 'src/app.ts')];

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
};

await build({
  ...common,
  entryPoints: lazyEntries,
  outbase: 'src',
  outdir: 'dist/lazy',
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // A speed trick (src/tricks.ts lists them all), with its own off path at run time.
  alias: { 'node:http2': './scripts/no-http2.cjs' },
  // A native module: loaded from node_modules at run time, and only when a stored key is needed.
  external: ['@napi-rs/keyring'],
  plugins: [jqWasmStdin(join(root, 'dist/lazy'))],
  // CommonJS dependencies (undici, cli-table3, form-data) call require(); give ESM chunks one.
  banner: { js: "import { createRequire as __wsctlRequire } from 'node:module'; const require = __wsctlRequire(import.meta.url);" },
});

const lazyImports = {
  name: 'lazy-imports',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\//, namespace: 'file' }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const target = relative(join(root, 'src'), join(args.resolveDir, args.path));
      return { path: `./lazy/${target}`, external: true };
    });
  },
};

const entry = await build({
  ...common,
  metafile: true,
  entryPoints: { wsctl: 'src/main.ts' },
  // A speed trick (src/tricks.ts lists them all), with its own off path at run time.
  alias: { 'node:child_process': './scripts/lazy-child-process.cjs' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  define: { __WSCTL_VERSION__: JSON.stringify(version) },
  plugins: [lazyImports],
});
// What start-up loads, for the test that keeps heavy imports out of it.
writeFileSync(join(root, 'dist/entry-inputs.json'), JSON.stringify(Object.keys(entry.metafile.inputs), null, 2));
