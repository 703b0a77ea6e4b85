// The plain-path speed trick (src/terminal/jq-path.ts) against jq 1.8 itself (the jq-wasm package
// the engine is built from): wherever the path answers, its bytes must be jq's, on documents made
// to tell the two apart (numbers jq prints otherwise, DEL, lone surrogates, keys JavaScript
// reorders, jq's keywords) and on random ones. Where jq fails, the path must leave it to jq.
import { loadJq } from 'jq-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { forJq } from '../src/terminal/jq.js';
import { followPath, numbersInShortestForm, plainPath } from '../src/terminal/jq-path.js';

type Jq = Awaited<ReturnType<typeof loadJq>>;
let jq: Jq;
beforeAll(async () => {
  jq = await loadJq();
});

/**
 * What jq prints for the filter, exactly: jq-wasm trims its output, so the results are framed by
 * two marker strings that jq prints around them.
 */
function jqPrints(json: string, filter: string, raw: boolean): { exitCode: number; output: string } {
  const flags = raw ? ['-r', '-c'] : ['-c'];
  // As the engine gets it: jq 1.8 refuses a document with a lone surrogate.
  const { exitCode, stdout } = jq.raw(forJq(json), `"BEGIN", (${filter}), "END"`, flags);
  const begin = raw ? 'BEGIN\n' : '"BEGIN"\n';
  const end = raw ? 'END' : '"END"';
  if (exitCode !== 0) return { exitCode, output: '' };
  expect(stdout.startsWith(begin) && stdout.endsWith(end)).toBe(true);
  return { exitCode, output: stdout.slice(begin.length, stdout.length - end.length) };
}

/** Compares the path with jq on one document; says whether the path answered. */
function agree(json: string, filter: string, raw: boolean): boolean {
  const steps = plainPath(filter);
  expect(steps, filter).toBeDefined();
  const fast = followPath(json, steps!, raw);
  const real = jqPrints(json, filter, raw);
  if (fast === undefined) return false;
  expect({ filter, json, raw, exitCode: real.exitCode, output: fast }).toEqual({ filter, json, raw, exitCode: 0, output: real.output });
  return true;
}

describe('plainPath', () => {
  it.each([
    ['.', []],
    ['.keys', [{ field: 'keys' }]],
    ['.keys[].id', [{ field: 'keys' }, { each: true }, { field: 'id' }]],
    ['  .items[0] | .name ', [{ field: 'items' }, { index: 0 }, { field: 'name' }]],
    ['.[-1]', [{ index: -1 }]],
    ['.[]', [{ each: true }]],
    ['.a.[2]', [{ field: 'a' }, { index: 2 }]],
    ['._x9', [{ field: '_x9' }]],
  ])('reads %j as a path', (filter, steps) => {
    expect(plainPath(filter)).toEqual(steps);
  });

  it('skips only the whitespace jq skips: space, tab, CR and LF', () => {
    expect(plainPath(' \t.a\r\n|\n.b ')).toEqual([{ field: 'a' }, { field: 'b' }]);
    for (const space of ['\u00a0', '\v', '\f', '\ufeff', '\u2028', '\u3000']) {
      expect(plainPath(`.a${space}`), JSON.stringify(space)).toBeUndefined();
      expect(plainPath(`${space}.a`), JSON.stringify(space)).toBeUndefined();
      expect(jq.raw('{}', `.a${space}`, []).exitCode, JSON.stringify(space)).toBe(3);
    }
  });

  it.each([
    '',
    '..',
    '.a?',
    '.a .b',
    '. a',
    '.["a"]',
    '.a[1:2]',
    '.end',
    '.a.if',
    '.a,.b',
    'keys',
    '.a | keys',
    '[.a]',
    '.a[01]',
    '.[1e2]',
    '.a |',
    '| .a',
    '.a || .b',
    '.a # comment',
    '.a[ 0 ]',
    '$__loc__',
    '.é',
    '.a-1',
  ])('leaves %j to the engine', (filter) => {
    expect(plainPath(filter)).toBeUndefined();
  });
});

