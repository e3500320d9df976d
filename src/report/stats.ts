/**
 * Small exact statistics for regression judgements. Hand-written because they are a few lines each and the
 * npm statistics packages either lack an exact binomial test or pull in large numeric libraries.
 */

/** log(n!) by summation; n stays small here (discordant pairs of one cell), so this is exact enough and fast. */
function logFactorial(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/**
 * Exact McNemar test (two-sided sign test on the discordant pairs): `worse` pairs went pass→fail, `better`
 * went fail→pass. Returns the p-value of "no change" (1 when there are no discordant pairs).
 */
export function mcnemarExact(worse: number, better: number): number {
  const n = worse + better;
  if (n === 0) return 1;
  const k = Math.min(worse, better);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/** C(c,k)/C(n,k): the chance that k trials drawn from n (c of them passing) all pass (τ-bench's pass^k). */
export function passHatK(c: number, n: number, k: number): number {
  if (k > n || c < k) return 0;
  return Math.exp(logChoose(c, k) - logChoose(n, k));
}
