import type { CellDelta, Detection } from './compare.js';

const pts = (x: number) => `${(x * 100).toFixed(1)} pts`;
const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;

/** "≥ 12.6 pts", or why no drop can be detected. Plain text: callers escape for their format. */
export function detectDrop(d: Detection): string {
  if (d.drop !== null) return `≥ ${pts(d.drop)}`;
  return d.baseRate <= 0 ? 'none (nothing passes in the baseline)' : 'none (too few cases)';
}

/** "n=200, k=3, baseline 80.0%, flip rate 12.0%" (the flip rate marked when assumed). */
export function detectBasis(d: Detection): string {
  return `n=${d.cases}, k=${d.repeats}, baseline ${pct1(d.baseRate)}, flip rate ${pct1(d.flipRate)}${d.flipMeasured ? '' : ' (assumed: one trial per case)'}`;
}

/** The compared cells, least sensitive first (a cell that cannot detect anything before all), then by name. */
export function bySensitivity(cells: readonly CellDelta[]): CellDelta[] {
  const key = (c: CellDelta) => c.detect.drop ?? Number.POSITIVE_INFINITY;
  return [...cells].sort(
    (x, y) =>
      key(y) - key(x) ||
      x.renderer.localeCompare(y.renderer) ||
      x.provider.localeCompare(y.provider) ||
      x.grader.localeCompare(y.grader),
  );
}

/** The range of detectable drops over cells, e.g. "7.1–18.7 pts"; null when no cell was compared. */
export function detectRange(cells: readonly CellDelta[]): string | null {
  const drops = cells.map((c) => c.detect.drop);
  if (!drops.length) return null;
  const known = drops.filter((d): d is number => d !== null);
  if (!known.length) return 'none';
  const lo = Math.min(...known);
  const hi = Math.max(...known);
  const range = lo === hi ? pts(lo) : `${(lo * 100).toFixed(1)}–${pts(hi)}`;
  return known.length < drops.length ? `${range} (${drops.length - known.length} cell(s): none)` : range;
}

/** Cells that detect no drop, grouped by grader and reason: "no-call in 20 cell(s) (too few cases, n ≤ 9)". */
export function undetectableGroups(cells: readonly CellDelta[]): string[] {
  const groups = new Map<string, CellDelta[]>();
  for (const c of cells) {
    if (c.detect.drop !== null) continue;
    const reason = c.detect.baseRate <= 0 ? 'nothing passes in the baseline' : 'too few cases';
    const key = `${c.grader}\u0000${reason}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups].map(([key, list]) => {
    const [grader = '', reason = ''] = key.split('\u0000');
    const where =
      list.length <= 2 ? list.map((c) => `${c.renderer} × ${c.provider}`).join(', ') : `${list.length} cells`;
    const most = Math.max(...list.map((c) => c.detect.cases));
    return `${grader} in ${where} (${reason}${reason === 'too few cases' ? `, n ≤ ${most}` : ''})`;
  });
}