// JSON.stringify's text, as the terminal hands it to --jq; built from text so that "__proto__" is a key.
const TRICKY = JSON.stringify(
  JSON.parse(
    String.raw`{"keys":[{"id":"key_1","n":1.5,"big":1e21,"bigger":123456789012345680000,"tiny":1e-7,"small":0.00000123,"sum":0.30000000000000004,"max":1.7976931348623157e308,"min":5e-324,"int":9007199254740994,"neg":-0,"del":"a\u007fb","lone":"\ud800x","pair":"\ud83d\ude00","ctrl":"\u0001\n\t\"\\/","nul":"a\u0000b","space":"  padded  ","2":"index-like","b":null,"t":true,"arr":[],"obj":{},"__proto__":{"x":1},"end":"keyword","nested":{"10":1,"a":2}},{"id":"key_2","n":2,"b":[1,"two",null,{"c":3}],"ctrl":"é ü 😀"}],"count":2,"name":"a\u001b[31mred"}`,
  ),
);

const FIELDS = [
  'keys',
  'id',
  'n',
  'big',
  'bigger',
  'tiny',
  'small',
  'sum',
  'max',
  'min',
  'int',
  'neg',
  'del',
  'lone',
  'pair',
  'ctrl',
  'nul',
  'space',
  'b',
  't',
  'arr',
  'obj',
  '__proto__',
  'nested',
  'count',
  'name',
  'missing',
  'c',
  'x',
  'a',
];

// The service's own text, as --jq filters it when the document is the service's body: numbers,
// escapes and key order as the service wrote them, which jq 1.8 keeps.
const WRITTEN = String.raw`{ "keys" : [ {"id":"key_1", "n":1.0, "e":1E2, "neg":-0, "dec":0.10, "big":100000000000000000001, "ok":1.5, "int":42,
  "pair":"\uD83D\uDE00", "low":"\uDC00", "lone":"x\uD800", "esc":"\u00e9\/", "t":"10:30.5, [1.0]", "dup":1, "dup":2,
  "order":{"b":1,"2":2,"a":3}, "strs":["1.0","-0"]}, {"id":"key_2","n":7,"order":{"z":0}} ], "count":2 }`;

describe('forJq', () => {
  it('gives jq U+FFFD for a lone high surrogate, which it would refuse the whole document for, and leaves everything else', () => {
    const json = JSON.stringify({ lone: '\ud800x', low: 'y\udc00', pair: '\ud83d\ude00', text: '\\ud800', both: '\\\ud800' });
    expect(jq.raw(json, '.pair', ['-r']).exitCode).toBe(5);
    // jq reads a lone low one as U+FFFD itself.
    expect(forJq(json)).toBe(String.raw`{"lone":"\ufffdx","low":"y\udc00","pair":"😀","text":"\\ud800","both":"\\\ufffd"}`);
    expect(jq.raw(forJq(json), '.[]', ['-r'])).toMatchObject({ exitCode: 0, stdout: '\ufffdx\ny\ufffd\n😀\n\\ud800\n\\\ufffd' });
  });

  it("does the same on the service's own text: escapes in either case, a pair written as two escapes kept", () => {
    const json = String.raw`{"a":"\uD83D\uDE00","b":"\ud83d\ude00","c":"\uD800","d":"\uDFFFx","e":"\\uD800","f":"\\\uDBFF","g":"\uDBFF\uDBFF\uDC00","h":"\u00e9"}`;
    expect(forJq(json)).toBe(
      String.raw`{"a":"\uD83D\uDE00","b":"\ud83d\ude00","c":"\ufffd","d":"\uDFFFx","e":"\\uD800","f":"\\\ufffd","g":"\ufffd\uDBFF\uDC00","h":"\u00e9"}`,
    );
    expect(jq.raw(forJq(json), '[.[]]', ['-c'])).toMatchObject({
      exitCode: 0,
      stdout: JSON.stringify(['😀', '😀', '\ufffd', '\ufffdx', '\\uD800', '\\\ufffd', '\ufffd\u{10fc00}', 'é']),
    });
    expect(forJq(WRITTEN)).toBe(WRITTEN.replace(String.raw`x\uD800`, String.raw`x\ufffd`));
  });
});

