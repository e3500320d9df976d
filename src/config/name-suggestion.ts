/** Few names are enough to spot the one meant; a catalog of hundreds would drown the message. */
const MAX_NAMES_SHOWN = 12;

export function listNames(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMES_SHOWN).join(', ');
  return names.length > MAX_NAMES_SHOWN ? `${shown}, … (${names.length} in all)` : shown || '(none)';
}

/** Edit distance (Levenshtein), for suggesting the name a typo meant. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** ` (did you mean 'x'?)` for the nearest name within a few edits, else nothing. */
export function suggestion(name: string, candidates: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = distance(name, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best === undefined ? '' : ` (did you mean '${best}'?)`;
}
