// The speed tricks of src/tricks.ts and scripts/ (STYLE.md 14), each checked against the built
// bundle: these tests fail loudly when a pinned dependency moves under them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Conversation, ConversationDetail, Message, responseSchemas } from '../src/schemas.js';
import { quickCheck, STEADY_YOUNG_GENERATION } from '../src/tricks.js';
import { BIN, ROOT, runBin, startConnectProxy, startSandbox, tempDir } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe('speed tricks', () => {
  it('the packages the tricks lean on are pinned to exact versions', () => {
    for (const name of ['undici', 'commander', 'jq-wasm', 'zod']) expect({ ...pkg.dependencies, ...pkg.devDependencies }[name], name).toMatch(/^\d+\.\d+\.\d+(-[\w.-]+)?$/);
  });

  it("undici's deep imports have the shapes wsctl uses: an Agent without HTTP/2 and request()", async () => {
    const [{ default: request }, { default: Agent }] = await Promise.all([import('undici/lib/api/api-request.js'), import('undici/lib/dispatcher/agent.js')]);
    expect(typeof request).toBe('function');
    const server = createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent({ allowH2: false });
    try {
      const response = await (request as (this: unknown, o: object) => Promise<{ statusCode: number; body: { json(): Promise<unknown> } }>).call(agent, {
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        path: '/',
        method: 'GET',
      });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toEqual({ ok: true });
    } finally {
      await agent.close();
      server.close();
    }
  });

  it('--liftoff-only is set before undici or the jq engine compiles: no wasm function is compiled with TurboFan', async () => {
    // A sandbox in its own process: spawnSync blocks this one.
    const home = tempDir();
    const started = spawnSync(process.execPath, [BIN, 'sandbox', 'serve', '--detach'], { env: { PATH: process.env.PATH, HOME: home, WSCTL_CONFIG_DIR: join(home, 'c') }, encoding: 'utf8' });
    const env = Object.fromEntries(started.stdout.split('\n').slice(0, 2).map((l) => l.split('=')));
    try {
      // undici's parser, and with --jq the jq engine too (compiled before any request).
      for (const extra of [[], ['--jq', '.keys[].id']]) {
        const r = spawnSync(process.execPath, ['--trace-wasm-compilation-times', BIN, 'keys', 'list', ...extra], { env: { PATH: process.env.PATH, HOME: home, ...env }, encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        const out = r.stdout + r.stderr;
        expect(out).toMatch(/using Liftoff/);
        expect(out, extra.join(' ')).not.toMatch(/using TurboFan/);
      }
    } finally {
      spawnSync(process.execPath, [BIN, 'sandbox', 'stop'], { env: { PATH: process.env.PATH, HOME: home, WSCTL_CONFIG_DIR: join(home, 'c') } });
    }
  });

  it('a proxied request works: the path that loads all of undici with the node:http2 stand-in', async () => {
    const sb = await startSandbox();
    const proxy = await startConnectProxy();
    const r = await runBin(['keys', 'list', '--json'], { env: { ...sb.env, HTTP_PROXY: proxy.url } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).keys.length).toBeGreaterThan(0);
    expect(proxy.tunnels).toEqual([new URL(sb.url).host]);
  });

  it('the young generation flag exists on this Node and keeps the new space at its start size when set at run time', () => {
    expect(spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout).toContain(STEADY_YOUNG_GENERATION.split('=')[0]);
    const newSpace = (flag: string) => {
      const script = `const v8 = require('node:v8');
        if (process.argv[1]) v8.setFlagsFromString(process.argv[1]);
        let keep = [];
        for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 2000) keep = []; }
        console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`;
      const r = spawnSync(process.execPath, ['-e', script, '--', flag], { encoding: 'utf8' });
      expect(r.stderr).toBe(''); // an unknown flag would say so here
      return Number(r.stdout);
    };
    const steady = newSpace(STEADY_YOUNG_GENERATION);
    expect(steady).toBeLessThanOrEqual(4 << 20);
    expect(newSpace('')).toBeGreaterThan(steady * 4);
  });

  it("commander's node:child_process stand-in still gives the real module when asked", () => {
    const r = spawnSync(process.execPath, ['-e', "const cp = require(process.argv[1]); console.log(typeof cp.spawn, typeof cp.execFileSync)", join(ROOT, 'scripts/lazy-child-process.cjs')], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('function function');
  });
});

describe('quickCheck: zod’s yes or no on JSON values, without zod’s copies', () => {
  const jsonValue = fc.jsonValue({ maxDepth: 3 });
  // Values near the shapes, so that both verdicts are common: each field mostly of its type, now
  // and then of any other.
  const anyOf = fc.oneof(fc.string(), fc.constant(null), fc.integer(), fc.boolean(), fc.dictionary(fc.string(), jsonValue), fc.array(jsonValue));
  const typical = (field: string): fc.Arbitrary<unknown> =>
    field.endsWith('_tokens') ? fc.integer() : field === 'parts' ? fc.array(near(['part_kind', 'content', 'tool_name', 'tool_call_id', 'args', 'timestamp']), { maxLength: 3 }) : field === 'metadata' ? fc.dictionary(fc.string(), jsonValue) : field === 'content' || field === 'args' ? jsonValue : fc.string();
  const near = (fields: string[]): fc.Arbitrary<unknown> =>
    fc.oneof(
      { arbitrary: fc.record(Object.fromEntries(fields.map((f) => [f, fc.oneof({ arbitrary: typical(f), weight: 12 }, { arbitrary: anyOf, weight: 1 })])), { requiredKeys: [] }), weight: 9 },
      { arbitrary: anyOf, weight: 1 },
    );
  const cases: [string, z.ZodMiniType, fc.Arbitrary<unknown>][] = [
    ['Message', Message, near(Object.keys(Message.shape))],
    ['ConversationDetail', ConversationDetail, near(Object.keys(ConversationDetail.shape))],
    ['Conversation', Conversation, fc.record({ conversation: near(Object.keys(ConversationDetail.shape)), messages: fc.oneof(fc.array(near(Object.keys(Message.shape)), { maxLength: 3 }), anyOf), state: fc.oneof(fc.string(), fc.constant(null), fc.integer()) }, { requiredKeys: ['messages'] })],
  ];
  it.each(cases)('%s: the same verdict as zod on random values', (_name, schema, near) => {
    const check = quickCheck(schema);
    expect(check).toBeDefined();
    let yes = 0;
    fc.assert(
      fc.property(near, (value) => {
        const zod = schema.safeParse(value).success;
        if (zod) yes++;
        expect(check?.(value)).toBe(zod);
      }),
      { numRuns: 3000 },
    );
    expect(yes).toBeGreaterThan(100);
  });

  it('a schema outside the subset it knows gets no quick check (zod decides)', () => {
    expect(quickCheck(z.object({ a: z.enum(['x', 'y']) }))).toBeUndefined();
    expect(quickCheck(z.string().check(z.minLength(2)))).toBeUndefined();
    // Every response schema either has a quick check or is left to zod; neither throws.
    for (const schema of Object.values(responseSchemas)) expect(() => quickCheck(schema)).not.toThrow();
  });
});