describe('followPath prints what jq prints', () => {
  it('for hand-picked paths on a document made to tell them apart', () => {
    const filters = [
      '.',
      '.keys',
      '.keys[]',
      '.keys[].id',
      '.keys[0]',
      '.keys[-1]',
      '.keys[5]',
      '.keys[-5]',
      '.count',
      '.name',
      '.keys | .[1] | .b',
      '.keys[1].b[]',
      '.keys[0].nested',
      '.keys[0].nested[]',
      '.keys[0].obj[]',
      '.keys[0].arr[]',
      '.missing',
      '.missing.deeper[3]',
      '.keys[0].__proto__',
      '.keys[0].__proto__.x',
      '.keys[1].b[3].c',
      '.count[]',
      '.name.x',
      '.keys.id',
      '.keys[0][0]',
      '.[]',
    ];
    let answered = 0;
    for (const filter of filters) {
      for (const field of FIELDS) {
        for (const raw of [true, false]) {
          if (agree(TRICKY, filter, raw)) answered++;
          if (agree(TRICKY, `${filter === '.' ? '' : filter}.${field}`.replace(/^\./, '.'), raw)) answered++;
        }
      }
    }
    // Most of these are answered by the path itself: the test compares, it does not only defer.
    expect(answered).toBeGreaterThan(filters.length * FIELDS.length);
    // About 2,000 runs of the jq engine, on this thread: 5 s on a quiet machine, past 30 s beside a
    // loaded one. The bound is for a hang, not a speed.
  }, 300_000);

  it('leaves to jq the values of an object with keys that differ only in a lone surrogate, which jq reads as one', () => {
    const json = JSON.stringify(JSON.parse(String.raw`{"a":{"\ud800":1,"\udbff":2,"b":3}}`));
    expect(followPath(json, plainPath('.a[]')!, true)).toBeUndefined();
    expect(jqPrints(json, '.a[]', true).output).toBe('2\n3\n');
    expect(agree(json, '.a.b', true)).toBe(true);
  });

  it('answers the plain cases itself and leaves the ones jq prints otherwise, or fails on, to jq', () => {
    const answer = (filter: string, raw = true) => followPath(TRICKY, plainPath(filter)!, raw);
    expect(answer('.keys[].id')).toBe('key_1\nkey_2\n');
    expect(answer('.keys[0].n')).toBe('1.5\n');
    expect(answer('.keys[0].space')).toBe('  padded  \n');
    expect(answer('.keys[0].ctrl', false)).toBe('"\\u0001\\n\\t\\"\\\\/"\n');
    expect(answer('.missing')).toBe('null\n');
    expect(answer('.keys[0].arr[]')).toBe('');
    for (const filter of [
      '.keys[0].big',
      '.keys[0].tiny',
      '.keys[0].min',
      '.keys[0].lone',
      '.keys[0]',
      '.count[]',
      '.name.x',
      '.keys.id',
      '.missing[]',
    ])
      expect(answer(filter), filter).toBeUndefined();
    expect(answer('.keys[0].del')).toBe('a\x7fb\n');
    expect(answer('.keys[0].del', false)).toBeUndefined();
    // jq keeps the document's order of keys, where JSON.parse puts array indexes first.
    expect(answer('.keys[0].nested', false)).toBeUndefined();
    expect(answer('.keys[0].nested[]', false)).toBeUndefined();
    expect(jqPrints('{"a":2,"10":1}', '., .[]', false).output).toBe('{"a":2,"10":1}\n2\n1\n');
  });

  it("on the service's own text: numbers, escapes and key order as it wrote them", () => {
    const fields = [
      'keys',
      'id',
      'n',
      'e',
      'neg',
      'dec',
      'big',
      'ok',
      'int',
      'pair',
      'low',
      'lone',
      'esc',
      't',
      'dup',
      'order',
      'strs',
      'count',
      'a',
      'b',
      'z',
    ];
    const filters = ['.', '.keys', '.keys[]', '.keys[0]', '.keys[1]', '.keys[].order', '.keys[0].order[]', '.keys[0].strs', '.count'];
    let answered = 0;
    for (const filter of filters) {
      for (const field of fields) {
        for (const raw of [true, false]) {
          if (agree(WRITTEN, filter, raw)) answered++;
          if (agree(WRITTEN, `${filter === '.' ? '' : filter}.${field}`, raw)) answered++;
        }
      }
    }
    expect(answered).toBeGreaterThan(filters.length * fields.length);
    const answer = (filter: string, raw = true) => followPath(WRITTEN, plainPath(filter)!, raw);
    expect(answer('.keys[0].id')).toBe('key_1\n');
    expect(answer('.keys[0].t')).toBe('10:30.5, [1.0]\n');
    expect(answer('.keys[0].strs', false)).toBe('["1.0","-0"]\n');
    expect(answer('.keys[0].esc')).toBe('é/\n');
    // jq prints these as the text wrote them (1.0, 1E+2, -0): its own to print, as is any number
    // of a document that writes one of them so.
    for (const filter of ['.keys[0].n', '.keys[0].e', '.keys[0].neg', '.keys[0].big', '.keys[0].ok', '.count', '.keys[1].order'])
      expect(answer(filter), filter).toBeUndefined();
    expect(jqPrints(WRITTEN, '.keys[0] | .n, .e, .neg, .dec, .big', true).output).toBe('1.0\n1E+2\n-0\n0.10\n100000000000000000001\n');
    // A key written twice: its last value, in its first place, for both.
    for (const filter of ['.', '.a', '.[]']) expect(agree('{"a":1,"b":{"c":2},"a":[3.5]}', filter, false), filter).toBe(true);
  });

  it("finds numbers not written in JavaScript's shortest form outside strings only", () => {
    for (const json of ['{"a":"1.0","b":"x\\"1.0\\\\","c":1.5,"d":[0,-1,1e+21,5e-324]}', '"-0"', '[]', '{"\\\\":"\\\\\\"1E2"}', '12'])
      expect(numbersInShortestForm(json), json).toBe(true);
    for (const json of ['1.0', '{"a":-0}', '[1E2]', '{"a":"\\\\","b":1.50}', '[0.10]', '100000000000000000001', '{"a":"x"} 1e21'])
      expect(numbersInShortestForm(json), json).toBe(false);
  });

  it('on random documents and paths', () => {
    let seed = 20261125;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const UNITS = [
      'a',
      'Z',
      ' ',
      '\n',
      '\t',
      '"',
      '\\',
      '/',
      '\x00',
      '\x1f',
      '\x7f',
      '\x80',
      '\u00e9',
      '\u2028',
      '\u202e',
      '\ud83d',
      '\ude00',
      '\ud83d\ude00',
      '0',
      'end',
    ];
    const string = () => Array.from({ length: Math.floor(random() * 5) }, () => pick(UNITS)).join('');
    const number = () => pick([0, -1, 42, 1.5, 0.1 + 0.2, 1e21, 1e-7, 123e-8, 2 ** 53 + 2, -2.5e-5, 1e300, 999999999999999900000]);
    const value = (depth: number): unknown => {
      const kind = depth > 3 ? Math.floor(random() * 4) : Math.floor(random() * 6);
      if (kind === 0) return string();
      if (kind === 1) return number();
      if (kind === 2) return pick([null, true, false]);
      if (kind === 3) return random() < 0.5 ? string() : number();
      if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [pick(FIELDS.slice(0, 8).concat(['0', '7', 'end', 'a'])), value(depth + 1)]),
      );
    };
    // The value's JSON as a service might write it: numbers spelled otherwise where they read back
    // the same, keys in any order, spaces between tokens, escapes in upper case.
    const written = (value: unknown): string => {
      if (typeof value === 'number') {
        const spellings = [
          String(value),
          `${value}.0`,
          value.toExponential(),
          value.toExponential().toUpperCase(),
          value === 0 ? '-0' : '',
        ];
        return pick(spellings.filter((spelling) => /^-?[0-9]/.test(spelling) && Number(spelling) === value));
      }
      if (typeof value === 'string') {
        const json = JSON.stringify(value);
        return random() < 0.5
          ? json
          : json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
      }
      const gap = () => pick(['', ' ', '\n  ']);
      if (Array.isArray(value)) return `[${gap()}${value.map(written).join(`,${gap()}`)}${gap()}]`;
      if (value === null || typeof value !== 'object') return JSON.stringify(value);
      const entries = Object.entries(value).sort(() => random() - 0.5);
      return `{${entries.map(([key, item]) => `${gap()}${JSON.stringify(key)}${gap()}:${written(item)}`).join(',')}}`;
    };
    const step = () => pick(['.a', '.keys', '.id', '.n', '.end_', '[]', '[0]', '[1]', '[-1]', '[]', '.missing']);
    let answered = 0;
    let compared = 0;
    for (let doc = 0; doc < 120; doc++) {
      const document = { a: value(0), keys: value(0), id: value(1), n: value(1) };
      const json = doc % 2 === 0 ? JSON.stringify(document) : written(document);
      for (let path = 0; path < 12; path++) {
        const steps = Array.from({ length: 1 + Math.floor(random() * 4) }, step);
        const filter = steps
          .map((s, i) => (i === 0 && s.startsWith('[') ? `.${s}` : s))
          .join(random() < 0.3 ? ' | .' : '')
          .replace(/\| \.\./g, '| .')
          .replace(/\| \.\[/g, '| .[');
        if (!plainPath(filter)) continue;
        compared++;
        if (agree(json, filter, random() < 0.5)) answered++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(answered).toBeGreaterThan(compared / 4);
  });
});
