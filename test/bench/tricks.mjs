// npm run bench:tricks: what each speed trick of src/tricks/registry.ts (and wsctl's own code cache)
// buys, side by side: this checkout against a copy built with that trick alone taken out (one
// line changed), the rows it is for measured by test/bench/side.mjs (alternating runs, medians).
// Usage: node test/bench/tricks.mjs (NODE: the Node binary, default this one; RUNS: pairs per row,
// default 21; TRICKS_ONLY: a regular expression of the tricks to measure). Prints tables; writes
// nothing but a temporary folder.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(os.tmpdir(), 'wsctl-tricks-'));
const only = process.env.TRICKS_ONLY ? new RegExp(process.env.TRICKS_ONLY) : undefined;

/** [trick, file, the text, what it becomes without the trick, the rows of side.mjs it is for]. */
const WITHOUT = [
  [
    'code cache',
    'src/boot/code-cache.ts',
    "  const source = readFileSync(file, 'latin1');",
    "  if (true as boolean) return require(file);\n  const source = readFileSync(file, 'latin1');",
    ['keys', 'mcplist'],
  ],
  [
    'answers in the boot file',
    'src/boot/index.ts',
    "  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V'))",
    '  if ((false as boolean))',
    ['version'],
  ],
  [
    'answers in the boot file',
    'src/boot/index.ts',
    "  if ((argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h'))) && helpAt80(env)) {",
    '  if (false as boolean) {',
    ['help'],
  ],
  ['answers in the boot file', 'src/boot/index.ts', "const early = argv[0] === 'mcp' ?", 'const early = (false as boolean) ?', ['mcpinit']],
  [
    "stand-ins for dependencies' Node modules",
    'scripts/build.mjs',
    'sharedModules(modules), noHttpServers, dependencyStandIns]',
    'sharedModules(modules), noHttpServers]',
    ['keys'],
  ],
  [
    "stand-ins for dependencies' Node modules",
    'scripts/build.mjs',
    "  { module: 'http', dependency: 'undici', lazy: 'lazyHttp' },\n  { module: 'assert', dependency: 'undici', lazy: 'lazyAssert' },\n  { module: 'child_process', dependency: 'commander', lazy: 'lazyChildProcess' },\n",
    '',
    ['keys'],
  ],
  [
    "stand-ins for dependencies' Node modules",
    'scripts/build.mjs',
    "  { module: 'http2', dependency: 'undici', path: join(root, 'src/tricks/no-http2.ts') },\n",
    '',
    ['keys'],
  ],
  [
    'undici deep imports',
    'src/tricks/registry.ts',
    'export async function undiciParts(): Promise<UndiciParts> {',
    "export async function undiciParts(): Promise<UndiciParts> {\n  if (true as boolean) {\n    const loaded = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };\n    const undici = loaded.default ?? loaded;\n    return { Agent: undici.Agent, request(options) { return this.request(options); } };\n  }",
    ['keys'],
  ],
  [
    'Liftoff only',
    'src/boot/flags.ts',
    "export const LIFTOFF_ONLY: readonly string[] = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];",
    'export const LIFTOFF_ONLY: readonly string[] = [];',
    ['jq', 'convo', 'follow'],
  ],
  [
    'steady young generation',
    'src/boot/flags.ts',
    "export const STEADY_YOUNG_GENERATION: readonly string[] = ['--semi-space-growth-factor=1'];",
    'export const STEADY_YOUNG_GENERATION: readonly string[] = [];',
    ['convo'],
  ],
  [
    'collections by what a transcript read',
    'src/tricks/registry.ts',
    '    if (collector === undefined) collector = takeCollector() ?? null;',
    '    collector = null;',
    ['follow'],
  ],
  ['jq paths without the engine', 'src/terminal/jq.ts', '  const steps = plainPath(expression);', '  const steps = undefined;', ['jqpath']],
  [
    'jq on the main thread',
    'src/terminal/jq.ts',
    "    const local = module\n      .then(async (compiled) => {\n        const glue = requireBuilt(fileURLToPath(file));\n        return (await import('./jq-local.js')).loadLocalEngine(glue, compiled, HOLD_BYTES);\n      })\n      .catch(() => undefined);\n    return { file, module, local };",
    '    return { file, module, thread: startThread(file, module) };',
    ['jq'],
  ],
  [
    'quickCheck',
    'src/tricks/registry.ts',
    '  let check = compiled.get(schema);',
    '  if (true as boolean) return undefined;\n  let check = compiled.get(schema);',
    ['convojson'],
  ],
];

/** A copy of this checkout with one change, built; returns its folder. */
function variant(name, file, from, to) {
  const dir = join(tmp, name);
  for (const part of ['src', 'scripts', 'bin', 'package.json', 'tsconfig.json'])
    cpSync(join(root, part), join(dir, part), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const source = readFileSync(join(dir, file), 'utf8');
  if (source.split(from).length !== 2) throw new Error(`${name}: '${from}' is not once in ${file}`);
  writeFileSync(join(dir, file), source.replace(from, to));
  execFileSync(process.execPath, [join(dir, 'scripts/build.mjs')], { stdio: 'inherit' });
  return dir;
}

try {
  for (const [i, [trick, file, from, to, rows]] of WITHOUT.entries()) {
    if (only && !only.test(trick)) continue;
    console.log(`\n${trick}: this build (A) against one without it (B)`);
    const without = variant(`without-${i}`, file, from, to);
    execFileSync(process.execPath, [join(root, 'test/bench/side.mjs'), root, without, ...rows], { stdio: 'inherit' });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
