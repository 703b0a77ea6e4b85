import { beforeEach, describe, expect, it } from 'vitest';
import { lastRequest, run, startSandbox, type TestSandbox } from '../helpers.js';

describe('notes import', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startSandbox();
  });

  it('--to a/b/c becomes target_path; only given fields are sent; prints the file name', async () => {
    const r = await run(['notes', 'import', 'page_demo', '--to', 'a/b/c', '--title', 'Agenda', '--account', 'acc_1'], { env: sb.env });
    expect(r.code).toBe(0);
    const req = lastRequest(sb);
    expect([req.method, req.path, JSON.parse(req.body)]).toEqual([
      'POST',
      '/connections/notes/import',
      { page_id: 'page_demo', title: 'Agenda', target_path: ['a', 'b', 'c'], account_id: 'acc_1' },
    ]);
    expect(r.stdout).toBe('a/b/c/agenda.md\n');
    await run(['notes', 'import', 'page_demo'], { env: sb.env });
    expect(JSON.parse(lastRequest(sb).body)).toEqual({ page_id: 'page_demo' });
  });

  it('--json prints {filename}; an unknown page exits 5; ".." in --to exits 2', async () => {
    const r = await run(['notes', 'import', 'page_roadmap', '--json'], { env: sb.env });
    expect(JSON.parse(r.stdout)).toEqual({ filename: 'roadmap-2027.md' });
    expect((await run(['notes', 'import', 'page_nope'], { env: sb.env })).code).toBe(5);
    expect((await run(['notes', 'import', 'page_demo', '--to', 'a/../b'], { env: sb.env })).code).toBe(2);
  });
});
