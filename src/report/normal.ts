/**
 * The standard normal distribution's upper tail and its inverse, for the large-sample forms of the gate's test and for
 * its power figures. Hand-written (a few lines of textbook analysis, see below) because no dependency of the project
 * has them and a statistics package for two functions would be heavy.
 */

const SQRT_PI = Math.sqrt(Math.PI);

/**
 * erfc(x) for x ≥ 0. Below 2.5, 1 − erf(x) with erf from its series of positive terms,
 * erf(x) = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1)), which loses nothing to cancellation inside the sum (and
 * erfc(2.5) ≈ 4e−4, so the subtraction keeps about 12 digits). From 2.5 on, the continued fraction
 * erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + 3⁄2/(x + …)))), evaluated from a fixed depth upwards: at x ≥ 2.5, 60
 * levels agree with the infinite fraction to double precision.
 */
function erfcPositive(x: number): number {
  if (x < 2.5) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200 && term > sum * 1e-17; n++) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
    }
    return 1 - (2 / SQRT_PI) * Math.exp(-x * x) * sum;
  }
  let f = x;
  for (let n = 60; n >= 1; n--) f = x + n / 2 / f;
  return Math.exp(-x * x) / (SQRT_PI * f);
}

/** P(Z > z) for a standard normal Z. */
export function normalUpper(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  const t = Math.abs(z) / Math.SQRT2;
  const upper = 0.5 * erfcPositive(t);
  return z >= 0 ? upper : 1 - upper;
}

/** P(Z ≤ z). */
export function normalCdf(z: number): number {
  return normalUpper(-z);
}

/**
 * The z with P(Z > z) = p, for 0 < p < 1: bisection on normalUpper (monotone), to about 1e−12 in z. It runs once per
 * comparison, so its ~100 evaluations cost nothing, and it needs no table of rational-approximation constants.
 */
export function normalUpperQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalUpperQuantile: p must be in (0, 1), got ${p}`);
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (normalUpper(mid) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
