// The npm package: what `npm pack` puts in it, the dependencies it makes users install, the
// licences it carries, and the launcher's answer on a Node that is too old. The full install of
// the packed tarball (into a throwaway prefix, run from /) is done by .ci/run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('the package', () => {
  it('has no install script: nothing runs, and npm warns about nothing, when it is installed', () => {
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[script], script).toBeUndefined();
    expect(pkg.scripts.prepack).toBe('node scripts/build.mjs');
    expect(existsSync(join(ROOT, 'binding.gyp'))).toBe(false);
  });

  it('depends on exactly the packages dist/ loads at run time: everything else is bundled', () => {
    const builtins = new Set(builtinModules);
    const loaded = new Set<string>();
    for (const file of files(join(ROOT, 'dist')).filter((f) => /\.c?js$/.test(f))) {
      const code = readFileSync(file, 'utf8');
      // Not inside a string: ajv's code generator names its runtime modules in quoted code it never runs here.
      for (const m of code.matchAll(/(?<!['`])(?:\brequire\(|\bimport\(|\bfrom\s*)"(@?[a-z0-9][\w.-]*(?:\/[\w.-]+)*)"/g)) {
        const name = m[1] as string;
        if (name.startsWith('node:') || builtins.has(name)) continue;
        loaded.add(name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : (name.split('/')[0] as string));
      }
    }
    expect([...loaded].sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it('npm pack holds the launcher, the bundle, completions, man pages, LICENSE and the notices, and no sources', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const packed: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
    for (const file of [
      'LICENSE',
      'THIRD-PARTY-NOTICES.txt',
      'README.md',
      'package.json',
      'server.json',
      'bin/wsctl',
      'bin/package.json',
      'dist/wsctl.cjs',
      'dist/boot.cjs',
      'dist/complete.cjs',
      'dist/jq-worker.cjs',
      'dist/jq.wasm',
      'dist/help-80.txt',
      'completions/_wsctl',
      'man/wsctl.1',
      'man/wsctl-keys-create.1',
    ]) {
      expect(packed, file).toContain(file);
    }
    expect(packed.filter((f) => /^(src|test|scripts|node_modules)\//.test(f) || f.endsWith('.ts'))).toEqual([]);
    // One program: besides it, the boot file, the TAB answerer, the jq engine's thread and the credential store's child only.
    expect(packed.filter((f) => f.startsWith('dist/')).sort()).toEqual([
      'dist/boot.cjs',
      'dist/complete.cjs',
      'dist/help-80.txt',
      'dist/jq-worker.cjs',
      'dist/jq.wasm',
      'dist/keyring-child.cjs',
      'dist/wsctl.cjs',
    ]);
    // The build's records of what it bundled are for the tests: nothing in the package reads them.
    expect(packed.filter((f) => /inputs\.json$/.test(f) || f.startsWith('build/'))).toEqual([]);
    // Every man page listed in package.json is in the package (npm install -g links them).
    for (const page of pkg.man) expect(packed, page).toContain(page.replace(/^\.\//, ''));
  });

  it('dist/ holds the program and, beside it, only the boot file, the TAB answerer, the jq engine and the credential store’s child, each module in one of them', () => {
    const held = JSON.parse(readFileSync(join(ROOT, 'build', 'inputs.json'), 'utf8')) as Record<string, string[]>;
    expect(Object.keys(held).sort()).toEqual(['boot.cjs', 'complete.cjs', 'jq-worker.cjs', 'keyring-child.cjs', 'wsctl.cjs']);
    expect(readdirSync(join(ROOT, 'dist')).sort()).toEqual([...Object.keys(held), 'help-80.txt', 'jq.wasm'].sort());
    const where = new Map<string, string>();
    const twice: string[] = [];
    for (const [file, inputs] of Object.entries(held))
      for (const input of inputs) {
        const first = where.get(input);
        if (first !== undefined) twice.push(`${input}: ${first} and ${file}`);
        else where.set(input, file);
      }
    expect(twice).toEqual([]);
    // The record is of what esbuild bundled: the program's own modules and its heavy libraries.
    expect(where.get('src/main.ts')).toBe('wsctl.cjs');
    expect([...where.keys()].filter((input) => input.includes('node_modules/undici/')).length).toBeGreaterThan(20);
  });

  it('names its repository, home page and issue tracker', () => {
    expect(pkg.repository.url).toMatch(/^git\+https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) /);
  });
});

describe('third-party notices', () => {
  const notices = readFileSync(join(ROOT, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
  // Read from the build's own record of what it bundled, not from the generator's list.
  const inputs: string[] = Object.values(
    JSON.parse(readFileSync(join(ROOT, 'build', 'inputs.json'), 'utf8')) as Record<string, string[]>,
  ).flat();
  const bundled = new Map<string, string>();
  for (const input of inputs.filter((i) => i.includes('node_modules/'))) {
    const rest = input.slice(input.lastIndexOf('node_modules/') + 'node_modules/'.length).split('/');
    const name = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    const dir = `${input.slice(0, input.lastIndexOf('node_modules/'))}node_modules/${name}`;
    bundled.set(dir, JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')).version);
  }

  it('the build saw the heavy libraries it bundles (so the list below means something)', () => {
    const names = [...bundled.keys()].map((d) => d.split('node_modules/').at(-1));
    for (const name of ['commander', 'undici', 'zod', 'jq-wasm']) expect(names).toContain(name);
  });

  it('has an entry with a licence text for every bundled package', () => {
    for (const [dir, version] of bundled) {
      const name = dir.split('node_modules/').at(-1) as string;
      const at = notices.indexOf(`\n${name} ${version} (`);
      expect(at, `${name} ${version} has no entry in THIRD-PARTY-NOTICES.txt`).toBeGreaterThan(0);
      const body = notices.slice(at).split(/\n-{78}\n/)[1] ?? '';
      expect(body, `${name}'s entry has no licence text: add it to SUPPLIED in scripts/notices.mjs`).not.toContain(
        'No licence file ships in this package',
      );
      expect(body.trim().length, `${name}'s entry has no licence text`).toBeGreaterThan(100);
    }
  });

  it("carries jq's own licence, with decNumber's and Oniguruma's", () => {
    const jqVersion = /-jq-([\d.]+)$/.exec(bundled.get('node_modules/jq-wasm') ?? '')?.[1];
    expect(notices).toContain(`\njq ${jqVersion} (MIT`);
    expect(notices).toContain('jq is copyright (C) 2012 Stephen Dolan');
    expect(notices).toContain('"decNumber"');
    expect(notices).toContain('ICU License');
    expect(notices).toContain('Oniguruma LICENSE');
  });
});

describe('an older Node', () => {
  const needed = /var NEEDED = \[(\d+), (\d+), (\d+)\]/.exec(readFileSync(BIN, 'utf8'))?.slice(1).join('.');

  it('the launcher and `engines` ask for the same version, the one the contract names', () => {
    expect(needed).toBe('20.18.1');
    expect(pkg.engines.node).toBe(`>=${needed}`);
  });

  it('`engines` is honest: no bundled or installed package needs a newer Node, and undici needs exactly this one', () => {
    const inputs: string[] = Object.values(
      JSON.parse(readFileSync(join(ROOT, 'build', 'inputs.json'), 'utf8')) as Record<string, string[]>,
    ).flat();
    const dirs = new Set(Object.keys(pkg.dependencies).map((d) => `node_modules/${d}`));
    for (const input of inputs.filter((i) => i.includes('node_modules/'))) {
      const at = input.lastIndexOf('node_modules/');
      const rest = input.slice(at + 'node_modules/'.length).split('/');
      dirs.add(`${input.slice(0, at)}node_modules/${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`);
    }
    const version = (v: string) => v.split('.').map(Number).concat(0, 0).slice(0, 3);
    const newer = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
    const mins: Record<string, number[]> = {};
    for (const dir of dirs) {
      const dep = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));
      const min = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(dep.engines?.node ?? '')?.[1];
      if (min) mins[dep.name] = version(min);
    }
    for (const [name, min] of Object.entries(mins))
      expect(newer(version(needed!), min), `${name} needs Node ${min.join('.')}`).toBeGreaterThanOrEqual(0);
    expect(mins.undici).toEqual(version(needed!));
  });

  // A real Node 18 from the npm registry's `node` package, kept between runs in the temp folder.
  const prefix = join(tmpdir(), 'wsctl-test-node18');
  let node18: string | undefined;
  let skipped: string | undefined;
  beforeAll(() => {
    const bin = join(prefix, 'node_modules', '.bin', 'node');
    if (!existsSync(bin)) {
      const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, 'node@18'], {
        encoding: 'utf8',
        timeout: 240_000,
      });
      if (r.status !== 0)
        skipped = `node@18 could not be installed from the npm registry: ${(r.stderr || r.error?.message || '').trim().split('\n').at(-1)}`;
    }
    const version = skipped ? '' : spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (!skipped && !version?.startsWith('v18.')) skipped = `the npm registry's node@18 gave '${version}'`;
    if (skipped) console.warn(`Skipping the Node 18 test: ${skipped}`);
    else node18 = bin;
  }, 300_000);

  it.each(
    [['--version'], ['--help'], ['-V'], ['keys', 'list'], ['--sandbox', 'keys', 'list'], ['help', 'environment']].map((a) => [
      a.join(' '),
      a,
    ]),
  )('Node 18: `wsctl %s` prints one line naming the version needed and the one found, exit 1', (_title, args) => {
    if (!node18) return void console.warn(`skipped: ${skipped}`);
    const r = spawnSync(node18, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: tmpdir() } });
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^Error: wsctl needs Node\.js 20\.18\.1 or newer; this is Node\.js 18\.\d+\.\d+\.\n$/);
  });
});
