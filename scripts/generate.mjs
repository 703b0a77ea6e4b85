// Writes what is generated from the built command tree: completions/, man/, package.json's list
// of man pages, the agent skill (skills/wsctl/SKILL.md), the MCP registry's server.json, and the
// README's command list and tables (settings, exit codes).
// Run `npm run docs` (or `npm run completions`) after changing commands, flags or the help
// topics (src/help/topics.ts); a test fails when they are stale.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { generatedFiles } from '../dist/wsctl.cjs';

const root = new URL('..', import.meta.url);
const read = (file) => readFileSync(new URL(file, root), 'utf8');
const files = await generatedFiles(read('README.md'), read('package.json'), read('CHANGELOG.md'));
// Pages of commands that no longer exist go.
mkdirSync(new URL('man/', root), { recursive: true });
mkdirSync(new URL('skills/wsctl/', root), { recursive: true });
for (const old of readdirSync(new URL('man/', root))) {
  if (!(`man/${old}` in files)) rmSync(new URL(`man/${old}`, root));
}
for (const [file, text] of Object.entries(files)) {
  if (file.startsWith('man/') || !existsSync(new URL(file, root)) || read(file) !== text) {
    writeFileSync(new URL(file, root), text);
  }
}
console.log(`wrote ${Object.keys(files).length} files (completions/, man/, skills/, README.md, package.json, server.json)`);
