import type { RunAggregate } from '../run-log/aggregate.js';

/** A case whose repeats disagree in one cell for one grader. */
export interface FlakyCase {
  /** suite/case|renderer|provider */
  key: string;
  renderer: string;
  provider: string;
  grader: string;
  pass: number;
  n: number;
}

/** One cell × grader with flaky cases: how many, and what they cost (pass@1 against pass^k). */
export interface FlakyCell {
  renderer: string;
  provider: string;
  grader: string;
  flaky: number;
  /** Cases graded at least twice here. */
  repeated: number;
  passAt1: number;
  /** τ-bench's pass^k at the run's repeats (null when no case has k graded trials). */
  passHatK: number | null;
}

export interface FlakyReport {
  /** Repeats of the run (k of pass^k). */
  repeats: number;
  cells: FlakyCell[];
  total: number;
  /** The flakiest cases (closest to half passing first), at most the limit asked for. */
  cases: FlakyCase[];
}

/** How far from a coin toss: 0 for half passing, ½ for a case that always or never passes. */
const steadiness = (c: FlakyCase) => Math.abs(c.pass / c.n - 0.5);
const order = (x: FlakyCase, y: FlakyCase) =>
  steadiness(x) - steadiness(y) || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0);

/**
 * The cases whose outcome flips between repeats of the same configuration (same cell, same run), per cell × grader:
 * they are what makes pass^k fall below pass@1 and what makes the gate noisy. Empty without repeats. Pure; memory
 * bounded by `maxCases` however many cases flip.
 */
export function flakyCases(agg: RunAggregate, maxCases = 20): FlakyReport {
  const perCell = new Map<string, FlakyCell>();
  let kept: FlakyCase[] = [];
  let total = 0;
  for (const c of agg.casesInRunOrder()) {
    for (const g of c.graders) {
      if (g.n < 2) continue;
      const id = `${c.cell.renderer}|${c.cell.provider}\u0000${g.grader}`;
      let cell = perCell.get(id);
      if (!cell) {
        const t = c.cell.graders.get(g.grader);
        cell = {
          renderer: c.cell.renderer,
          provider: c.cell.provider,
          grader: g.grader,
          flaky: 0,
          repeated: 0,
          passAt1: t?.n ? t.pass / t.n : 0,
          passHatK: agg.passHatK(c.cell.renderer, c.cell.provider, g.grader),
        };
        perCell.set(id, cell);
      }
      cell.repeated++;
      if (g.pass === 0 || g.pass === g.n) continue;
      cell.flaky++;
      total++;
      kept.push({
        key: `${c.caseId}|${c.cell.renderer}|${c.cell.provider}`,
        renderer: c.cell.renderer,
        provider: c.cell.provider,
        grader: g.grader,
        pass: g.pass,
        n: g.n,
      });
      if (kept.length > 4 * maxCases + 64) kept = kept.sort(order).slice(0, maxCases);
    }
  }
  const cells = [...perCell.values()]
    .filter((c) => c.flaky > 0)
    .sort((x, y) => y.flaky / y.repeated - x.flaky / x.repeated || x.renderer.localeCompare(y.renderer));
  return { repeats: agg.repeats, cells, total, cases: kept.sort(order).slice(0, maxCases) };
}
