import { seededRandom } from '../../src/util/rng.js';

/**
 * The model behind the gate's simulations (tests/helpers/bernoulli-provider.ts in real evals, bench/gate-power.ts in
 * the Monte-Carlo): each trial of a case passes with the case's probability, seeded by (stream, seed, case, repeat).
 */
export interface BernoulliOptions {
  /** Mean pass probability of a case. */
  p: number;
  /** Cases differ: case i passes with pᵢ = p + spread·(2uᵢ − 1), clamped to [0, 1], uᵢ uniform and fixed per case. */
  spread?: number;
  /** The share of (run, case) pairs whose repeats all copy the first one: repeats correlated within a run. */
  sticky?: number;
  /** A regression: every passing trial fails with this probability (pᵢ becomes pᵢ(1 − thin)). */
  thin?: number;
  /** A regression that breaks whole cases: this share of cases fails every trial of the run (drawn per run). */
  broken?: number;
  /** Independent streams (one per cell of a run): cells with different streams share nothing. */
  stream?: string;
}

/** The pass probability of a case, the same in every run (it is the case's difficulty, not the run's luck). */
export function caseProbability(o: BernoulliOptions, caseId: string): number {
  const spread = o.spread ?? 0;
  const u = spread ? seededRandom('case', o.stream ?? '', caseId)() : 0.5;
  return Math.min(1, Math.max(0, o.p + spread * (2 * u - 1)));
}

/** Whether trial `repeat` of a case passes in the run seeded `seed`. */
export function trialPasses(o: BernoulliOptions, seed: number, caseId: string, repeat: number): boolean {
  return trialsOfCase(o, seed, caseId, repeat + 1)[repeat] as boolean;
}

/** The first `repeats` trials of a case in the run seeded `seed`, drawn from one stream. */
export function trialsOfCase(o: BernoulliOptions, seed: number, caseId: string, repeats: number): boolean[] {
  const rng = seededRandom('trial', o.stream ?? '', seed, caseId);
  const broken = o.broken ? seededRandom('broken', o.stream ?? '', seed, caseId)() < o.broken : false;
  const p = broken ? 0 : caseProbability(o, caseId) * (1 - (o.thin ?? 0));
  const sticky = rng() < (o.sticky ?? 0);
  const out: boolean[] = [];
  let first = false;
  for (let r = 0; r < repeats; r++) {
    const pass = rng() < p;
    if (r === 0) first = pass;
    out.push(sticky ? first : pass);
  }
  return out;
}
