// A unified diff of two texts, for `mcp install --dry-run`: the edit is one entry, so the common
// head and tail are cut first and only the few lines between are compared (longest common
// subsequence), which stays quick on a config file of many megabytes (~/.claude.json grows so).

type Op = { kind: ' ' | '-' | '+'; line: string };

const CONTEXT = 3;
/** Past this many cells the middle is shown as removed then added, rather than compared. */
const MAX_CELLS = 4_000_000;

function lines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  else all[all.length - 1] += '\n\\ No newline at end of file';
  return all;
}

function middle(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_CELLS)
    return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: '-', line: a[i++]! });
    else ops.push({ kind: '+', line: b[j++]! });
  }
  return ops;
}

/** The unified diff from `before` to `after` (empty when they are equal); a missing file is /dev/null. */
export function unifiedDiff(before: string | undefined, after: string, name: string): string {
  const a = lines(before ?? '');
  const b = lines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  if (head === a.length && head === b.length) return '';
  const ops: Op[] = [
    ...a.slice(0, head).map((line) => ({ kind: ' ' as const, line })),
    ...middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((line) => ({ kind: ' ' as const, line })),
  ];
  const out = [`--- ${before === undefined ? '/dev/null' : name}`, `+++ ${name}`];
  // Hunks: the changes with CONTEXT lines around them, runs closer than 2 × CONTEXT joined.
  let k = 0;
  while (k < ops.length) {
    while (k < ops.length && ops[k]!.kind === ' ') k++;
    if (k === ops.length) break;
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    for (let quiet = 0; end < ops.length; end++) {
      quiet = ops[end]!.kind === ' ' ? quiet + 1 : 0;
      if (quiet > 2 * CONTEXT) break;
    }
    end = Math.min(ops.length, end);
    end -= Math.max(0, countTrailing(ops, end) - CONTEXT);
    const hunk = ops.slice(start, end);
    const oldStart = ops.slice(0, start).filter((o) => o.kind !== '+').length;
    const newStart = ops.slice(0, start).filter((o) => o.kind !== '-').length;
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
    k = end;
  }
  return `${out.join('\n')}\n`;
}

function countTrailing(ops: Op[], end: number): number {
  let n = 0;
  while (end - 1 - n >= 0 && ops[end - 1 - n]!.kind === ' ') n++;
  return n;
}

function range(start: number, count: number): string {
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}
