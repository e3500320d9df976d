import type { CaseCounts, RunAggregate } from '../run-log/aggregate.js';
import { PairedCases } from './paired-cases.js';
import { signFlipTest } from './sign-flip.js';
import { wilson } from './wilson.js';

/** One strategy (renderer) of one provider, for one grader, and how it compares with the provider's best. */
export interface StrategyRow {
  renderer: string;
  pass: number;
  n: number;
  rate: number;
  wilson95: [number, number];
  /** Mean prompt tokens per case (the local o200k estimate), as run.json's promptTokensMean. */
  promptTokensMean: number;
  /**
   * The strategy every other one of the provider is paired with: the highest pass rate, fewer prompt tokens breaking a
   * tie (then the first listed).
   */
  reference: boolean;
  /** Ahead of every other strategy of the provider: the only one with the highest pass rate (never alone). */
  best: boolean;
  /** Shares the highest pass rate with another strategy: a tie, and no strategy is marked best. */
  tie: boolean;
  /** Paired with the reference on the cases both graded; null for the reference itself or with no shared case. */
  vsBest: null | PairedDiff;
}

/** A paired comparison of two strategies on the same cases (trials paired within each case). */
export interface PairedDiff {
  /** Paired trials. */
  pairs: number;
  /** Paired cases (each case counts once, whatever its repeats). */
  cases: number;
  /** This strategy's rate and the best's rate on the paired trials. */
  rate: number;
  bestRate: number;
  /**
   * rate − bestRate, with a 95% interval: Newcombe's hybrid score interval for paired proportions when every case has
   * one trial each; with repeats, the normal interval of the mean per-case difference (cases are the independent
   * units, so repeats of a case are never counted as independent pairs).
   */
  diff: number;
  ci95: [number, number];
  /** Discordant pairs: only this strategy passed / only the best passed. */
  onlyThis: number;
  onlyBest: number;
  /**
   * The exact paired sign-flip test on per-case differences (the test `compare` uses: the exact McNemar test when
   * every case has one trial), and Holm-corrected over the provider's comparisons for this grader.
   */
  p: number;
  pAdjusted: number;
  significant: boolean;
}

export interface StrategyComparison {
  provider: string;
  simulated: boolean;
  grader: string;
  /** The strategy ahead of every other (null in a tie or with one strategy). */
  best: string | null;
  /** The strategy the others are paired with (see StrategyRow.reference). */
  reference: string;
  rows: StrategyRow[];
}

/** Newcombe (1998) method 10: the interval of p1 − p2 for paired proportions from a 2×2 table (a both pass). */
export function pairedDiffInterval(a: number, b: number, c: number, d: number): [number, number] {
  const n = a + b + c + d;
  if (n === 0) return [-1, 1];
  const p1 = (a + b) / n;
  const p2 = (a + c) / n;
  const [l1, u1] = wilson(a + b, n);
  const [l2, u2] = wilson(a + c, n);
  const den = Math.sqrt((a + b) * (c + d) * (a + c) * (b + d));
  const phi = den === 0 ? 0 : (a * d - b * c) / den;
  const dl = Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
  const du = Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2));
  const diff = p1 - p2;
  return [Math.max(-1, diff - dl), Math.min(1, diff + du)];
}

/**
 * Pairs `mine` with `best` case by case (by the aggregate's case ordinals, shared by every cell), as compare does with
 * a baseline: equal repeats pair one to one, otherwise the rates are scaled to the smaller count. Cases either side
 * never graded are left out. Returns the 2×2 table (a both pass, b only mine, c only best, d neither), the cases
 * for the sign-flip test (the best as the baseline), and the per-case differences' moments for the interval.
 */
function pairTable(cases: number, mine: CaseCounts, best: CaseCounts) {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  const paired = new PairedCases();
  let sum = 0;
  let sumSq = 0;
  let single = true;
  for (let i = 0; i < cases; i++) {
    const mn = mine.n(i);
    if (mn === 0) continue;
    const bn = best.n(i);
    if (bn === 0) continue;
    const mp = mine.pass(i);
    const bp = best.pass(i);
    const m = Math.min(mn, bn);
    const x = Math.round((mp / mn) * m);
    const y = Math.round((bp / bn) * m);
    a += Math.min(x, y);
    b += Math.max(0, x - y);
    c += Math.max(0, y - x);
    d += m - Math.max(x, y);
    paired.add([bp, bn], [mp, mn]);
    const diff = mp / mn - bp / bn;
    sum += diff;
    sumSq += diff * diff;
    single &&= mn === 1 && bn === 1;
  }
  return { a, b, c, d, paired, sum, sumSq, single };
}

