import type { RunSnapshot, Tally } from './snapshot.js';
import { mcnemarExact } from './stats.js';

export type Verdict = 'pass' | 'fail' | 'flaky';

export interface Flip {
  /** suite/case|renderer|provider */
  key: string;
  grader: string;
  from: Verdict;
  to: Verdict;
  base: Tally;
  run: Tally;
}

export interface CellDelta {
  renderer: string;
  provider: string;
  grader: string;
  /** Tallies over the cases both runs graded (the paired comparison). */
  base: Tally;
  run: Tally;
  /** run rate − baseline rate, on the paired cases. */
  delta: number;
  /** Discordant trials: pass→fail and fail→pass. */
  worse: number;
  better: number;
  /** Exact McNemar p-value, and after Holm's correction over all cell × grader comparisons. */
  p: number;
  pAdjusted: number;
  significant: boolean;
  /** A significant drop larger than `maxRegression`. */
  regression: boolean;
}

export interface CompareOptions {
  /** Family-wise significance level (Holm-corrected over every cell × grader). */
  alpha: number;
  /** Largest drop in pass rate tolerated even when significant (0.05 = five points). */
  maxRegression: number;
}

export interface CompareResult {
  baseRunId: string;
  runId: string;
  configChanged: boolean;
  options: CompareOptions;
  cells: CellDelta[];
  flips: Flip[];
  /** Case keys (suite/case|renderer|provider) only in the run, or only in the baseline. */
  added: string[];
  removed: string[];
}

export const DEFAULT_COMPARE: CompareOptions = { alpha: 0.05, maxRegression: 0.05 };

function verdict([pass, n]: Tally): Verdict {
  return pass === n ? 'pass' : pass === 0 ? 'fail' : 'flaky';
}

function cellOf(key: string): string {
  return key.slice(key.indexOf('|') + 1);
}

/**
 * Pairs two runs case by case. Per cell and grader, trials are paired within each case (equal repeats pair
 * one to one; otherwise rates are scaled to the smaller count), and the discordant pairs go to an exact
 * McNemar test; p-values are Holm-corrected over every comparison so that a wide matrix of noisy cells does
 * not produce a false regression by chance. Pure.
 */
export function compareSnapshots(
  base: RunSnapshot,
  run: RunSnapshot,
  options: CompareOptions = DEFAULT_COMPARE,
): CompareResult {
  const flips: Flip[] = [];
  const acc = new Map<string, { base: Tally; run: Tally; worse: number; better: number }>();
  const added = Object.keys(run.cases)
    .filter((k) => !(k in base.cases))
    .sort();
  const removed = Object.keys(base.cases)
    .filter((k) => !(k in run.cases))
    .sort();
  for (const key of Object.keys(run.cases).sort()) {
    const b = base.cases[key];
    const r = run.cases[key];
    if (!b || !r) continue;
    for (const grader of Object.keys(r).sort()) {
      const bt = b[grader];
      const rt = r[grader];
      if (!bt || !rt || bt[1] === 0 || rt[1] === 0) continue;
      const from = verdict(bt);
      const to = verdict(rt);
      if (from !== to) flips.push({ key, grader, from, to, base: bt, run: rt });
      const m = Math.min(bt[1], rt[1]);
      const diff = Math.round((bt[0] / bt[1] - rt[0] / rt[1]) * m);
      const id = `${cellOf(key)}\u0000${grader}`;
      const a = acc.get(id) ?? { base: [0, 0], run: [0, 0], worse: 0, better: 0 };
      a.base = [a.base[0] + bt[0], a.base[1] + bt[1]];
      a.run = [a.run[0] + rt[0], a.run[1] + rt[1]];
      if (diff > 0) a.worse += diff;
      else a.better -= diff;
      acc.set(id, a);
    }
  }
  const cells: CellDelta[] = [];
  for (const [id, a] of acc) {
    const [cell = '', grader = ''] = id.split('\u0000');
    const meta = run.cells[cell] ?? base.cells[cell];
    const p = mcnemarExact(a.worse, a.better);
    cells.push({
      renderer: meta?.renderer ?? cell.split('|')[0] ?? cell,
      provider: meta?.provider ?? cell.split('|').slice(1).join('|'),
      grader,
      base: a.base,
      run: a.run,
      delta: a.run[0] / a.run[1] - a.base[0] / a.base[1],
      worse: a.worse,
      better: a.better,
      p,
      pAdjusted: p,
      significant: false,
      regression: false,
    });
  }
  holm(cells, options.alpha);
  for (const c of cells) c.regression = c.significant && c.delta < 0 && -c.delta > options.maxRegression + 1e-9;
  cells.sort(
    (x, y) =>
      x.delta - y.delta ||
      x.renderer.localeCompare(y.renderer) ||
      x.provider.localeCompare(y.provider) ||
      x.grader.localeCompare(y.grader),
  );
  return {
    baseRunId: base.runId,
    runId: run.runId,
    configChanged: base.configHash !== run.configHash,
    options,
    cells,
    flips,
    added,
    removed,
  };
}

/** Holm–Bonferroni step-down: sets pAdjusted (monotone) and significant at family-wise level alpha. */
function holm(cells: CellDelta[], alpha: number): void {
  const order = [...cells].sort((a, b) => a.p - b.p);
  const m = order.length;
  let running = 0;
  order.forEach((c, i) => {
    running = Math.max(running, Math.min(1, (m - i) * c.p));
    c.pAdjusted = running;
    c.significant = running < alpha;
  });
}
