/**
 * Edit distance with transpositions (optimal string alignment): insertions, deletions, substitutions and swaps of
 * two neighbours each cost 1. Written here because it is a dozen lines and every package offering it is larger than
 * the need (commander keeps its own copy private).
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The valid word closest to a mistyped one (case aside), when it is close enough to be what was meant: at most a
 * third of its letters off (at least one). Undefined otherwise.
 */
export function closest(word: string, valid: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const v of valid) {
    const d = editDistance(w, v.toLowerCase());
    if (d < bestDistance) {
      best = v;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(w.length / 3)) ? best : undefined;
}
