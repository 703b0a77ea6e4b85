// Terminal widths (cli.md §3) against the slow references: graphemes as Intl.Segmenter finds
// them, emoji as /\p{RGI_Emoji}/v knows them, and string-width's columns, on generated text.
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { wrap } from '../../src/terminal/format.js';
import { displayWidth, graphemes, truncate } from '../../src/terminal/width.js';

/** No lone surrogate: nothing was cut inside a character. */
const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
const segmenter = new Intl.Segmenter();
const reference = (text: string) => Array.from(segmenter.segment(text), (s) => s.segment);

// Pieces that meet at every kind of grapheme boundary a terminal cares about.
const PIECES = [
  'a',
  'Z',
  ' ',
  '-',
  '…',
  'é',
  'e\u0301',
  '\u0301',
  '\u0308',
  '\u20dd',
  '中',
  '文',
  'ｱ',
  'ﾞ',
  'Ａ',
  '한',
  '\u1100',
  '\u1161',
  '\u11a8',
  '\u3164',
  '🚀',
  '☕',
  '🫠',
  '❤',
  '\ufe0f',
  '\ufe0e',
  '☝',
  '🏻',
  '🏽',
  '\u200d',
  '👨',
  '👩',
  '👧',
  '🏳',
  '🌈',
  '⚧',
  '🇫',
  '🇷',
  '🇯',
  '🇵',
  '1',
  '#',
  '\u20e3',
  '©',
  '™',
  '↔',
  'Ω',
  'я',
  'ا',
  'ב',
  '\u0915',
  '\u093f',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => parts.join(''));

describe('terminal widths', () => {
  it('the cases people see: emoji, flags, joined families, keycaps, CJK, combining marks', () => {
    const cases: [string, number][] = [
      ['🚀', 2],
      ['☕', 2],
      ['🫠', 2],
      ['🇫🇷', 2],
      ['👨‍👩‍👧', 2],
      ['👍🏽', 2],
      ['❤️', 2],
      ['❤', 1],
      ['1️⃣', 2],
      ['🏳️‍🌈', 2],
      ['\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}', 2],
      ['\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', 2],
      ['中文', 4],
      ['ｱ', 1],
      ['e\u0301', 1],
      ['\u0301', 0],
      ['한글', 4],
      ['\u1100\u1161\u11a8', 2],
      ['abc', 3],
    ];
    for (const [s, w] of cases) expect(displayWidth(s), JSON.stringify(s)).toBe(w);
  });

  it('graphemes are the ones Intl.Segmenter finds', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect([...graphemes(s)]).toEqual(reference(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('a grapheme that is one RGI emoji takes two columns', () => {
    const rgi = new RegExp('^\\p{RGI_Emoji}$', 'v');
    fc.assert(
      fc.property(text, (s) => {
        for (const g of graphemes(s)) if (rgi.test(g)) expect(displayWidth(g), JSON.stringify(g)).toBe(2);
      }),
      { numRuns: 3000 },
    );
  });

  it("widths are string-width's, but for emoji-like sequences that are no RGI emoji, where terminals differ", () => {
    const rgi = new RegExp('^\\p{RGI_Emoji}$', 'v');
    // A pair of regional indicators that names no country (🇷🇷), a pictograph with a stray joiner
    // or selector: string-width asks the RGI list (27 ms to load); they count as emoji here.
    const doubtful = (g: string) => !rgi.test(g) && /[\u{1f1e6}-\u{1f1ff}\u200d\ufe0f\u{1f3fb}-\u{1f3ff}]/u.test(g);
    fc.assert(
      fc.property(text, (s) => {
        let sure = '';
        for (const g of graphemes(s)) {
          if (doubtful(g)) expect([stringWidth(g), 2], JSON.stringify(g)).toContain(displayWidth(g));
          else sure += g;
        }
        expect(displayWidth(sure), JSON.stringify(sure)).toBe(stringWidth(sure));
      }),
      { numRuns: 5000 },
    );
  });

  it('a cut fits, ends in … only when something was cut, and never splits a grapheme or a surrogate pair', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 30 }), (s, width) => {
        const cut = truncate(s, width);
        expect(displayWidth(cut)).toBeLessThanOrEqual(Math.max(0, width));
        if (displayWidth(s) <= width) {
          expect(cut).toBe(s);
          return;
        }
        if (width <= 0) {
          expect(cut).toBe('');
          return;
        }
        expect(cut.endsWith('…')).toBe(true);
        const kept = cut.slice(0, -1);
        expect(s.startsWith(kept)).toBe(true);
        expect(reference(s).join('').length).toBe(s.length);
        // The kept part ends on a grapheme boundary of the whole text.
        const bounds = new Set([0]);
        let at = 0;
        for (const g of reference(s)) bounds.add((at += g.length));
        expect(bounds.has(kept.length), JSON.stringify([s, kept])).toBe(true);
        expect(wellFormed(kept)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('wrapped lines fit, keep every character, and break only between graphemes', () => {
    const words = fc.array(fc.oneof(text, fc.constant(' '), fc.constant('a'.repeat(30))), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(words, fc.integer({ min: 22, max: 80 }), (s, width) => {
        const lines = wrap(s, width, '  ').split('\n');
        const bounds = new Set([0]);
        let at = 0;
        for (const g of reference(s)) bounds.add((at += g.length));
        let pos = 0;
        lines.forEach((line, i) => {
          expect(displayWidth(line), JSON.stringify(line)).toBeLessThanOrEqual(width);
          const content = line.slice(2);
          expect(s.startsWith(content, pos), JSON.stringify([s, lines])).toBe(true);
          pos += content.length;
          expect(bounds.has(pos), JSON.stringify([s, lines])).toBe(true);
          if (i < lines.length - 1 && s[pos] === ' ') pos++;
        });
        expect(pos).toBe(s.length);
      }),
      { numRuns: 2000 },
    );
  });
});
