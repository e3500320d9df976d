/**
 * Small exact statistics for regression judgements. Hand-written because they are a few lines each and the
 * npm statistics packages either lack an exact binomial test or pull in large numeric libraries.
 */

/** log(i!) for i = 0…length-1, grown on demand and kept: compare and the gate ask for every cell and grader. */
let logFactorials = new Float64Array([0, 0]);

/** log(n!), from the table (summed once up to the largest n asked for). */
function logFactorial(n: number): number {
  if (n >= logFactorials.length) {
    const grown = new Float64Array(Math.max(n + 1, logFactorials.length * 2));
    grown.set(logFactorials);
    for (let i = logFactorials.length; i < grown.length; i++) grown[i] = grown[i - 1]! + Math.log(i);
    logFactorials = grown;
  }
  return logFactorials[n]!;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/**
 * Exact McNemar test (two-sided sign test on the discordant pairs): `worse` pairs went pass→fail, `better`
 * went fail→pass. Returns the p-value of "no change" (1 when there are no discordant pairs).
 *
 * The tail P(X ≤ k), X ~ Binomial(n, ½), is summed from its largest term C(n,k)/2ⁿ down, each term from the one
 * before (C(n,i−1) = C(n,i)·i/(n−i+1)), stopping once the terms no longer change the sum: linear in k at worst.
 */
export function mcnemarExact(worse: number, better: number): number {
  const n = worse + better;
  if (n === 0) return 1;
  const k = Math.min(worse, better);
  let sum = 0;
  let term = 1;
  for (let i = k; i >= 0; i--) {
    sum += term;
    term *= i / (n - i + 1);
    if (term < sum * Number.EPSILON * 1e-3) break;
  }
  const tail = Math.exp(logChoose(n, k) - n * Math.LN2) * sum;
  return Math.min(1, 2 * tail);
}

/** C(c,k)/C(n,k): the chance that k trials drawn from n (c of them passing) all pass (τ-bench's pass^k). */
export function passHatK(c: number, n: number, k: number): number {
  if (k > n || c < k) return 0;
  return Math.exp(logChoose(c, k) - logChoose(n, k));
}
