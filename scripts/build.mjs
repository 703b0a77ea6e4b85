// Builds dist/ with esbuild: one program, and beside it the few files that are not the program.
//   dist/wsctl.cjs      the program (src/main.ts), one CommonJS file: esbuild makes each import()
//                       of ours a part of the file that runs when first asked for, so the MCP SDK,
//                       the proxy's undici, uploads, the spinner and the jq engine's host cost a
//                       command that does not use them only their share of reading the file.
//   dist/boot.cjs       what bin/wsctl requires (src/boot/): the answers given without the program
//                       (--version, the root help, MCP's initialize), then the program.
//   dist/complete.cjs   a TAB (`wsctl __complete`, cli.md §10): the config and the remembered ids.
//   dist/jq-worker.cjs  the jq engine's thread, with jq-wasm's glue; dist/jq.wasm, its WebAssembly.
//   dist/keyring-child.cjs  the credential store's child process, which loads the native module.
// No module is in two files: the program takes a module that one of the others holds from that
// file (sharedModules below).
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { bundledPackages, thirdPartyNotices } from './notices.mjs';

const root = new URL('..', import.meta.url).pathname;
const jqWasm = createRequire(import.meta.url)('./jq-wasm.cjs');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
rmSync(join(root, 'dist'), { recursive: true, force: true });

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

// A speed trick (src/tricks/registry.ts): Node's modules that undici and commander require as they
// load, for what a command does not do, given to them alone. undici gets a stand-in for node:http2
// (and tls with it), for the HTTP/2 connections wsctl never makes; node:http and node:assert
// (undici) and node:child_process (commander) load when first used (src/tricks/lazy-builtins.ts).
const STAND_INS = [
  { module: 'http2', dependency: 'undici', path: join(root, 'src/tricks/no-http2.ts') },
  { module: 'http', dependency: 'undici', lazy: 'lazyHttp' },
  { module: 'assert', dependency: 'undici', lazy: 'lazyAssert' },
  { module: 'child_process', dependency: 'commander', lazy: 'lazyChildProcess' },
];
const dependencyStandIns = {
  name: 'dependency-stand-ins',
  setup(b) {
    for (const standIn of STAND_INS) {
      const importer = new RegExp(`[\\\\/]node_modules[\\\\/]${standIn.dependency}[\\\\/]`);
      b.onResolve({ filter: new RegExp(`^(node:)?${standIn.module}$`) }, (args) => {
        if (!importer.test(args.importer)) return undefined;
        return standIn.path ? { path: standIn.path } : { path: standIn.module, namespace: 'lazy-builtin', pluginData: standIn.lazy };
      });
    }
    // CommonJS, so that require() gives the stand-in itself.
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(join(root, 'src/tricks/lazy-builtins.ts'))}).${args.pluginData};`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  minifySyntax: true,
  minifyWhitespace: true,
  // The program is read whole by every command, and V8 keeps its text beside its code. Errors name
  // themselves (src/errors.ts).
  minifyIdentifiers: true,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
  // No import() left in a file: each becomes a require() (of a part of the file, or of Node's
  // modules and the keyring), which the code cache's vm.Script runs without a loader of its own.
  supported: { 'dynamic-import': false },
  // jsonc-parser's main file is UMD, whose require() calls esbuild cannot follow: its ES module build.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  // A native module: loaded from node_modules at run time, and only when a stored key is needed.
  external: ['@napi-rs/keyring'],
};

// The lists the parts that run before the program loads read (src/common/declared.ts), from the
// declarations: the program is bundled once to read them, and the module written before the
// bundles below take it in. Written only when it changes, as a test compares it.
await build({
  ...common,
  entryPoints: { 'declared-data': 'src/cli/declared-data.ts' },
  outdir: 'build',
  plugins: [noHttpServers, dependencyStandIns],
  define: { 'import.meta.url': '__wsctlUrl' },
  banner: { js: "const __wsctlUrl = require('node:url').pathToFileURL(__filename).href;" },
});
{
  const { declaredData, declaredModule } = createRequire(import.meta.url)(join(root, 'build/declared-data.cjs'));
  const text = declaredModule(await declaredData());
  const file = join(root, 'src/common/declared.ts');
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}

/** Our modules (src/, bin/) among esbuild's inputs: the ones a file beside the program may share with it. */
const ours = (metafile) => Object.keys(metafile.inputs).filter((input) => /^(src|bin)\//.test(input));

/**
 * Builds a file beside the program from `entry`. Besides the entry's exports it exports each of
 * our modules it holds as a namespace (`__wsctl_0` …), which the program takes instead of holding
 * a second copy. Returns the metafile and the map of those modules to where the program finds them.
 */
async function beside(name, entry, options = {}) {
  const probe = await build({ ...common, ...options, entryPoints: [entry], write: false, metafile: true, outdir: 'dist' });
  const shared = ours(probe.metafile);
  const contents = [
    `export * from ${JSON.stringify(join(root, entry))};`,
    ...shared.map((input, i) => `export * as __wsctl_${i} from ${JSON.stringify(join(root, input))};`),
  ].join('\n');
  const result = await build({
    ...common,
    ...options,
    metafile: true,
    stdin: { contents, resolveDir: root, sourcefile: `${name}-entry.js`, loader: 'js' },
    outfile: `dist/${name}.cjs`,
  });
  return {
    metafile: result.metafile,
    modules: new Map(shared.map((input, i) => [input, { file: `./${name}.cjs`, name: `__wsctl_${i}` }])),
  };
}

/** The program's imports of a module a file beside it holds: a require() of that file. */
const sharedModules = (modules) => ({
  name: 'shared-modules',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      const at = resolved.errors.length === 0 ? modules.get(relative(root, resolved.path)) : undefined;
      return at ? { path: relative(root, resolved.path), namespace: 'shared', pluginData: at } : undefined;
    });
    b.onResolve({ filter: /.*/, namespace: 'shared' }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'shared' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.pluginData.file)}).${args.pluginData.name};`,
      loader: 'js',
    }));
  },
});

