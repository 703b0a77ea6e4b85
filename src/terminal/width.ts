// Columns a string takes on a terminal, grapheme by grapheme (cli.md §3): wide CJK and emoji
// (flags, keycaps, joined families) two, combining marks none, and cuts only between graphemes.
//
// East Asian widths come from get-east-asian-width (Unicode's tables, maintained); emoji from
// the Unicode properties of regular expressions. Intl.Segmenter (ICU, 13-25 ms on first use
// here) and /\p{RGI_Emoji}/v (~27 ms to compile on Node 20) are too slow to start every
// command that prints a non-ASCII cell, so graphemes are found by the rules of UAX #29 that
// matter on a terminal, and test/terminal/width.test.ts checks them against both, and against
// string-width, on generated text.
import { eastAsianWidth } from 'get-east-asian-width';

const ASCII = /^[\x20-\x7e]*$/;
const KEYCAP = /^[\d#*]\ufe0f?\u20e3$/;

/** Classes of Unicode properties, which V8 builds from ICU's tables. */
interface Classes {
  /** Extends the grapheme before it (Grapheme_Extend, SpacingMark, emoji modifiers, tags). */
  extend: RegExp;
  pictographic: RegExp;
  /** UAX #29's Extend, without spacing marks: what may stand between a pictograph and its joiner. */
  graphemeExtend: RegExp;
  spacingMark: RegExp;
  modifierBase: RegExp;
  /** Nothing to show: marks and format characters on their own, controls, default-ignorables. */
  invisible: RegExp;
}

let madeClasses: Classes | undefined;

/**
 * The classes, made on first use: a literal run from V8's code cache builds its class as it is
 * made (1.2-1.6 ms for these, Node 24), and every command loads this module while most print only
 * ASCII.
 */
function classes(): Classes {
  madeClasses ??= {
    extend: /[\p{M}\u200c\uff9e\uff9f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u,
    pictographic: /\p{Extended_Pictographic}/u,
    graphemeExtend: /[\p{Grapheme_Extend}\p{Emoji_Modifier}]/u,
    spacingMark: /\p{Mc}/u,
    modifierBase: /\p{Emoji_Modifier_Base}/u,
    invisible: /[\p{Mn}\p{Me}\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}\p{Cs}]/u,
  };
  return madeClasses;
}

const ZWJ = 0x200d;
const isRegional = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;
const isModifier = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;
type Jamo = 'L' | 'V' | 'T' | 'LV' | 'LVT' | undefined;
function jamo(cp: number): Jamo {
  if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0xa960 && cp <= 0xa97c)) return 'L';
  if ((cp >= 0x1160 && cp <= 0x11a7) || (cp >= 0xd7b0 && cp <= 0xd7c6)) return 'V';
  if ((cp >= 0x11a8 && cp <= 0x11ff) || (cp >= 0xd7cb && cp <= 0xd7fb)) return 'T';
  if (cp >= 0xac00 && cp <= 0xd7a3) return (cp - 0xac00) % 28 === 0 ? 'LV' : 'LVT';
  return undefined;
}

/** Whether a grapheme break lies between prev and next (UAX #29 GB6-GB9, GB11-GB13). */
function joins(prev: number, next: number, nextChar: string, state: { pictographic: boolean; regionals: number }, u: Classes): boolean {
  if (next === ZWJ || u.extend.test(nextChar)) return true;
  if (prev === ZWJ) return state.pictographic && u.pictographic.test(nextChar);
  if (isRegional(prev) && isRegional(next)) return state.regionals % 2 === 1;
  const a = jamo(prev);
  if (a === undefined) return false;
  const b = jamo(next);
  if (a === 'L') return b === 'L' || b === 'V' || b === 'LV' || b === 'LVT';
  if (a === 'LV' || a === 'V') return b === 'V' || b === 'T';
  return b === 'T';
}

