import type { NoiseModel } from './gate-power.js';
import type { Tally } from './snapshot.js';

/** Trials per case stay below this (repeats are at most 1000), so four of them pack into one safe integer key. */
const RADIX = 1 << 13;
/** Largest common scale of the scores; past it, scores are rounded (and the test takes its normal form anyway). */
const MAX_SCALE = 1_000_000;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** The per-case numbers of one comparison as a test and a power figure need them. */
export interface PairedSummary {
  /** Paired cases (graded in both runs). */
  cases: number;
  /** Per-case difference (baseline rate − run rate) × scale → how many cases have it. */
  scores: Map<number, number>;
  /** The common denominator of every case's trial counts (the repeats, when no trial errored). */
  scale: number;
  /** Trials that went pass→fail and fail→pass, net per case (rates scaled to the smaller count, as before). */
  worse: number;
  better: number;
  /** The baseline's side, for the power figures. */
  noise: NoiseModel;
}

/**
 * One cell × grader of a comparison, case by case, kept as a count per distinct (baseline passes, baseline trials,
 * run passes, run trials): with a few repeats there are only a few distinct tuples, so a cell of 100,000 cases costs
 * a small map, not an array per case.
 */
export class PairedCases {
  private readonly counts = new Map<number, number>();
  private n = 0;

  add(base: Tally, run: Tally): void {
    const [b, m] = base;
    const [r, k] = run;
    if (m <= 0 || k <= 0) return;
    if (m >= RADIX || k >= RADIX) throw new RangeError(`too many trials in one case (${m}, ${k})`);
    const key = ((b * RADIX + m) * RADIX + r) * RADIX + k;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.n++;
  }

  get cases(): number {
    return this.n;
  }

  private *tuples(): Generator<[b: number, m: number, r: number, k: number, count: number]> {
    for (const [key, count] of this.counts) {
      let rest = key;
      const k = rest % RADIX;
      rest = (rest - k) / RADIX;
      const r = rest % RADIX;
      rest = (rest - r) / RADIX;
      const m = rest % RADIX;
      const b = (rest - m) / RADIX;
      yield [b, m, r, k, count];
    }
  }

  summary(): PairedSummary {
    let scale = 1;
    for (const [, m, , k] of this.tuples()) {
      if (scale > MAX_SCALE) break;
      scale = (scale / gcd(scale, m)) * m;
      scale = (scale / gcd(scale, k)) * k;
    }
    // trial counts so varied that their common multiple is huge (errors in many different repeats): round instead
    if (scale > MAX_SCALE) scale = MAX_SCALE;
    const scores = new Map<number, number>();
    let worse = 0;
    let better = 0;
    // the baseline's pass probabilities: Σp̂, and Σp² estimated without bias where a case has two trials or more
    let rateSum = 0;
    let squareSum = 0;
    let singleCases = 0;
    let singleRateSum = 0;
    let invBase = 0;
    let invRun = 0;
    for (const [b, m, r, k, count] of this.tuples()) {
      const score = Math.round((b * scale) / m - (r * scale) / k);
      scores.set(score, (scores.get(score) ?? 0) + count);
      const net = Math.round((b / m - r / k) * Math.min(m, k));
      if (net > 0) worse += net * count;
      else better -= net * count;
      rateSum += (b / m) * count;
      if (m >= 2) squareSum += ((b * (b - 1)) / (m * (m - 1))) * count;
      else {
        singleCases += count;
        singleRateSum += b * count;
      }
      invBase += count / m;
      invRun += count / k;
    }
    // One trial per case says nothing of how a case varies: take the least favourable case, every such case as
    // uncertain as their mean rate (Σp² at its smallest for that mean).
    if (singleCases) squareSum += (singleRateSum * singleRateSum) / singleCases;
    const n = this.n;
    const rate = n ? rateSum / n : 0;
    const square = n ? Math.min(rate, Math.max(rate * rate, squareSum / n)) : 0;
    return {
      cases: n,
      scores,
      scale,
      worse,
      better,
      noise: {
        cases: n,
        rate,
        square,
        invRepeatsBase: n ? invBase / n : 1,
        invRepeatsRun: n ? invRun / n : 1,
        scale,
        flipMeasured: n > 0 && singleCases === 0,
      },
    };
  }
}

/** The noise model of a baseline alone (each case's tally on both sides): what `toolgauge plan` starts from. */
export function baselineNoise(tallies: Iterable<Tally>): NoiseModel {
  const pairs = new PairedCases();
  for (const t of tallies) pairs.add(t, t);
  return pairs.summary().noise;
}
