import type { CompareResult } from '../report/compare.js';
import { bySensitivity, detectBasis, detectDrop, detectRange, undetectableGroups } from '../report/detect-text.js';

/** Cells listed one by one on the terminal (least sensitive first); the rest are in summary.md and compare.md. */
const MAX_CELL_LINES = 5;

/**
 * The gate's lines on what it could have seen: the smallest drop each compared cell detects with 80% power (least
 * sensitive first, at most MAX_CELL_LINES), so a green gate reads as "no regression this suite can see". Pure.
 */
export function detectLines(comparison: CompareResult): string[] {
  const cells = bySensitivity(comparison.cells);
  const range = detectRange(cells);
  if (range === null) return [];
  const power = Math.round((cells[0]?.detect.power ?? 0.8) * 100);
  const lines = [`gate: detects drops of ${range} with ${power}% power (per cell × grader, from the baseline):`];
  const detecting = cells.filter((c) => c.detect.drop !== null);
  for (const c of detecting.slice(0, MAX_CELL_LINES)) {
    lines.push(
      `gate:   ${c.grader} in ${c.renderer} × ${c.provider}: ${detectDrop(c.detect)} (${detectBasis(c.detect)})`,
    );
  }
  if (detecting.length > MAX_CELL_LINES)
    lines.push(`gate:   … ${detecting.length - MAX_CELL_LINES} more in summary.md and compare.md`);
  for (const group of undetectableGroups(cells)) lines.push(`gate:   no drop detectable: ${group}`);
  return lines;
}
