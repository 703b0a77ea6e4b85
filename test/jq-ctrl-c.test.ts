// --jq: a Ctrl-C that lands while a filter runs on the main thread (a speed trick's path) still
// ends wsctl with exit 130, the Interrupted document and nothing on stdout.
//
// In a file of its own, which the suite runs last (vitest.config.ts): in the loaded suite (two
// cores, every file's processes at once) on Node 20 these cases have failed with the process
// ending without a word (exit 128 from a signal, or no exit within the test's time), while they
// pass alone, five at once and beside the longest files. Still under investigation; each try
// requires exit 130 and the document, and runBin now says which signal ended a process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin, startSandbox, tempDir, type TestSandbox } from './helpers.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});

describe('--jq: a Ctrl-C while a filter runs on the main thread', { retry: 2 }, () => {
  // The Ctrl-C is sent from inside the run, by a preload, so it surely lands while this thread
  // is busy: the run ends within its slice (or the path is read) and its output must not be printed.
  const cases = [
    // Sent as jq reads the document's first block, in the run (or, on a machine so loaded that the
    // check itself moved to the thread, as the document is encoded for the thread: 130 all the same).
    [
      'a filter that ends within its time slice',
      '.keys | map(.id)',
      "for (const name of ['encode', 'encodeInto']) { const real = TextEncoder.prototype[name]; TextEncoder.prototype[name] = function (text, ...rest) { if (String(text).startsWith('{\"keys\"')) process.kill(process.pid, 'SIGINT'); return real.call(this, text, ...rest); }; }",
    ],
    // Sent as the path reads the document: its second parse (the first is the response's own).
    [
      'a plain path',
      '.keys[].id',
      "let parses = 0; const parse = JSON.parse; JSON.parse = function (...a) { if (String(a[0]).startsWith('{\"keys\"') && ++parses === 2) process.kill(process.pid, 'SIGINT'); return parse.apply(this, a); };",
    ],
  ] as const;
  it.each(cases)('%s: exit 130, the Interrupted document, nothing on stdout', async (_name, filter, hook) => {
    const preload = join(tempDir(), 'sigint.cjs');
    writeFileSync(preload, `${hook}\n`);
    const sent = sb.requests.length;
    // The tricks on, even in the suite's run without them: this is their path.
    const r = await runBin(['keys', 'list', '--jq', filter], {
      env: { ...sb.env, NODE_OPTIONS: `--require ${preload}` },
    });
    expect([r.code, r.stdout], r.stderr).toEqual([130, '']);
    // The answer had come: the Ctrl-C landed in the filter's run, not before the request.
    expect(sb.requests.length).toBe(sent + 1);
    expect(r.stderr).toContain('"message": "Interrupted."');
    // Without the preload, the same filter prints.
    const plain = await runBin(['keys', 'list', '--jq', filter], { env: { ...sb.env } });
    expect([plain.code, plain.stdout === '']).toEqual([0, false]);
  });
});
