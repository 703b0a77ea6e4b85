import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers.js';
import { reliabilityTable } from './cases.js';

const SECTION = /(<!-- reliability:start -->\n)[\s\S]*?(\n?<!-- reliability:end -->)/;

// UPDATE_README=1 npx vitest run test/reliability/readme.test.ts rewrites the table.
it("the README's reliability table matches the cases the suite runs", () => {
  const path = join(ROOT, 'README.md');
  const readme = readFileSync(path, 'utf8');
  const expected = readme.replace(SECTION, `$1${reliabilityTable()}\n<!-- reliability:end -->`);
  if (process.env.UPDATE_README === '1') writeFileSync(path, expected);
  expect(readme).toBe(expected);
});
