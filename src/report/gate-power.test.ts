import { describe, expect, it } from 'vitest';
import { casesNeeded, DETECT_POWER, detectableDrop, flipRate, gatePower, type NoiseModel } from './gate-power.js';
import { baselineNoise } from './paired-cases.js';

const rule = { alpha: 0.05, comparisons: 1, maxRegression: 0.05 };

/** n cases alike (every case passes with p), k trials per case on both sides. */
const alike = (n: number, p: number, k: number): NoiseModel => ({
  cases: n,
  rate: p,
  square: p * p,
  invRepeatsBase: 1 / k,
  invRepeatsRun: 1 / k,
  scale: k,
  flipMeasured: k > 1,
});

describe('gate power', () => {
  it('grows with the drop, and the detectable drop is where it reaches 80%', () => {
    const m = alike(200, 0.8, 1);
    let last = 0;
    for (let d = 0.01; d <= 0.8; d += 0.01) {
      const p = gatePower(m, rule, d);
      expect(p).toBeGreaterThanOrEqual(last - 1e-12);
      last = p;
    }
    const d = detectableDrop(m, rule) as number;
    expect(gatePower(m, rule, d)).toBeCloseTo(DETECT_POWER, 5);
    // the simulated figure of docs/gate.md for this row (n = 200, k = 1, p = 0.8): 12.6 points
    expect(d).toBeGreaterThan(0.12);
    expect(d).toBeLessThan(0.13);
  });

  it('never flags a drop at or under maxRegression, and repeats only bring the figure down towards it', () => {
    const figures = [1, 3, 10, 100].map((k) => detectableDrop(alike(200, 0.8, k), rule) as number);
    for (let i = 1; i < figures.length; i++) expect(figures[i]).toBeLessThan(figures[i - 1] as number);
    expect(figures.at(-1)).toBeGreaterThan(0.05);
    expect(gatePower(alike(200, 0.8, 100), rule, 0.05)).toBeLessThan(0.5);
  });

  it('is more pessimistic with one trial per case than with cases that always pass or always fail', () => {
    const assumed = alike(200, 0.8, 3);
    const steady: NoiseModel = { ...assumed, square: 0.8 };
    expect(detectableDrop(steady, rule) as number).toBeLessThan(detectableDrop(assumed, rule) as number);
    expect(flipRate(assumed)).toBeCloseTo(0.32, 12);
    expect(flipRate(steady)).toBe(0);
  });

  it('gives no figure when nothing passes or the cases are too few; Holm over more cells needs a larger drop', () => {
    expect(detectableDrop(alike(200, 0, 3), rule)).toBeNull();
    expect(detectableDrop(alike(3, 0.8, 1), rule)).toBeNull();
    expect(detectableDrop(alike(200, 0.8, 3), { ...rule, comparisons: 20 }) as number).toBeGreaterThan(
      detectableDrop(alike(200, 0.8, 3), rule) as number,
    );
  });

  it('casesNeeded is the fewest cases that reach the power', () => {
    const per = alike(1, 0.8, 1);
    for (const k of [1, 3, 10]) {
      const n = casesNeeded(per, rule, 0.1, k) as number;
      const at = (cases: number) => gatePower({ ...alike(cases, 0.8, k), flipMeasured: true }, rule, 0.1);
      expect(at(n)).toBeGreaterThanOrEqual(DETECT_POWER);
      expect(at(n - 1)).toBeLessThan(DETECT_POWER);
    }
    expect(casesNeeded(per, rule, 0.05, 3)).toBeNull();
    expect(casesNeeded(per, rule, 0.9, 3)).toBeNull();
  });

  it('reads the baseline: the flip rate from repeats without bias, the least favourable one with a single trial', () => {
    // 10 cases at 2 of 4 (p(1−p) estimated as 2·2/(4·3) = 1/3) and 10 at 4 of 4
    const m = baselineNoise([...Array(10).fill([2, 4]), ...Array(10).fill([4, 4])]);
    expect(m.rate).toBeCloseTo(0.75, 12);
    expect(flipRate(m)).toBeCloseTo(2 * (0.5 * (1 / 3)), 12);
    expect(m.flipMeasured).toBe(true);
    const single = baselineNoise([...Array(15).fill([1, 1]), ...Array(5).fill([0, 1])]);
    expect(single.flipMeasured).toBe(false);
    expect(flipRate(single)).toBeCloseTo(2 * 0.75 * 0.25, 12);
  });
});
