// Builds dist/ with esbuild in two parts, so that start-up stays small:
//   dist/wsctl.cjs   the entry (main.ts and its parts, the command tree and commander), CommonJS, which Node
//                    loads faster than an ES module;
//   dist/lazy/       cli/loaded.js (every command, the HTTP client, zod/mini, the sandbox) loaded once a
//                    command runs, and chunks of the heavy libraries each loaded where used;
//   dist/lazy/all.cjs  the whole program in one CommonJS file, for Node 20 (no compile cache for
//                    ES modules there): the launcher loads it with a V8 code cache (a speed trick,
//                    src/tricks/registry.ts), and dist/lazy/flags.cjs sets the run-time V8 flags before that;
//   dist/lazy/side/  the libraries few commands run, which all.cjs loads from there when first used.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { bundledPackages, thirdPartyNotices } from './notices.mjs';

/** The first line of a file the launcher caches V8's code of (bin/wsctl reads it). */
const BUILD_ID_PREFIX = '// wsctl build ';

const root = new URL('..', import.meta.url).pathname;
const jqWasm = createRequire(import.meta.url)('./jq-wasm.cjs');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
rmSync(join(root, 'dist'), { recursive: true, force: true });

// What the runner and program.ts load with import(): every command and what they share (app.ts).
// The jq engine's host too: the runner starts its worker thread while app.js loads.
const lazyEntries = [join(root, 'src/cli/loaded.ts'), join(root, 'src/terminal/jq.ts'), join(root, 'src/completion/answer.ts')];

// wsctl mcp bundles the MCP SDK's stdio server parts only: its HTTP transports would bring
// express and hono, which wsctl must neither ship nor load.
const noHttpServers = {
  name: 'no-http-servers',
  setup(b) {
    b.onResolve({ filter: /^(express|hono|@hono\/.*|cors|express-rate-limit|raw-body|eventsource)(\/.*)?$/ }, (args) => ({
      errors: [
        { text: `${args.path} must not be bundled (imported by ${relative(root, args.importer)}): import the SDK's stdio parts only.` },
      ],
    }));
  },
};

