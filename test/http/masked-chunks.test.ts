// The streamed body's masker: the key found wherever the chunks cut it, every other byte kept.
import { describe, expect, it } from 'vitest';
import { maskedChunks } from '../../src/http/masked-chunks.js';

const KEY = 'wsk_0123456789abcdef';
const MASKED = 'wsk_…cdef';

async function through(chunks: string[]): Promise<string> {
  async function* source() {
    for (const chunk of chunks) yield Buffer.from(chunk);
  }
  const out: Buffer[] = [];
  for await (const chunk of maskedChunks(source(), KEY, MASKED)) out.push(chunk);
  return Buffer.concat(out).toString();
}

describe('maskedChunks', () => {
  const text = `{"a":"${KEY}","b":"é ${KEY}${KEY}","c":"wsk_0123 not the key","d":"${KEY.slice(0, -1)}"}`;
  const expected = text.replaceAll(KEY, MASKED);

  it('masks the key at every cut into two and three chunks', async () => {
    for (let i = 0; i <= text.length; i++) {
      expect(await through([text.slice(0, i), text.slice(i)]), `cut at ${i}`).toBe(expected);
      const j = Math.min(text.length, i + 7);
      expect(await through([text.slice(0, i), text.slice(i, j), text.slice(j)]), `cuts at ${i}, ${j}`).toBe(expected);
    }
  });

  it('masks the key fed a byte at a time, and passes a body without it unchanged', async () => {
    expect(await through([...Buffer.from(text)].map((b) => String.fromCharCode(b)))).not.toContain(KEY);
    expect(await through(['{"plain":', '"text"}'])).toBe('{"plain":"text"}');
    expect(await through([])).toBe('');
  });
});
