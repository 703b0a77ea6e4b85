// Writes completions/ and the README's command list from the built command tree.
// Run `npm run completions` after changing commands or flags; a test fails when they are stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { generatedFiles } from '../dist/wsctl.cjs';

const root = new URL('..', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
for (const [file, text] of Object.entries(await generatedFiles(readme))) {
  writeFileSync(new URL(file, root), text);
  console.log(`wrote ${file}`);
}