/**
 * The 95% interval of the mean per-case difference (cases independent, repeats of a case not): mean ± 1.96 × the
 * standard error from the per-case differences' sample variance.
 */
function caseMeanInterval(cases: number, sum: number, sumSq: number): [number, number] {
  if (cases < 2) return [-1, 1];
  const mean = sum / cases;
  const variance = Math.max(0, (sumSq - cases * mean * mean) / (cases - 1));
  const half = 1.96 * Math.sqrt(variance / cases);
  return [Math.max(-1, mean - half), Math.min(1, mean + half)];
}

/** Holm–Bonferroni over one family of comparisons: sets pAdjusted (monotone) and significant. */
function holm(diffs: PairedDiff[], alpha: number): void {
  const order = [...diffs].sort((x, y) => x.p - y.p);
  let running = 0;
  order.forEach((x, i) => {
    running = Math.max(running, Math.min(1, (order.length - i) * x.p));
    x.pAdjusted = running;
    x.significant = running < alpha;
  });
}

/**
 * Per provider and grader: every strategy's pass rate, and each strategy against the provider's reference one (highest
 * pass rate; fewer prompt tokens break a tie; it is the best only when no other strategy has its rate) on the same cases, with the difference, its interval and the exact
 * paired sign-flip test on per-case differences (as `compare`), Holm-corrected over the provider's comparisons for that grader. Providers are never pooled. Pure.
 */
export function compareStrategies(agg: RunAggregate, alpha = 0.05): StrategyComparison[] {
  const cells = [...agg.cells.values()];
  const renderers = [...new Set(cells.map((c) => c.renderer))];
  const providers = [...new Map(cells.map((c) => [c.provider, c.simulated])).entries()];
  const out: StrategyComparison[] = [];
  for (const [provider, simulated] of providers) {
    for (const grader of agg.graderNames) {
      const rows: StrategyRow[] = [];
      for (const renderer of renderers) {
        const cell = agg.cells.get(`${renderer}|${provider}`);
        const t = cell?.graders.get(grader);
        if (!cell || !t || t.n === 0) continue;
        rows.push({
          renderer,
          pass: t.pass,
          n: t.n,
          rate: t.pass / t.n,
          wilson95: wilson(t.pass, t.n),
          promptTokensMean: cell.cases ? Math.round(cell.promptTokens / cell.cases) : 0,
          reference: false,
          best: false,
          tie: false,
          vsBest: null,
        });
      }
      if (!rows.length) continue;
      const reference = [...rows].sort(
        (x, y) => y.rate - x.rate || x.promptTokensMean - y.promptTokensMean,
      )[0] as StrategyRow;
      reference.reference = true;
      // "best" only when one strategy is ahead: all at 100% (or 0%) is a tie, and one strategy alone has no rival
      const top = rows.filter((r) => r.rate === reference.rate);
      if (top.length > 1) for (const r of top) r.tie = true;
      else reference.best = rows.length > 1;
      const bestCounts = agg.caseCounts(reference.renderer, provider, grader);
      const diffs: PairedDiff[] = [];
      for (const row of rows) {
        if (row.reference) continue;
        const mine = agg.caseCounts(row.renderer, provider, grader);
        const { a, b, c, d, paired, sum, sumSq, single } = pairTable(agg.caseCount, mine, bestCounts);
        const pairs = a + b + c + d;
        if (pairs === 0) continue;
        const p = signFlipTest(paired.summary().scores);
        row.vsBest = {
          pairs,
          cases: paired.cases,
          rate: (a + b) / pairs,
          bestRate: (a + c) / pairs,
          diff: (b - c) / pairs,
          ci95: single ? pairedDiffInterval(a, b, c, d) : caseMeanInterval(paired.cases, sum, sumSq),
          onlyThis: b,
          onlyBest: c,
          p,
          pAdjusted: p,
          significant: false,
        };
        diffs.push(row.vsBest);
      }
      holm(diffs, alpha);
      out.push({
        provider,
        simulated,
        grader,
        best: reference.best ? reference.renderer : null,
        reference: reference.renderer,
        rows,
      });
    }
  }
  return out;
}
