import { describe, expect, it } from 'vitest';
import { seededRandom } from '../util/rng.js';
import { mcnemarExact } from '../util/stats.js';
import { normalUpper, normalUpperQuantile } from './normal.js';
import { signFlipTest } from './sign-flip.js';

/** The two-sided p-value by enumerating every sign assignment: the definition, for a handful of cases. */
function bruteForce(scores: number[]): number {
  const t = Math.abs(scores.reduce((a, b) => a + b, 0));
  const sizes = scores.map(Math.abs);
  let hits = 0;
  const all = 2 ** sizes.length;
  for (let mask = 0; mask < all; mask++) {
    let s = 0;
    sizes.forEach((a, i) => {
      s += mask & (1 << i) ? a : -a;
    });
    if (Math.abs(s) >= t) hits++;
  }
  return hits / all;
}

function histogram(scores: number[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const s of scores) m.set(s, (m.get(s) ?? 0) + 1);
  return m;
}

describe('signFlipTest', () => {
  it('equals the enumeration of every sign assignment (random per-case differences, k up to 10)', () => {
    const rng = seededRandom('sign-flip-test');
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(rng() * 14);
      const k = 1 + Math.floor(rng() * 10);
      // differences skewed towards one side half the time, so small p-values are covered too
      const skew = rng() < 0.5 ? 0 : 0.35;
      const scores = Array.from({ length: n }, () => Math.round((rng() - 0.5 + skew) * 2 * k));
      const want = bruteForce(scores.filter((s) => s !== 0));
      expect(signFlipTest(histogram(scores)), JSON.stringify(scores)).toBeCloseTo(want, 12);
    }
  });

  it('is the exact McNemar test when every nonzero difference has one size (one trial per case)', () => {
    expect(
      signFlipTest(
        new Map([
          [1, 10],
          [-1, 2],
          [0, 50],
        ]),
      ),
    ).toBe(mcnemarExact(10, 2));
    expect(signFlipTest(new Map([[3, 6]]))).toBe(mcnemarExact(6, 0));
    expect(signFlipTest(new Map([[0, 9]]))).toBe(1);
    expect(signFlipTest(new Map())).toBe(1);
    expect(
      signFlipTest(
        new Map([
          [2, 3],
          [-1, 6],
        ]),
      ),
    ).toBe(1);
  });

  it('takes the normal form past its budget, close to the exact value', () => {
    // 6,000 cases with differences of 1, 2 and 3 (k = 3) leaning one way
    const big = new Map([
      [1, 1_560],
      [-1, 1_440],
      [2, 760],
      [-2, 740],
      [3, 760],
      [-3, 740],
    ]);
    const p = signFlipTest(big);
    const t = 120 + 40 + 60;
    const z = (t - 1) / Math.sqrt(3_000 + 4 * 1_500 + 9 * 1_500);
    expect(p).toBeCloseTo(2 * normalUpper(z), 12);
    expect(p).toBeGreaterThan(0.05);
    expect(p).toBeLessThan(0.2);
  });

  it('rejects non-integer scores', () => {
    expect(() => signFlipTest(new Map([[0.5, 1]]))).toThrow(RangeError);
  });
});

describe('normal distribution', () => {
  it('matches tabulated tail probabilities', () => {
    expect(normalUpper(0)).toBeCloseTo(0.5, 15);
    expect(normalUpper(1.959963984540054)).toBeCloseTo(0.025, 13);
    expect(normalUpper(-1.959963984540054)).toBeCloseTo(0.975, 13);
    expect(normalUpper(1)).toBeCloseTo(0.15865525393145707, 14);
    expect(normalUpper(3) / 0.0013498980316301035).toBeCloseTo(1, 12);
    expect(normalUpper(3.6) / 1.591085901575338e-4).toBeCloseTo(1, 10);
    expect(normalUpper(6) / 9.865876450376946e-10).toBeCloseTo(1, 10);
    expect(normalUpper(10) / 7.61985302416047e-24).toBeCloseTo(1, 9);
  });

  it('inverts the tail', () => {
    expect(normalUpperQuantile(0.025)).toBeCloseTo(1.959963984540054, 9);
    expect(normalUpperQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalUpperQuantile(0.9)).toBeCloseTo(-1.2815515655446004, 9);
    expect(normalUpperQuantile(1e-8)).toBeCloseTo(5.612001244174789, 8);
    expect(() => normalUpperQuantile(0)).toThrow(RangeError);
  });
});
