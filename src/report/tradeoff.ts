import type { StrategyComparison } from './strategy-comparison.js';

/** One strategy of one provider on the trade-off chart: pass rate (with its interval) against prompt tokens. */
export interface TradeoffPoint {
  renderer: string;
  rate: number;
  wilson95: [number, number];
  pass: number;
  n: number;
  /** Mean prompt tokens per case (local o200k estimate), run.json's promptTokensMean. */
  tokens: number;
  /** No other strategy is at least as good on both axes and better on one (higher rate, fewer tokens). */
  pareto: boolean;
}

/** Marks the Pareto front: more passes for fewer tokens. Ties on both axes are both on the front. Pure. */
export function paretoFront<T extends { rate: number; tokens: number }>(points: T[]): boolean[] {
  return points.map(
    (p) =>
      !points.some(
        (q) => q !== p && q.rate >= p.rate && q.tokens <= p.tokens && (q.rate > p.rate || q.tokens < p.tokens),
      ),
  );
}

/** The chart's points for one provider and grader, from its strategy comparison. Pure. */
export function tradeoffPoints(sc: StrategyComparison): TradeoffPoint[] {
  const pts = sc.rows.map((r) => ({
    renderer: r.renderer,
    rate: r.rate,
    wilson95: r.wilson95,
    pass: r.pass,
    n: r.n,
    tokens: r.promptTokensMean,
    pareto: false,
  }));
  const front = paretoFront(pts);
  pts.forEach((p, i) => {
    p.pareto = front[i] ?? false;
  });
  return pts;
}