// undici's node:assert and node:http: stand-ins (scripts/undici-assert.cjs, scripts/undici-http.cjs),
// which hold only what undici uses of them. Every require of either module in an undici file must
// be one of these lines: an undici that uses more fails the build here rather than at run time.
const KNOWN_REQUIRES = {
  assert: [`const assert = require('node:assert')`],
  http: [
    `const { IncomingMessage } = require('node:http')`,
    `const { STATUS_CODES } = require('node:http')`,
    `const http = require('node:http')`,
  ],
};
const undiciBuiltins = {
  name: 'undici-builtins',
  setup(b) {
    b.onResolve({ filter: /^(node:)?(assert|http)$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]undici[\\/]/.test(args.importer)) return undefined;
      const name = args.path.replace('node:', '');
      const source = readFileSync(args.importer, 'utf8');
      const fail = (text) => ({
        errors: [{ text: `${relative(root, args.importer)} ${text}: scripts/undici-${name}.cjs does not stand in for that` }],
      });
      const lines = source.split('\n').filter((line) => new RegExp(`require\\('(node:)?${name}'\\)`).test(line));
      const unknown = lines.find((line) => !KNOWN_REQUIRES[name].includes(line.trim()));
      if (unknown !== undefined) return fail(`has \`${unknown.trim()}\``);
      // assert is only called; of a whole node:http, only maxHeaderSize is read.
      const member = name === 'assert' ? source.match(/\bassert\.\w+/)?.[0] : source.match(/\bhttp\.(?!maxHeaderSize\b)\w+/)?.[0];
      if (member) return fail(`uses ${member}`);
      return { path: join(root, `scripts/undici-${name}.cjs`) };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  // Every command reads all.cjs whole, and V8 keeps its text beside its code: names minified,
  // 1.94 -> 1.43 MB. Errors name themselves (src/errors.ts).
  minifyIdentifiers: true,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
};

// undici's node:http2 stands in (a speed trick, with its own off path at run time); jsonc-parser's main
// file is UMD, whose require() calls esbuild cannot follow: its ES module build instead.
const PACKAGE_ALIASES = { 'node:http2': './scripts/no-http2.cjs', 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' };

// The lists the parts that run before the program loads read (src/common/declared.ts), from the
// declarations: the program is bundled once to read them, and the module written before the
// bundles below take it in. Written only when it changes, as a test compares it.
await build({
  ...common,
  entryPoints: { 'declared-data': 'src/cli/declared-data.ts' },
  outdir: 'build',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  alias: PACKAGE_ALIASES,
  external: ['@napi-rs/keyring'],
  plugins: [noHttpServers, undiciBuiltins],
  define: { 'import.meta.url': '__wsctlUrl' },
  banner: { js: "const __wsctlUrl = require('node:url').pathToFileURL(__filename).href;" },
});
{
  const { declaredData, declaredModule } = createRequire(import.meta.url)(join(root, 'build/declared-data.cjs'));
  const text = declaredModule(await declaredData());
  const file = join(root, 'src/common/declared.ts');
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}

const lazy = await build({
  ...common,
  metafile: true,
  entryPoints: lazyEntries,
  outbase: 'src',
  outdir: 'dist/lazy',
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  alias: PACKAGE_ALIASES,
  // A native module: loaded from node_modules at run time, and only when a stored key is needed.
  external: ['@napi-rs/keyring'],
  plugins: [noHttpServers, undiciBuiltins],
  // CommonJS dependencies (undici, form-data) call require(); give ESM chunks one.
  banner: { js: "import { createRequire as __wsctlRequire } from 'node:module'; const require = __wsctlRequire(import.meta.url);" },
});

// The jq engine's worker thread (src/terminal/jq-worker.ts): one CommonJS file with jq-wasm's glue,
// which scripts/jq-wasm.cjs patches, and the engine's WebAssembly beside it (dist/lazy/jq.wasm).
const worker = await build({
  ...common,
  metafile: true,
  entryPoints: { 'jq-worker': 'src/terminal/jq-worker.ts' },
  outdir: 'dist/lazy',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // The package's CommonJS build, the one the plugin knows (an import would pick its ES module).
  alias: { 'jq-wasm': './node_modules/jq-wasm/dist/index.cjs' },
  plugins: [jqWasm(join(root, 'dist/lazy'))],
});

// The credential store's own process (src/config/keyring-child.ts, started by src/config/keyring.ts):
// a small CommonJS file that loads the native module from node_modules.
await build({
  ...common,
  entryPoints: { 'keyring-child': 'src/config/keyring-child.ts' },
  outdir: 'dist/lazy',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  external: ['@napi-rs/keyring'],
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
  // A speed trick (src/tricks/registry.ts lists them all), with its own off path at run time.
  alias: { 'node:child_process': './scripts/lazy-child-process.cjs' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  define: { __WSCTL_VERSION__: JSON.stringify(version) },
  plugins: [lazyImports],
});
// What a TAB runs (`wsctl __complete`): its own small CommonJS file, which bin/wsctl loads instead of the
// bundle, so that completion loads neither commander nor anything of a command (cli.md §10).
const complete = await build({
  ...common,
  metafile: true,
  entryPoints: { complete: 'src/completion/answer.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
});
// wsctl mcp's answer to `initialize` before the program loads (a speed trick: src/tricks/registry.ts lists
// them all): a small CommonJS file of its own, which bin/wsctl runs first for `wsctl mcp`.
const early = await build({
  ...common,
  metafile: true,
  entryPoints: { 'mcp-early': 'src/mcp/early.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
});
// Node 20's code cache (a speed trick: src/tricks/registry.ts lists them all): everything in one CommonJS
// file, which vm.Script can keep V8's code of (Node 20 has no cache for ES modules). Dynamic
// imports of our own modules become lazily run parts of the file; import.meta.url is this file's
// URL, which sits in dist/lazy/ as the chunks do. commander alone gets the node:child_process
// stand-in: other importers name the module's exports, which the stand-in does not list.
const commanderChildProcess = {
  name: 'commander-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: join(root, 'scripts/lazy-child-process.cjs') } : undefined,
    );
  },
};
// A dynamic import() left in all.cjs would need vm's dynamic import callback, which Node 20 marks
// experimental with a warning on stderr: imports of what is not bundled (Node's modules, the
// keyring) become require() calls here, as esbuild makes them for the bundled ones.
const requireNotImport = {
  name: 'require-not-import',
  setup(b) {
    b.onResolve({ filter: /^(node:[\w/]+|@napi-rs\/keyring)$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, namespace: 'require-not-import' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'require-not-import' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};
// Libraries that few commands run, each in a CommonJS file of its own beside all.cjs
// (dist/lazy/side/), which all.cjs loads when it is first used: every command reads all.cjs whole
// and V8 deserialises the code of every module it holds, run or not (`keys list --json` 0.93-0.99x
// of its time with them out). A side holds packages only, which keep no state the program shares:
// the proxy's whole undici, uploads' form-data (and its MIME table), the spinner, the MCP SDK's
// server parts and its client's, and jsonc-parser and toml-eslint-parser for client configs.
// Modules both use are in both (undici's core, zod for the SDK).
const SIDE_PACKAGES = {
  undici: ['undici'],
  'form-data': ['form-data'],
  ora: ['ora'],
  'jsonc-parser': ['jsonc-parser'],
  'toml-eslint-parser': ['toml-eslint-parser'],
  'mcp-sdk': ['@modelcontextprotocol/sdk/server/index.js', '@modelcontextprotocol/sdk/types.js'],
  'mcp-client': ['@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/client/stdio.js'],
};
// What each package is, read from the package: a CommonJS one is its side's module.exports, as it
// was the bundle's; an ES module's side is its named exports, and its default export if it has one.
const sidePackages = Object.values(SIDE_PACKAGES).flat();
const shapes = await build({
  ...common,
  metafile: true,
  write: false,
  entryPoints: sidePackages.map((specifier, i) => ({ in: specifier, out: `p${i}` })),
  outdir: 'side-shapes',
  format: 'esm',
  alias: PACKAGE_ALIASES,
  plugins: [noHttpServers, undiciBuiltins],
});
const shapeOf = (specifier) => {
  const output = shapes.metafile.outputs[`side-shapes/p${sidePackages.indexOf(specifier)}.js`];
  const format = output?.entryPoint && shapes.metafile.inputs[output.entryPoint]?.format;
  if (format !== 'cjs' && format !== 'esm') throw new Error(`side package ${specifier}: esbuild told no module format`);
  return { commonJs: format === 'cjs', exports: output.exports };
};
const SIDES = Object.fromEntries(
  Object.entries(SIDE_PACKAGES).map(([side, specifiers]) => {
    const commonJs = specifiers.some((specifier) => shapeOf(specifier).commonJs);
    if (commonJs && specifiers.length > 1) throw new Error(`side ${side}: a CommonJS package must be a side of its own`);
    const defaults = specifiers.filter((specifier) => shapeOf(specifier).exports.includes('default'));
    if (!commonJs && defaults.length > 0 && defaults[0] !== specifiers[0])
      throw new Error(`side ${side}: only its first package may have a default export (${defaults[0]})`);
    const hasDefault = !commonJs && defaults.length > 0;
    return [side, { specifiers, commonJs, hasDefault }];
  }),
);
const sideBuild = await build({
  ...common,
  metafile: true,
  entryPoints: Object.keys(SIDES).map((side) => ({ in: `side:${side}`, out: side })),
  outdir: 'dist/lazy/side',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  alias: PACKAGE_ALIASES,
  plugins: [
    noHttpServers,
    undiciBuiltins,
    {
      name: 'side-entries',
      setup(b) {
        b.onResolve({ filter: /^side:/ }, (args) => ({ path: args.path.slice(5), namespace: 'side-entry' }));
        b.onLoad({ filter: /.*/, namespace: 'side-entry' }, (args) => {
          const { specifiers, commonJs, hasDefault } = SIDES[args.path];
          const reexports = specifiers.map((s) => `export * from ${JSON.stringify(s)};`);
          // export * leaves the default export out.
          if (hasDefault) reexports.push(`export { default } from ${JSON.stringify(specifiers[0])};`);
          return {
            contents: commonJs ? `module.exports = require(${JSON.stringify(specifiers[0])});` : reexports.join('\n'),
            resolveDir: root,
            loader: 'js',
          };
        });
      },
    },
  ],
});
const sideFile = (side) => `dist/lazy/side/${side}.cjs`;
const sideFiles = Object.keys(SIDES).map(sideFile);
const sideOf = new Map(Object.entries(SIDES).flatMap(([side, { specifiers }]) => specifiers.map((s) => [s, side])));
const sides = {
  name: 'sides',
  setup(b) {
    b.onResolve({ filter: /^[@\w]/ }, (args) => (sideOf.has(args.path) ? { path: sideOf.get(args.path), namespace: 'side' } : undefined));
    // With the launcher, the side comes from V8's code of it, as all.cjs does (bin/wsctl).
    b.onLoad({ filter: /.*/, namespace: 'side' }, (args) => {
      const load = `const file = require('node:path').join(__dirname, 'side', ${JSON.stringify(`${args.path}.cjs`)});
const side = globalThis[Symbol.for('wsctl.runCached')]?.(file) ?? require(file);`;
      if (SIDES[args.path].commonJs) return { contents: `${load}\nmodule.exports = side;`, loader: 'js' };
      // esbuild lists no exports of a CommonJS output: the built side says what it exports.
      const names = Object.keys(createRequire(import.meta.url)(join(root, sideFile(args.path))));
      const named = names.filter((n) => n !== 'default' && n !== '__esModule');
      return {
        contents: `${load}\nexport const { ${named.join(', ')} } = side;${names.includes('default') ? '\nexport default side.default;' : ''}`,
        loader: 'js',
      };
    });
  },
};

const all = await build({
  ...common,
  metafile: true,
  entryPoints: { all: 'src/main.ts' },
  outdir: 'dist/lazy',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  alias: { 'node:http2': './scripts/no-http2.cjs' },
  external: ['@napi-rs/keyring'],
  plugins: [sides, noHttpServers, undiciBuiltins, commanderChildProcess, requireNotImport],
  define: { __WSCTL_VERSION__: JSON.stringify(version), 'import.meta.url': '__wsctlUrl' },
  banner: { js: "const __wsctlUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// The launcher reads all.cjs and the sides as Latin-1, which is quicker than UTF-8 and the same text
// while a file is ASCII, as esbuild writes it (non-ASCII characters escaped).
for (const file of ['dist/lazy/all.cjs', ...sideFiles])
  if (!isAscii(readFileSync(join(root, file)))) throw new Error(`${file} is not ASCII: bin/wsctl reads it as Latin-1`);
// The files the launcher runs from V8's code of them start with a hash of their text, which names
// their code caches: V8 itself takes a cache made for another text of the same length, and a copy
// that keeps files' times (or an install that sets them all alike) would leave size and mtime equal.
for (const file of ['dist/lazy/all.cjs', 'dist/lazy/jq-worker.cjs', ...sideFiles]) {
  const text = readFileSync(join(root, file));
  writeFileSync(
    join(root, file),
    Buffer.concat([Buffer.from(`${BUILD_ID_PREFIX}${createHash('sha256').update(text).digest('hex').slice(0, 32)}\n`), text]),
  );
}
// The run-time V8 flags, for the launcher to set before it compiles all.cjs: V8 accepts a code
// cache only under the flags it was made with, and the program sets them as a command runs.
await build({
  ...common,
  entryPoints: { flags: 'src/tricks/switch.ts' },
  outdir: 'dist/lazy',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
});

// The root help at 80 columns, rendered by commander, for the launcher to answer `wsctl --help`
// with when piped (a speed trick: src/tricks/registry.ts lists them all).
const { main } = createRequire(import.meta.url)(join(root, 'dist/wsctl.cjs'));
let rootHelp = '';
const io = { writeHelp: (text) => (rootHelp += text) };
const helpCode = await main(['--help'], { io, env: {}, signal: new AbortController().signal, version, prompt: {}, helpWidth: () => 80 });
if (helpCode !== 0 || !rootHelp.startsWith('Usage: wsctl')) throw new Error(`wsctl --help failed in the build (exit ${helpCode}).`);
writeFileSync(join(root, 'dist/help-80.txt'), rootHelp);
// The build's records, for the tests: beside dist/, not in it, so the package does not ship them.
mkdirSync(join(root, 'build'), { recursive: true });
// What start-up loads, for the test that keeps heavy imports out of it.
// What a TAB loads, for the test that keeps it light.
writeFileSync(join(root, 'build/complete-inputs.json'), JSON.stringify(Object.keys(complete.metafile.inputs), null, 2));
writeFileSync(join(root, 'build/entry-inputs.json'), JSON.stringify(Object.keys(entry.metafile.inputs), null, 2));
// What every command reads (all.cjs) and what its side files hold, for the test that keeps them apart.
writeFileSync(join(root, 'build/all-inputs.json'), JSON.stringify(Object.keys(all.metafile.inputs), null, 2));
writeFileSync(
  join(root, 'build/side-inputs.json'),
  JSON.stringify(
    Object.keys(sideBuild.metafile.inputs).filter((input) => !input.startsWith('side')),
    null,
    2,
  ),
);
// What the launcher loads before `wsctl mcp`'s program, for the test that keeps it to node:fs.
writeFileSync(join(root, 'build/mcp-early-inputs.json'), JSON.stringify(Object.keys(early.metafile.inputs), null, 2));
// What the parts bundle, for the test that every bundled package has its licence in the notices.
const inputs = [
  ...Object.keys(entry.metafile.inputs),
  ...Object.keys(lazy.metafile.inputs),
  ...Object.keys(worker.metafile.inputs),
  ...Object.keys(complete.metafile.inputs),
  ...Object.keys(early.metafile.inputs),
  ...Object.keys(all.metafile.inputs),
  ...Object.keys(sideBuild.metafile.inputs).filter((input) => !input.startsWith('side')),
];
writeFileSync(join(root, 'build/bundle-inputs.json'), JSON.stringify([...new Set(inputs)].sort(), null, 2));
const missing = [];
writeFileSync(join(root, 'THIRD-PARTY-NOTICES.txt'), thirdPartyNotices(root, bundledPackages(inputs), missing));
if (missing.length > 0)
  console.warn(`warning: no licence text for bundled ${missing.join(', ')}: add it to SUPPLIED in scripts/notices.mjs.`);