// The jq engine's thread: jq-wasm's glue, which scripts/jq-wasm.cjs patches (it writes dist/jq.wasm).
const worker = await beside('jq-worker', 'src/terminal/jq-worker.ts', {
  // The package's CommonJS build, the one the plugin knows (an import would pick its ES module).
  alias: { ...common.alias, 'jq-wasm': './node_modules/jq-wasm/dist/index.cjs' },
  plugins: [jqWasm(join(root, 'dist'))],
});
// The boot file is built last (it names the program's build), but what it holds is known now.
const bootProbe = await build({ ...common, entryPoints: ['src/boot/index.ts'], write: false, metafile: true, outdir: 'dist' });
const bootShared = ours(bootProbe.metafile).filter((input) => input !== 'src/boot/index.ts');
const bootModules = new Map(bootShared.map((input, i) => [input, { file: './boot.cjs', name: `__wsctl_${i}` }]));
// A TAB loads neither commander nor anything of a command (cli.md §10). The boot file, which
// requires it, has loaded the modules both hold (the argv reader's declarations): it takes them from there.
const complete = await beside('complete', 'src/completion/answer.ts', { plugins: [sharedModules(bootModules)] });
// The credential store's own process (src/config/keyring-child.ts, started by src/config/keyring.ts):
// it loads the native module from node_modules.
const keyringChild = await beside('keyring-child', 'src/config/keyring-child.ts');

const modules = new Map([...worker.modules, ...complete.modules, ...keyringChild.modules, ...bootModules]);
for (const [input, at] of modules)
  for (const other of [worker.modules, complete.modules, keyringChild.modules, bootModules])
    if (other.has(input) && other.get(input) !== at) throw new Error(`${input} is in two files beside the program`);

const program = await build({
  ...common,
  metafile: true,
  entryPoints: { wsctl: 'src/main.ts' },
  outdir: 'dist',
  plugins: [sharedModules(modules), noHttpServers, dependencyStandIns],
  define: { __WSCTL_VERSION__: JSON.stringify(version), 'import.meta.url': '__wsctlUrl' },
  banner: { js: "const __wsctlUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// The boot file reads the files it runs as Latin-1, which is quicker than UTF-8 and the same text
// while a file is ASCII, as esbuild writes it (non-ASCII characters escaped).
const buildHash = createHash('sha256');
for (const file of ['dist/wsctl.cjs', 'dist/complete.cjs', 'dist/jq-worker.cjs']) {
  const text = readFileSync(join(root, file));
  if (!isAscii(text)) throw new Error(`${file} is not ASCII: src/boot/code-cache.ts reads it as Latin-1`);
  buildHash.update(text);
}
// Names the code caches: V8 itself takes a cache made for another text of the same length.
const buildId = buildHash.digest('hex').slice(0, 16);

const bootContents = [
  `export * from ${JSON.stringify(join(root, 'src/boot/index.ts'))};`,
  ...bootShared.map((input, i) => `export * as __wsctl_${i} from ${JSON.stringify(join(root, input))};`),
].join('\n');
const boot = await build({
  ...common,
  metafile: true,
  stdin: { contents: bootContents, resolveDir: root, sourcefile: 'boot-entry.js', loader: 'js' },
  outfile: 'dist/boot.cjs',
  define: { __WSCTL_VERSION__: JSON.stringify(version), __WSCTL_BUILD_ID__: JSON.stringify(buildId) },
});

// The root help at 80 columns, rendered by commander, for the boot file to answer `wsctl --help`
// with when piped.
const { main } = createRequire(import.meta.url)(join(root, 'dist/wsctl.cjs'));
let rootHelp = '';
const io = { writeHelp: (text) => (rootHelp += text) };
const helpCode = await main(['--help'], { io, env: {}, signal: new AbortController().signal, version, prompt: {}, helpWidth: () => 80 });
if (helpCode !== 0 || !rootHelp.startsWith('Usage: wsctl')) throw new Error(`wsctl --help failed in the build (exit ${helpCode}).`);
writeFileSync(join(root, 'dist/help-80.txt'), rootHelp);

// The build's records, for the tests: beside dist/, not in it, so the package does not ship them.
// What each file holds: a module in two of them is a test failure.
const files = {
  'wsctl.cjs': program,
  'boot.cjs': boot,
  'complete.cjs': complete,
  'jq-worker.cjs': worker,
  'keyring-child.cjs': keyringChild,
};
const held = Object.fromEntries(
  Object.entries(files).map(([file, { metafile }]) => [
    file,
    Object.keys(metafile.inputs)
      .filter((input) => !input.startsWith('shared:') && !input.startsWith('<stdin>') && !input.endsWith('-entry.js'))
      .sort(),
  ]),
);
mkdirSync(join(root, 'build'), { recursive: true });
writeFileSync(join(root, 'build/inputs.json'), JSON.stringify(held, null, 2));
const inputs = Object.values(held).flat();
const missing = [];
writeFileSync(join(root, 'THIRD-PARTY-NOTICES.txt'), thirdPartyNotices(root, bundledPackages(inputs), missing));
if (missing.length > 0)
  console.warn(`warning: no licence text for bundled ${missing.join(', ')}: add it to SUPPLIED in scripts/notices.mjs.`);
