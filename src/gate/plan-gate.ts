import type { CompareOptions } from '../report/compare.js';
import { casesNeeded, detectableDrop, flipRate, type GateRule, type NoiseModel } from '../report/gate-power.js';
import { baselineNoise } from '../report/paired-cases.js';
import type { RunSnapshot, Tally } from '../report/snapshot.js';

export interface PlanInput {
  baseline: RunSnapshot;
  options: CompareOptions;
  /** The drop to detect (absolute, 0..1) and the power to detect it with. */
  drop: number;
  power: number;
  /** Repeats to plan for. */
  repeats: number[];
  /** Only these graders (default: every grader of the baseline). */
  graders?: string[];
}

/** One cell × grader of the baseline, as the plan sees it. */
export interface PlanCell {
  renderer: string;
  provider: string;
  grader: string;
  noise: NoiseModel;
  flipRate: number;
  /** The share of the cell's cases this grader grades (a grader may apply to some cases only, e.g. no-call). */
  share: number;
}

export interface PlanRow {
  repeats: number;
  /**
   * Cases per cell (of the suite, in its current mix: a grader that grades a third of them needs three times its own
   * count) needed for every planned cell to catch the drop; null: no number of cases does.
   */
  cases: number | null;
  /** The cell that needs the most cases (the one that sets `cases`). */
  binding: PlanCell | null;
  /**
   * What the baseline's own number of cases detects at these repeats: the largest figure over the cells that detect
   * any drop (null when none does), and how many cells detect none.
   */
  detectsNow: number | null;
  detectsNothing: number;
}

export interface Plan {
  cells: PlanCell[];
  /** Cells the drop cannot happen in (baseline pass rate below it): left out. */
  tooLow: PlanCell[];
  /** Cell × grader comparisons the gate makes (Holm's family). */
  comparisons: number;
  /** renderer × provider cells: each case runs once per cell and repeat. */
  cellCount: number;
  /** Cases per cell in the baseline (the largest). */
  casesNow: number;
  rule: GateRule;
  rows: PlanRow[];
}

/**
 * For each number of repeats, the cases per cell with which the gate catches a drop of `drop` in every cell × grader
 * of the baseline with probability `power` (gatePower's model: cases like the baseline's, the baseline made with the
 * same repeats as the run). Pure.
 */
export function planGate(input: PlanInput): Plan {
  const perCell = new Map<string, Tally[]>();
  const casesOfCell = new Map<string, number>();
  for (const [key, graders] of Object.entries(input.baseline.cases)) {
    const cell = key.slice(key.indexOf('|') + 1);
    casesOfCell.set(cell, (casesOfCell.get(cell) ?? 0) + 1);
    for (const [grader, t] of Object.entries(graders)) {
      if (t[1] === 0) continue;
      const id = `${cell}\u0000${grader}`;
      let list = perCell.get(id);
      if (!list) {
        list = [];
        perCell.set(id, list);
      }
      list.push(t);
    }
  }
  const all: PlanCell[] = [];
  for (const [id, tallies] of perCell) {
    const [cell = '', grader = ''] = id.split('\u0000');
    const meta = input.baseline.cells[cell];
    const noise = baselineNoise(tallies);
    all.push({
      renderer: meta?.renderer ?? cell.split('|')[0] ?? cell,
      provider: meta?.provider ?? cell.split('|').slice(1).join('|'),
      grader,
      noise,
      flipRate: flipRate(noise),
      share: noise.cases / (casesOfCell.get(cell) ?? noise.cases),
    });
  }
  all.sort(
    (x, y) =>
      x.renderer.localeCompare(y.renderer) || x.provider.localeCompare(y.provider) || x.grader.localeCompare(y.grader),
  );
  const comparisons = all.length;
  const wanted = input.graders?.length ? new Set(input.graders) : null;
  const planned = all.filter((c) => !wanted || wanted.has(c.grader));
  const cells = planned.filter((c) => c.noise.rate >= input.drop);
  const tooLow = planned.filter((c) => c.noise.rate < input.drop);
  const rule: GateRule = { alpha: input.options.alpha, comparisons, maxRegression: input.options.maxRegression };
  const casesNow = Math.max(0, ...casesOfCell.values());
  const rows = input.repeats.map((k): PlanRow => {
    let cases: number | null = 0;
    let binding: PlanCell | null = null;
    let detectsNow: number | null = null;
    let detectsNothing = 0;
    for (const c of cells) {
      const graded = casesNeeded(c.noise, rule, input.drop, k, input.power);
      const need = graded === null ? null : Math.ceil(graded / c.share - 1e-9);
      if (need === null) {
        cases = null;
        binding = c;
      } else if (cases !== null && need > cases) {
        cases = need;
        binding = c;
      }
      const now = detectableDrop(
        { ...c.noise, invRepeatsBase: 1 / k, invRepeatsRun: 1 / k, scale: k },
        rule,
        input.power,
      );
      if (now === null) detectsNothing++;
      else detectsNow = Math.max(detectsNow ?? 0, now);
    }
    if (!cells.length) return { repeats: k, cases: null, binding: null, detectsNow: null, detectsNothing: 0 };
    return { repeats: k, cases, binding, detectsNow, detectsNothing };
  });
  return { cells, tooLow, comparisons, cellCount: Object.keys(input.baseline.cells).length, casesNow, rule, rows };
}
