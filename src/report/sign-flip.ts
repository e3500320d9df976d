import { mcnemarExact } from '../util/stats.js';
import { normalUpper } from './normal.js';

/** Most steps (cases × tail length) the exact distribution may take; beyond it the normal form is used. */
const EXACT_BUDGET = 4_000_000;

/**
 * The paired sign-flip (Fisher–Pitman permutation) test of "no change" on per-case differences, two-sided.
 *
 * `scores` maps an integer per-case difference (baseline passes − run passes, on a common scale) to how many cases
 * have it; zeros carry no information and may be left in. Under the null hypothesis the baseline's and the run's
 * trials of a case are two draws of the same thing, so each case's difference is as likely to have either sign,
 * independently of the other cases, whatever the repeats of a case have in common. The p-value is the share of the
 * 2ᴺ sign assignments whose total is at least as far from zero as the observed total: exact for any number of repeats
 * and any correlation between them, and identical to the exact McNemar test when every nonzero difference has the
 * same size (one trial per case).
 *
 * The exact null distribution is a subset-sum distribution (the total is 2U − A, U the sum of the sizes that took the
 * plus sign, A the sum of all sizes), built one case at a time and only up to the tail that is needed: at most
 * cases × (tail length) steps. Past EXACT_BUDGET steps (thousands of changed cases), the normal form
 * z = (|T| − 1) / √(Σ scoreᵢ²) is used instead (continuity-corrected: the total moves in steps of 2).
 */
export function signFlipTest(scores: ReadonlyMap<number, number>): number {
  let total = 0;
  let sumAbs = 0;
  let sumSq = 0;
  let cases = 0;
  const sizes = new Map<number, number>();
  let plus = 0;
  let minus = 0;
  for (const [score, count] of scores) {
    if (score === 0 || count === 0) continue;
    if (!Number.isInteger(score) || !Number.isInteger(count) || count < 0)
      throw new RangeError(`signFlipTest: integer scores and counts expected, got ${score} × ${count}`);
    const size = Math.abs(score);
    total += score * count;
    sumAbs += size * count;
    sumSq += size * size * count;
    cases += count;
    sizes.set(size, (sizes.get(size) ?? 0) + count);
    if (score > 0) plus += count;
    else minus += count;
  }
  if (cases === 0 || total === 0) return 1;
  // one size only: the sign test on the signs, i.e. the exact McNemar test
  if (sizes.size === 1) return mcnemarExact(plus, minus);
  // P(T ≥ |t|) = P(U ≥ (A + |t|)/2) = P(U ≤ (A − |t|)/2) by symmetry; T ≡ A (mod 2), so the bound is whole
  const tail = (sumAbs - Math.abs(total)) / 2;
  if (cases * (tail + 1) > EXACT_BUDGET) {
    const z = (Math.abs(total) - 1) / Math.sqrt(sumSq);
    return Math.min(1, 2 * normalUpper(z));
  }
  // f[u] = P(U = u) over the cases added so far, for u ≤ tail (larger sums never come back below it)
  const f = new Float64Array(tail + 1);
  f[0] = 1;
  for (const [size, count] of sizes) {
    for (let c = 0; c < count; c++) {
      for (let u = tail; u >= size; u--) f[u] = 0.5 * ((f[u] as number) + (f[u - size] as number));
      for (let u = Math.min(size - 1, tail); u >= 0; u--) f[u] = 0.5 * (f[u] as number);
    }
  }
  let lower = 0;
  for (let u = 0; u <= tail; u++) lower += f[u] as number;
  return Math.min(1, 2 * lower);
}
