// The splitter that takes a JSON object body apart as it arrives: for any object and any way of
// cutting it into chunks, the fields and items it gives are JSON.parse's; what JSON.parse refuses,
// it (or the JSON.parse of a piece) refuses too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ObjectSplitter, type SplitEvent } from '../../src/conversation/split.js';

/** The object the events describe, and the events themselves. */
function split(text: string, cuts: number[], skip = 0): { value: Record<string, unknown>; events: SplitEvent[] } {
  const bytes = Buffer.from(text);
  const splitter = new ObjectSplitter('messages');
  splitter.skipItems = skip;
  const events: SplitEvent[] = [];
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    events.push(...splitter.push(bytes.subarray(at, cut)));
    at = cut;
  }
  splitter.end();
  const value: Record<string, unknown> = {};
  let items: unknown[] = [];
  for (const e of events) {
    // defineProperty: a "__proto__" field is an own field, as JSON.parse makes it.
    if (e.kind === 'field')
      Object.defineProperty(value, e.key, { value: JSON.parse(e.text), enumerable: true, writable: true, configurable: true });
    else if (e.kind === 'items')
      Object.defineProperty(value, e.key, { value: (items = []), enumerable: true, writable: true, configurable: true });
    else if (e.kind === 'item') items.push(e.text === undefined ? '(skipped)' : JSON.parse(e.text));
  }
  return { value, events };
}

const tricky = fc.oneof(fc.string(), fc.constantFrom('"', '\\', '\\"', '}]', '{[', '\u2028', '😀', 'é', '\u0000', '\\\\\\"'));
// Keys inside values: none with a character JSON escapes, since only V8 reads those values (with
// the bug asJson describes); the body's own keys, which the splitter reads, may have any.
const innerKey = tricky.filter((k) => JSON.stringify(k) === `"${k}"`);

/**
 * What JSON.parse(JSON.stringify(value)) is, made without JSON.parse: V8 in Node 24 and 26 (not
 * 20) misreads a key with escapes in it once it has parsed certain others at the same place
 * (JSON.parse('{"\\\\":1}') then JSON.parse('{"\\"":1}') gives the key "\\" again; a body with
 * the keys '" ' and '\\"' lost one of them). The splitter reads each key on its own and is not
 * affected; a JSON.parse of the whole body to compare with was.
 */
function asJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asJson);
  if (typeof value === 'number') return Object.is(value, -0) ? 0 : value;
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    Object.defineProperty(copy, k, { value: asJson(v), enumerable: true, writable: true, configurable: true });
  return copy;
}
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    tricky,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(innerKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('ObjectSplitter', () => {
  it('gives JSON.parse’s fields and items, however the body is cut', () => {
    fc.assert(
      fc.property(
        fc.dictionary(tricky, json, { maxKeys: 5 }),
        fc.array(json, { maxLength: 8 }),
        fc.constantFrom(0, 2, '\t'),
        fc.array(fc.nat(), { maxLength: 12 }),
        (fields, items, indent, cuts) => {
          const body = { ...fields, messages: items };
          expect(split(JSON.stringify(body, null, indent), cuts).value).toEqual(asJson(body));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses what JSON.parse refuses, and of what it accepts only a repeated field or a body that is not an object', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), json, { maxKeys: 3 }),
        fc.nat(),
        fc.constantFrom('', ',', '}', ']', '{', '[', ':', '"', 'x', ' '),
        fc.array(fc.nat(), { maxLength: 5 }),
        (object, at, junk, cuts) => {
          const good = JSON.stringify({ ...object, messages: [1, { a: 'b' }] });
          const i = at % (good.length + 1);
          const text = good.slice(0, i) + junk + good.slice(i + (junk === ' ' ? 0 : 1));
          let parsed: { value: unknown } | undefined;
          try {
            parsed = { value: JSON.parse(text) };
          } catch {
            parsed = undefined;
          }
          let refused: Error | undefined;
          try {
            split(text, cuts);
          } catch (error) {
            refused = error as Error;
          }
          if (!parsed) {
            expect(refused).toBeDefined();
            return;
          }
          const isObject = typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value);
          if (!refused) expect(isObject).toBe(true);
          // JSON.parse keeps the last of a repeated field; a stream cannot take back the first.
          else if (isObject) expect(refused.message).toMatch(/appears twice/);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('skips items below skipItems without decoding them', () => {
    const { value } = split('{"messages": [{"a": 1}, {"b": "\\"]"}, 3, [4]], "state": "idle"}', [5, 17], 2);
    expect(value).toEqual({ messages: ['(skipped)', '(skipped)', 3, [4]], state: 'idle' });
  });

  it('tells where the array of items begins and ends, between the other fields', () => {
    const { events } = split('{"a": 1, "messages": [], "b": [true]}', []);
    expect(events.map((e) => e.kind)).toEqual(['field', 'items', 'itemsEnd', 'field']);
  });

  it('accepts a UTF-8 byte order mark, even cut in two', () => {
    const text = `\ufeff{"messages": ["é"]}`;
    for (const cut of [1, 2, 3]) expect(split(text, [cut]).value).toEqual({ messages: ['é'] });
  });
});