/** The graphemes of text, in order, with no controls left (cleanLine first). */
export function* graphemes(text: string): Generator<string> {
  let start = 0;
  let prev = -1;
  const state = { pictographic: false, regionals: 0 };
  const u = classes();
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i) as number;
    const size = cp > 0xffff ? 2 : 1;
    const ch = text.slice(i, i + size);
    if (prev >= 0 && !joins(prev, cp, ch, state, u)) {
      yield text.slice(start, i);
      start = i;
      state.pictographic = false;
      state.regionals = 0;
    }
    if (i === start) state.pictographic = u.pictographic.test(ch);
    else if (u.pictographic.test(ch)) state.pictographic = prev === ZWJ || state.pictographic;
    // GB11: ExtPict Extend* ZWJ × ExtPict; anything else after the joiner ends the chance.
    else if (prev === ZWJ || (cp !== ZWJ && !u.graphemeExtend.test(ch))) state.pictographic = false;
    if (isRegional(cp)) state.regionals++;
    prev = cp;
    i += size;
  }
  if (i > start) yield text.slice(start, i);
}

/** Columns one grapheme takes. */
export function graphemeWidth(cluster: string): number {
  if (cluster.length === 1 && cluster >= ' ' && cluster <= '~') return 1;
  const u = classes();
  const chars = Array.from(cluster);
  const base = chars.findIndex((c) => !u.invisible.test(c));
  if (base < 0) return 0;
  const first = chars[base] as string;
  const cp = first.codePointAt(0) as number;
  // Emoji: a flag, a keycap, a joined sequence, or a pictograph asked to show as emoji.
  if (isRegional(cp) && isRegional(chars[base + 1]?.codePointAt(0) ?? 0)) return 2;
  if (KEYCAP.test(cluster)) return 2;
  if (u.pictographic.test(first)) {
    const next = chars[base + 1]?.codePointAt(0) ?? 0;
    if (next === 0xfe0f || (isModifier(next) && u.modifierBase.test(first))) return 2;
    if (chars.includes('\u200d') && chars.filter((c) => u.pictographic.test(c)).length >= 2) return 2;
  }
  // Hangul jamo: a leading consonant with its vowel (and final) is one syllable block.
  if (jamo(cp) === 'L' || jamo(cp) === 'V' || jamo(cp) === 'T') {
    let width = 0;
    for (let i = base; i < chars.length; i++) {
      const c = chars[i]?.codePointAt(0) as number;
      if (jamo(c) === 'L' && jamo(chars[i + 1]?.codePointAt(0) ?? 0) === 'V') {
        width += 2;
        i += jamo(chars[i + 2]?.codePointAt(0) ?? 0) === 'T' ? 2 : 1;
      } else if (!u.invisible.test(chars[i] as string)) width += eastAsianWidth(c);
    }
    return width;
  }
  // Everything else: the base's East Asian width, plus spacing marks and halfwidth forms after it.
  let width = eastAsianWidth(cp);
  for (let i = base + 1; i < chars.length; i++) {
    const c = chars[i] as string;
    if (u.spacingMark.test(c) || (c >= '\uff00' && c <= '\uffef')) width += eastAsianWidth(c.codePointAt(0) as number);
  }
  return width;
}

/** Columns text takes on a terminal (after cleanLine: no controls left). */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  for (const cluster of graphemes(text)) width += graphemeWidth(cluster);
  return width;
}

const printable = (code: number) => code >= 0x20 && code <= 0x7e;

/**
 * How many UTF-16 units of text's start fit in width columns, ending between graphemes. Reads
 * only as far as it needs, so a line of 10 MB costs what its first columns cost.
 */
export function prefixLength(text: string, width: number): number {
  let i = 0;
  const ascii = Math.min(text.length, Math.max(0, width));
  while (i < ascii && printable(text.charCodeAt(i))) i++;
  if (i === text.length) return i;
  // Two printable ASCII characters always have a grapheme boundary between them; any other may
  // extend the one before (e + U+0301), so that one is measured again with what follows.
  if (i === width && printable(text.charCodeAt(i))) return i;
  if (i > 0) i--;
  let used = i;
  for (const cluster of graphemes(text.slice(i))) {
    const w = graphemeWidth(cluster);
    if (used + w > width) break;
    used += w;
    i += cluster.length;
  }
  return i;
}

/** The longest start of text that fits in width columns, ending in … when cut; never inside a grapheme. */
export function truncate(text: string, width: number): string {
  if (prefixLength(text, width) === text.length) return text;
  if (width <= 0) return '';
  return `${text.slice(0, prefixLength(text, width - 1))}…`;
}
