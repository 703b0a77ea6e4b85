// "Did you mean …?" for a mistyped command, help topic or a flag typed as a command
// (`wsctl version` → `--version`). Only close matches are offered: commander's own guess
// turned `version` into `persona`.

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

export interface Candidate {
  /** What the user might have meant to type, as matched (`keys`, `version`). */
  word: string;
  /** What to suggest (`keys`, `--version`). */
  suggest: string;
}

/** The closest candidates, when they are close: one edit for short words, two from eight letters. */
export function closest(word: string, candidates: Candidate[]): string | undefined {
  const typed = word.toLowerCase();
  const limit = typed.length >= 8 ? 2 : 1;
  let best: string[] = [];
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = distance(typed, c.word);
    if (d > limit) continue;
    if (d < bestDistance) [best, bestDistance] = [[c.suggest], d];
    else if (d === bestDistance && !best.includes(c.suggest)) best.push(c.suggest);
  }
  return best.length > 0 ? best.join("' or '") : undefined;
}

/** Flags that people type as commands: `version`, `help`. */
export function flagCandidates(longFlags: string[]): Candidate[] {
  return longFlags.filter((f) => f.startsWith('--')).map((f) => ({ word: f.slice(2), suggest: f }));
}

/** " Did you mean 'blog'?" for a mistyped choice, or nothing. */
export function didYouMean(value: string, choices: readonly string[]): string {
  const guess = closest(
    value,
    choices.map((c) => ({ word: c, suggest: c })),
  );
  return guess ? ` Did you mean '${guess}'?` : '';
}
