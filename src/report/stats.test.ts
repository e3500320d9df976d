import { describe, expect, it } from 'vitest';
import { mcnemarExact, passHatK } from './stats.js';

describe('mcnemarExact', () => {
  it('matches the exact two-sided binomial test on discordant pairs', () => {
    expect(mcnemarExact(6, 0)).toBeCloseTo(0.03125, 10);
    expect(mcnemarExact(10, 2)).toBeCloseTo(0.03857421875, 10);
    expect(mcnemarExact(5, 5)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(2, 9)).toBeCloseTo(mcnemarExact(9, 2), 12);
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
