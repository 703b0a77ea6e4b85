// The lists that start-up and the texts naming commands read (src/common/declared.ts) are written
// by the build from the declarations: committed, they must be what the declarations give now.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredData, declaredModule } from '../src/cli/declared-data.js';
import { ROOT } from './helpers.js';

describe('src/common/declared.ts', () => {
  it('is what the declarations give (npm run build writes it)', async () => {
    const data = await declaredData();
    expect(readFileSync(join(ROOT, 'src/common/declared.ts'), 'utf8')).toBe(declaredModule(data));
    expect(data.deleting).toEqual(expect.arrayContaining(['conn rm', 'device rm', 'pub rm']));
    expect(data.nounFlags.mcp?.values).toEqual(['--upload-dir']);
  });
});
