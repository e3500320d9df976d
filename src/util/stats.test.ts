import { describe, expect, it } from 'vitest';
import { mcnemarExact, passHatK } from './stats.js';

/** The exact two-sided p-value, 2·Σ_{i≤k} C(n,i) / 2ⁿ, computed in BigInt and rounded once to a double. */
function mcnemarBigInt(worse: number, better: number): number {
  const n = BigInt(worse + better);
  const k = BigInt(Math.min(worse, better));
  let c = 1n;
  let sum = 0n;
  for (let i = 0n; i <= k; i++) {
    sum += c;
    c = (c * (n - i)) / (i + 1n);
  }
  // 2·sum / 2ⁿ: the top 60 bits of 2·sum as a double, scaled by a power of two (the denominator is one).
  const num = 2n * sum;
  const shift = Math.max(0, num.toString(2).length - 60);
  const p = Number(num >> BigInt(shift)) * 2 ** (shift - Number(n));
  return Math.min(1, p);
}

describe('mcnemarExact', () => {
  it('matches the exact two-sided binomial test on discordant pairs', () => {
    expect(mcnemarExact(6, 0)).toBeCloseTo(0.03125, 10);
    expect(mcnemarExact(10, 2)).toBeCloseTo(0.03857421875, 10);
    expect(mcnemarExact(5, 5)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(2, 9)).toBeCloseTo(mcnemarExact(9, 2), 12);
  });

  it('agrees with an exact BigInt computation for every split of up to 120 pairs', () => {
    for (let n = 1; n <= 120; n++) {
      for (let worse = 0; worse <= n; worse++) {
        const want = mcnemarBigInt(worse, n - worse);
        expect(Math.abs(mcnemarExact(worse, n - worse) - want)).toBeLessThanOrEqual(want * 1e-9);
      }
    }
  });

  it('agrees with an exact BigInt computation at about 10,000 discordant pairs', () => {
    for (const [worse, better] of [
      [4_900, 5_100],
      [5_150, 4_850],
      [4_800, 5_200],
      [4_700, 5_300],
      [5_000, 5_000],
      [9_799, 1],
    ] as const) {
      const want = mcnemarBigInt(worse, better);
      const got = mcnemarExact(worse, better);
      expect(Math.abs(got - want), `${worse}/${better}: ${got} vs ${want}`).toBeLessThanOrEqual(want * 1e-9);
    }
    // A known value: 4,900 against 5,100 is a p of about 0.047 (normal approximation 0.0466).
    expect(mcnemarExact(4_900, 5_100)).toBeGreaterThan(0.04);
    expect(mcnemarExact(4_900, 5_100)).toBeLessThan(0.055);
  });
});

describe('passHatK', () => {
  it('is C(c,k)/C(n,k), as in τ-bench', () => {
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(2, 3, 3)).toBe(0);
    expect(passHatK(4, 5, 2)).toBeCloseTo(0.6, 12);
    expect(passHatK(1, 1, 1)).toBe(1);
  });
});
