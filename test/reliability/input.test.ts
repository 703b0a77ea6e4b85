// Bad input, generated: argument lists thrown at the CLI and random answers thrown at every
// command's parser. The process must always end with a documented exit code, a short error and
// no stack trace.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Param } from '../../src/verbs/declare.js';
import { serviceCalls, VERBS } from '../endpoints.js';
import { noStackTrace, run, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

const DOCUMENTED = [0, 1, 2, 3, 4, 5];
/**
 * The words and flags of every declared verb, and a few global and unknown ones. Not `serve`:
 * `sandbox serve` runs until Ctrl-C by design (and with --detach leaves a server behind), so a
 * generated `sandbox serve` would only wait for the test's time-out.
 */
const WORDS = [...new Set(VERBS.flatMap((v) => [...v.path, ...(v.verb.aliases ?? [])])), 'bash'].filter((word) => word !== 'serve');
const FLAGS = [
  ...new Set(
    VERBS.flatMap((v) =>
      Object.values(v.verb.flags ?? {}).flatMap((f) => (f as Param<unknown>).syntax.split(/[ ,]+/).filter((w) => w.startsWith('-'))),
    ),
  ),
  ...['--json', '--timeout', '--profile', '--dry-run', '--no-color', '--bogus'],
];
const hostile = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '..',
    '../..',
    '/',
    'a/b',
    '?x=1',
    '#frag',
    '%2e%2e',
    '%',
    '\u0000',
    '\u001b[2J',
    '\n',
    '-',
    '--',
    'conv_demo',
    'dev_phone',
    'pub_demo',
    'gmail',
    'pdc_gmail',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ minLength: 5000, maxLength: 20000 }),
);
const argv = fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...FLAGS), hostile), { minLength: 1, maxLength: 7 });

function checkEnding(code: number, stderr: string): void {
  expect(DOCUMENTED).toContain(code);
  expect(noStackTrace(stderr)).toBe(true);
  // One or two lines, plus the entries of a 422 and the warning a key creation prints.
  const lines = stderr.split('\n').filter((l) => l && !l.startsWith('  ') && !l.startsWith('! '));
  expect(lines.length).toBeLessThanOrEqual(2);
}

describe('generated argument lists', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('always end with a documented exit code, a short error, no stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(argv, async (args) => {
        const r = await run(args, { env: { ...sb.env, WSCTL_TIMEOUT: '2' } });
        checkEnding(r.code, r.stderr);
      }),
      { numRuns: 1500 },
    );
  }, 240_000);

  it('ids with / ? # % or .. never leave their path segment', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.stringMatching(/^[./?#%a-z]{1,12}$/)),
        async (id) => {
          fc.pre(id.trim() !== '');
          sb.requests.length = 0;
          await run(['convo', 'show', '--', id], { env: sb.env });
          await run(['device', 'rm', '--yes', '--', id], { env: sb.env });
          const [show, rm] = sb.requests;
          expect(show?.path).toMatch(/^\/conversations\/[^/?#]+$/);
          expect(rm?.path).toMatch(/^\/devices\/[^/?#]+$/);
          expect(decodeURIComponent(show!.path.slice('/conversations/'.length))).toBe(id);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});

describe('random answers from the service', () => {
  let answer: { status: number; body: string } = { status: 200, body: '{}' };
  let url = '';
  const server = createServer((_req, res) => {
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
  });

  // Every verb that calls the service, by its samples (test/endpoints.ts), and auth status.
  const commands = [...serviceCalls({ yes: true }).map((c) => c.args), ['auth', 'status']];
  const body = fc.oneof(
    fc.json(),
    fc
      .jsonValue()
      .map((v) =>
        JSON.stringify({ keys: [v], published: [v], messages: [v], conversation: v, data: v, error: v, success: v, filename: v, url: v }),
      ),
    fc.string(),
  );

  it('every command ends with 0, 1 or 3 and no stack trace', async () => {
    const dir = tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...commands),
        body,
        fc.constantFrom(200, 201, 204, 500),
        fc.boolean(),
        async (args, text, status, json) => {
          answer = { status, body: status === 204 ? '' : text };
          const r = await run(json ? [...args, '--json'] : args, {
            env: {
              WSCTL_BASE_URL: url,
              WSCTL_API_KEY: 'wsk_fuzz_fuzz_fuzz',
              WSCTL_CONFIG_DIR: dir,
              WSCTL_RETRY_BASE_MS: '1',
              WSCTL_BYOK_API_KEY: 'sk-fuzz-0123456789',
            },
          });
          expect([0, 1, 3], `${args.join(' ')}: ${r.stderr}`).toContain(r.code);
          checkEnding(r.code, r.stderr);
        },
      ),
      { numRuns: 800 },
    );
  }, 240_000);
});
