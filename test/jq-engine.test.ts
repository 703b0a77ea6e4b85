// The jq engine as built (scripts/jq-wasm.cjs patches jq-wasm, pinned): jq 1.8, its memory bound
// raised to 1 GiB in both places, the glue's sinks and input replaced by the worker's, and the
// WebAssembly read from dist/jq.wasm. These fail loudly when the package moves under them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TextInput } from '../src/terminal/jq-local.js';
import { ROOT, runBin, startSandbox, type TestSandbox } from './helpers.js';

/** The one memory's limits, read from the binary's memory section. */
function memoryLimits(wasm: Buffer): { min: number; max?: number } {
  let at = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = wasm[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  while (at < wasm.length) {
    const id = wasm[at++];
    const size = leb();
    const end = at + size;
    if (id === 5) {
      expect(leb()).toBe(1);
      const flags = leb();
      const min = leb();
      return { min, max: flags & 1 ? leb() : undefined };
    }
    at = end;
  }
  throw new Error('no memory section');
}

describe('the jq engine', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it('is jq 1.8: trim, abs and add/1 exist', async () => {
    const r = await runBin(['settings', '--jq', '("  a " | trim), (-5 | abs), ([1, 2] | add(.[]))'], { env: sb.env });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('a\n5\n3\n');
  });

  it("may grow to 1 GiB: the binary's memory maximum and the glue's getHeapMax both say so (less on the main thread, where the hooks say)", () => {
    const wasm = readFileSync(join(ROOT, 'dist/jq.wasm'));
    expect(wasm.subarray(0, 4)).toEqual(Buffer.from('\0asm'));
    expect(memoryLimits(wasm).max).toBe(16384); // 64 KiB pages
    const package_ = memoryLimits(readFileSync(join(ROOT, 'node_modules/jq-wasm/dist/build/jq.wasm')));
    expect(package_.max).toBe(4096);
    expect(memoryLimits(wasm).min).toBe(package_.min);
    const worker = readFileSync(join(ROOT, 'dist/jq-worker.cjs'), 'utf8');
    // The glue's getHeapMax (its name is minified away).
    expect(worker).toMatch(/\(\)\s*=>\s*globalThis\.__wsctlJq\?\.heapMax\s*\?\?\s*1073741824\b/);
    expect(worker).not.toContain('268435456');
  });

  it("reads the worker's sinks and input in place of the glue's own, and jq's stdout a block at a time", () => {
    const worker = readFileSync(join(ROOT, 'dist/jq-worker.cjs'), 'utf8');
    for (const hook of [
      '__wsctlJq?.stdout',
      '__wsctlJq?.stderr',
      '__wsctlJq?.input',
      '.read(new Uint8Array(',
      '"stdout"?globalThis.__wsctlJq?.stdout',
    ])
      expect(worker, hook).toContain(hook);
  });

  it("is read from dist/jq.wasm, not decoded from inlined base64; jq-wasm is in the engine's file only", () => {
    // "AGFzbQ" is "\0asm", the start of any WebAssembly binary, in base64.
    expect(readFileSync(join(ROOT, 'dist/jq-worker.cjs'), 'utf8')).not.toContain('AGFzbQ');
    expect(readFileSync(join(ROOT, 'dist/wsctl.cjs'), 'latin1')).toContain('jq-worker.cjs');
    const inputs = JSON.parse(readFileSync(join(ROOT, 'build/inputs.json'), 'utf8')) as Record<string, string[]>;
    expect(inputs['wsctl.cjs']?.filter((f) => f.includes('jq-wasm'))).toEqual([]);
    expect(inputs['jq-worker.cjs']?.filter((f) => f.includes('jq-wasm')).length).toBeGreaterThan(0);
  });
});

describe("the main thread's engine reads a text", () => {
  it('encoded a block at a time as jq asks, whatever the block size: never half a character or pair', () => {
    const texts = [
      `{"a":"x\u00e9\u4e2d\ud83d\ude00y","b":"${'\ud83d\ude00\u4e2d'.repeat(40)}","c":"\u00e9"}`,
      '',
      'x\ud800',
      '\udc00y\ud800\ud800',
    ];
    for (const [text, size] of texts.flatMap((t) => [1, 2, 3, 4, 5, 7, 64, 65536].map((n) => [t, n] as const))) {
      // A lone surrogate is read as U+FFFD, as TextEncoder encodes it.
      const whole = new TextEncoder().encode(text);
      const input = new TextInput(text);
      const parts: Uint8Array[] = [];
      for (;;) {
        const block = new Uint8Array(size);
        const length = input.read(block);
        if (length === 0) break;
        expect(length, `block of ${size}`).toBeLessThanOrEqual(size);
        parts.push(block.subarray(0, length));
      }
      expect(Buffer.concat(parts).equals(whole), `${JSON.stringify(text.slice(0, 20))} in blocks of ${size}`).toBe(true);
    }
  });
});
