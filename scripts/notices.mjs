// THIRD-PARTY-NOTICES.txt: the licence of every package esbuild bundled into dist/, read from
// the package itself (the build's metafiles say which ones), and jq's, whose WebAssembly build
// jq-wasm carries (dist/jq.wasm). A bundled package that ships no licence file gets an entry
// that says so, the build warns, and test/package.test.ts fails until its text is added here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const LICENCE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;
const RULE = '-'.repeat(78);

/** The package folders (relative to the project) that the given esbuild inputs come from. */
export function bundledPackages(inputs) {
  const dirs = new Set();
  for (const input of inputs) {
    const at = input.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const parts = input.slice(at + 'node_modules/'.length).split('/');
    const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    dirs.add(`${input.slice(0, at)}node_modules/${name}`);
  }
  return [...dirs].sort();
}

function licenceTexts(dir) {
  const files = readdirSync(dir)
    .filter((f) => LICENCE_FILE.test(f))
    .sort();
  return files.map((f) => readFileSync(join(dir, f), 'utf8').replace(/\r\n/g, '\n').trimEnd());
}

function entry(title, url, texts) {
  return [RULE, title, ...(url ? [url] : []), RULE, '', texts.join('\n\n'), ''].join('\n');
}

function homepage(pkg) {
  if (pkg.homepage) return pkg.homepage;
  const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  if (!repo) return undefined;
  // "owner/name" and "github:owner/name" are GitHub shorthands; git+https and git:// are URLs.
  const url = repo
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/\.git$/, '');
  return /^[\w.-]+\/[\w.-]+$/.test(url) ? `https://github.com/${url}` : url.replace(/^github:/, 'https://github.com/');
}

/** jq and the Oniguruma regex library it is built with, inside jq-wasm's WebAssembly. */
function jqEntries(jqWasm) {
  const jqVersion = /-jq-(\d+(?:\.\d+)+)/.exec(jqWasm.version)?.[1] ?? 'as built by jq-wasm';
  return [
    entry(
      `jq ${jqVersion} (MIT, with the notices below), compiled to WebAssembly in jq-wasm ${jqWasm.version}: dist/jq.wasm`,
      'https://jqlang.org',
      [readFileSync(join(here, 'licences', 'jq-COPYING'), 'utf8').trimEnd()],
    ),
    entry('Oniguruma (BSD-2-Clause), the regular expression library built into jq', 'https://github.com/kkos/oniguruma', [
      readFileSync(join(here, 'licences', 'oniguruma-COPYING'), 'utf8').trimEnd(),
    ]),
  ];
}

/** Licence texts that a bundled package does not ship itself, by package name. */
const SUPPLIED = {};

/** The notices file for the bundled package folders; `missing` names the packages without a licence text. */
export function thirdPartyNotices(root, packageDirs, missing = []) {
  const sections = [];
  for (const dir of packageDirs) {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    let texts = licenceTexts(join(root, dir));
    if (texts.length === 0 && SUPPLIED[pkg.name]) texts = [SUPPLIED[pkg.name]];
    if (texts.length === 0) {
      missing.push(`${pkg.name} (${dir})`);
      texts = [`No licence file ships in this package; its package.json names ${pkg.license ?? 'no licence'}.`];
    }
    sections.push(entry(`${pkg.name} ${pkg.version} (${pkg.license ?? 'no licence named'})`, homepage(pkg), texts));
    if (pkg.name === 'jq-wasm') sections.push(...jqEntries(pkg));
  }
  const head = [
    'Third-party software in wsctl',
    '',
    "wsctl's own code is under the MIT licence (LICENSE). The files in dist/ also hold the",
    'code of the packages below, bundled by esbuild; each entry gives the package, its',
    'version and licence, and the licence text the package ships. jq is there as',
    'WebAssembly built by Emscripten, with the libraries jq is built with.',
    '',
  ].join('\n');
  return `${head}\n${sections.join('\n')}`;
}
