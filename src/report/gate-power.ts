import { normalCdf, normalUpperQuantile } from './normal.js';

/**
 * What the gate's power depends on in one cell × grader: the baseline's per-case pass probabilities (their mean and
 * the mean of their squares: how much cases differ from each other, hence how much a case's repeats disagree) and the
 * trials per case on each side.
 */
export interface NoiseModel {
  /** Paired cases, n. */
  cases: number;
  /** Mean pass probability of a case in the baseline, p̄. */
  rate: number;
  /**
   * Mean of the squared per-case pass probabilities, estimated without bias from repeats (c(c−1)/(k(k−1)) per case);
   * with one trial per case, rate² (every case as uncertain as the mean: the least favourable assumption).
   */
  square: number;
  /** Mean of 1/trials per case, baseline and run (1/k with k repeats and no errors). */
  invRepeatsBase: number;
  invRepeatsRun: number;
  /** The lattice of the per-case differences: the common multiple of the trial counts (k). */
  scale: number;
  /** True when every baseline case had two trials or more, so `square` (and the flip rate) was measured. */
  flipMeasured: boolean;
}

/** How the gate decides a cell regressed: Holm-corrected two-sided test at `alpha` over `comparisons`, and a drop. */
export interface GateRule {
  alpha: number;
  comparisons: number;
  maxRegression: number;
}

/** The power every "detects" figure is quoted at. */
export const DETECT_POWER = 0.8;

/** The chance that two trials of one case disagree, averaged over cases: 2·mean(pᵢ(1 − pᵢ)). */
export function flipRate(m: NoiseModel): number {
  return Math.max(0, 2 * (m.rate - m.square));
}

/**
 * The chance that the gate flags the cell when its true pass rate fell by `drop` (absolute, 0..1), under this model
 * of a drop: every passing trial of the baseline now fails with the same probability ρ = drop / p̄, independently
 * (each case's pass probability pᵢ becomes pᵢ(1 − ρ)), and a case's trials are independent given its probability.
 *
 * With T = Σ (baseline rate − run rate) over the n paired cases (the observed drop is T/n):
 *   E[T] = n·ρ·p̄,   Var[T] = Σ pᵢ(1−pᵢ)/k_b + qᵢ(1−qᵢ)/k_r,   E[Σdᵢ²] = Var[T] + ρ²·Σpᵢ².
 * The sign-flip test rejects at level α/m (Holm's first step, two-sided) about when T ≥ z·√(Σdᵢ²), z the normal
 * quantile; the gate also needs T/n > maxRegression. Both thresholds are continuity-corrected for T's lattice of
 * 1/scale, and P(T ≥ threshold) is taken from the normal distribution of T. The approximation is checked against
 * simulations of the exact test in bench/gate-power.ts (docs/gate.md).
 */
export function gatePower(m: NoiseModel, rule: GateRule, drop: number): number {
  return powerAt(m, rule, drop, criticalZ(rule));
}

/** The normal quantile of Holm's first step, two-sided: z with P(Z > z) = alpha / (2m); NaN for a bad alpha. */
function criticalZ(rule: GateRule): number {
  const tail = rule.alpha / (2 * Math.max(1, rule.comparisons));
  return tail > 0 && tail < 1 ? normalUpperQuantile(tail) : Number.NaN;
}

function powerAt(m: NoiseModel, rule: GateRule, drop: number, z: number): number {
  const n = m.cases;
  if (Number.isNaN(z)) return 0;
  if (n <= 0 || m.rate <= 0 || drop <= 0) return 0;
  const rho = Math.min(1, drop / m.rate);
  const p = m.rate;
  const sq = m.square;
  const keep = 1 - rho;
  const varT = n * ((p - sq) * m.invRepeatsBase + (keep * p - keep * keep * sq) * m.invRepeatsRun);
  const mean = n * rho * p;
  const sumSquares = varT + n * rho * rho * sq;
  const half = 1 / (2 * m.scale);
  const significant = z * Math.sqrt(sumSquares) + half;
  // T > n·maxRegression, strictly: the first lattice point above it, less half a step
  const beyond = (Math.floor(n * rule.maxRegression * m.scale + 1e-9) + 1) / m.scale - half;
  const threshold = Math.max(significant, beyond);
  if (varT <= 1e-12) return mean >= threshold ? 1 : 0;
  return normalCdf((mean - threshold) / Math.sqrt(varT));
}

/**
 * The smallest drop (absolute, 0..1) the gate flags with probability `power`; null when even a drop to zero is not
 * flagged that often (too few cases, or nothing passes in the baseline).
 */
export function detectableDrop(m: NoiseModel, rule: GateRule, power = DETECT_POWER): number | null {
  const z = criticalZ(rule);
  if (m.cases <= 0 || m.rate <= 0 || powerAt(m, rule, m.rate, z) < power) return null;
  let lo = 0;
  let hi = m.rate;
  for (let i = 0; i < 60 && hi - lo > 1e-7; i++) {
    const mid = (lo + hi) / 2;
    if (powerAt(m, rule, mid, z) >= power) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The fewest cases per cell with which a run of `repeats` repeats, against a baseline made with as many, flags a drop
 * of `drop` with probability `power`, if cases resemble the model's (same p̄ and spread); null when no number of cases
 * up to ten million does (a drop at or under maxRegression, or larger than the pass rate).
 */
export function casesNeeded(m: NoiseModel, rule: GateRule, drop: number, repeats: number, power = DETECT_POWER) {
  const at = (n: number): NoiseModel => ({
    ...m,
    cases: n,
    invRepeatsBase: 1 / repeats,
    invRepeatsRun: 1 / repeats,
    scale: repeats,
  });
  const LIMIT = 10_000_000;
  const z = criticalZ(rule);
  if (m.rate <= 0 || drop > m.rate || powerAt(at(LIMIT), rule, drop, z) < power) return null;
  let hi = 1;
  while (powerAt(at(hi), rule, drop, z) < power) hi *= 2;
  let lo = Math.floor(hi / 2);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (powerAt(at(mid), rule, drop, z) >= power) hi = mid;
    else lo = mid;
  }
  return hi;
}
