import { describe, expect, it } from 'vitest';
import { scriptJson } from '../src/report/html-data.js';
import { heatPosition, heatStyle } from '../src/report/html-heat.js';
import { tradeoffSvg } from '../src/report/html-tradeoff.js';
import { signFlipTest } from '../src/report/sign-flip.js';
import { compareStrategies, pairedDiffInterval } from '../src/report/strategy-comparison.js';
import { renderSummary } from '../src/report/summary.js';
import { paretoFront, tradeoffPoints } from '../src/report/tradeoff.js';
import { loadRun } from '../src/run-log/load-run.js';
import { mcnemarExact } from '../src/util/stats.js';
import { passingCases, writeSyntheticRun } from './helpers/synthetic-run.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const dir = tempDir('tg-strategies-');
const G = ['parseable', 'correct-arguments'];

async function run() {
  const runDir = writeSyntheticRun(dir, `run-${Math.random().toString(36).slice(2)}`, [
    ...passingCases(10, 9, G, { renderer: 'full-details', provider: 'sim:guesser' }),
    ...passingCases(10, 3, G, { renderer: 'names-only', provider: 'sim:guesser' }),
    ...passingCases(10, 10, G, { renderer: 'full-details', provider: 'sim:oracle' }),
    ...passingCases(10, 10, G, { renderer: 'names-only', provider: 'sim:oracle' }),
  ]);
  return (await loadRun(runDir)).aggregate;
}

describe('strategy comparison per provider', () => {
  it('pairs each strategy with the provider best on the same cases: difference, interval, exact McNemar', async () => {
    const agg = await run();
    const all = compareStrategies(agg);
    const guesser = all.find((c) => c.provider === 'sim:guesser' && c.grader === 'correct-arguments');
    expect(guesser?.best).toBe('full-details');
    const names = guesser?.rows.find((r) => r.renderer === 'names-only');
    expect(names).toMatchObject({ pass: 3, n: 10, rate: 0.3, best: false });
    // cases 3..8 pass with full details only; none passes with names only alone
    expect(names?.vsBest).toMatchObject({ pairs: 10, onlyThis: 0, onlyBest: 6, rate: 0.3, bestRate: 0.9 });
    expect(names?.vsBest?.diff).toBeCloseTo(-0.6);
    expect(names?.vsBest?.p).toBe(mcnemarExact(0, 6));
    expect(names?.vsBest?.significant).toBe(true);
    const [lo, hi] = names?.vsBest?.ci95 ?? [0, 0];
    expect(lo).toBeGreaterThan(-1);
    expect(lo).toBeLessThan(-0.6);
    expect(hi).toBeGreaterThan(-0.6);
    expect(hi).toBeLessThan(0);
    expect(guesser?.rows.find((r) => r.renderer === 'full-details')).toMatchObject({ best: true, tie: false });
    // the oracle ties at 100%: no best; the cheaper strategy is the reference (equal tokens here: the first listed)
    const oracle = all.find((c) => c.provider === 'sim:oracle' && c.grader === 'correct-arguments');
    expect(oracle?.best).toBeNull();
    expect(oracle?.reference).toBe('full-details');
    expect(oracle?.rows.map((r) => [r.best, r.tie])).toEqual([
      [false, true],
      [false, true],
    ]);
    expect(oracle?.rows.find((r) => !r.reference)?.vsBest).toMatchObject({ diff: 0, p: 1, significant: false });
  });

  it('repeats of a case are one unit: whole cases that flip are not counted as independent pairs', async () => {
    // 10 repeats; 12 cases pass every repeat with full details only, 8 with names only: 120 vs 80 discordant trials
    // (exact McNemar on trials: p ≈ 0.006), but only 12 vs 8 cases moved (sign-flip on cases: p ≈ 0.5)
    const cases = [];
    for (let i = 0; i < 20; i++)
      for (let repeat = 0; repeat < 10; repeat++)
        for (const renderer of ['full-details', 'names-only'])
          cases.push({
            case: `c${i}`,
            renderer,
            provider: 'sim:guesser',
            repeat,
            pass: { 'correct-arguments': i < 12 === (renderer === 'full-details') },
          });
    const runDir = writeSyntheticRun(dir, 'repeats', cases, { repeats: 10 });
    const agg = (await loadRun(runDir)).aggregate;
    const cmp = compareStrategies(agg).find((c) => c.grader === 'correct-arguments');
    const names = cmp?.rows.find((r) => r.renderer === 'names-only');
    expect(names?.vsBest).toMatchObject({ pairs: 200, cases: 20, onlyThis: 80, onlyBest: 120, significant: false });
    expect(names?.vsBest?.p).toBe(
      signFlipTest(
        new Map([
          [1, 8],
          [-1, 12],
        ]),
      ),
    );
    expect(names?.vsBest?.p).toBeGreaterThan(0.4);
    expect(mcnemarExact(80, 120)).toBeLessThan(0.01);
    // the interval is the per-case mean difference's: much wider than a trial-level interval would be
    const [lo, hi] = names?.vsBest?.ci95 ?? [0, 0];
    expect(lo).toBeLessThan(-0.6);
    expect(hi).toBeGreaterThan(0.2);
  });

  it("Newcombe's paired interval holds the difference and mirrors when the strategies swap", () => {
    for (const [a, b, c, d] of [
      [5, 0, 6, 4],
      [40, 3, 9, 48],
      [0, 0, 0, 10],
      [10, 0, 0, 0],
    ] as const) {
      const [lo, hi] = pairedDiffInterval(a, b, c, d);
      const diff = (b - c) / (a + b + c + d);
      expect(lo).toBeLessThanOrEqual(diff + 1e-12);
      expect(hi).toBeGreaterThanOrEqual(diff - 1e-12);
      const [lo2, hi2] = pairedDiffInterval(a, c, b, d);
      expect(lo2).toBeCloseTo(-hi, 12);
      expect(hi2).toBeCloseTo(-lo, 12);
    }
  });

  it('summary.md carries the per-provider comparison', async () => {
    const md = renderSummary(await run(), { runDir: 'reports/x', interrupted: false });
    expect(md).toContain('## Strategies per provider');
    expect(md).toContain('### sim:guesser (simulated)');
    expect(md).toMatch(/\| names-only \| 120 \| .*30% · \*\*−60\.0 \[−\d+\.\d, −\d+\.\d\]\*\* p=0\.031/);
    expect(md).toContain('| full-details | 120 | **90%** ★ best');
    // a tie at 100% (or 0%) marks no best
    const oracle = md.slice(md.indexOf('### sim:oracle'));
    expect(oracle).toContain('| full-details | 120 | 100% · tie | 100% · tie |');
    expect(oracle).toContain('| names-only | 120 | 100% · tie | 100% · tie |');
    expect(oracle).not.toContain('★ best');
  });

  it('marks no best for a single strategy, nor for strategies all at 0%', async () => {
    const runDir = writeSyntheticRun(dir, `single-${Math.random().toString(36).slice(2)}`, [
      ...passingCases(5, 0, G, { renderer: 'names-only', provider: 'sim:guesser' }),
      ...passingCases(5, 0, G, { renderer: 'names-only', provider: 'sim:stopper' }),
      ...passingCases(5, 0, G, { renderer: 'full-details', provider: 'sim:stopper' }),
    ]);
    const agg = (await loadRun(runDir)).aggregate;
    const all = compareStrategies(agg);
    expect(all.every((c) => c.best === null)).toBe(true);
    const md = renderSummary(agg, { runDir: 'reports/x', interrupted: false });
    expect(md).not.toContain('★ best');
    expect(md).toContain('| names-only | 120 | 0% | 0% |');
    expect(md).toContain('| full-details | 120 | 0% · tie | 0% · tie |');
  });
});

describe('trade-off chart', () => {
  it('marks the Pareto front: more passes for fewer tokens', () => {
    const pts = [
      { rate: 0.5, tokens: 100 },
      { rate: 0.9, tokens: 200 },
      { rate: 0.9, tokens: 300 },
      { rate: 0.4, tokens: 150 },
      { rate: 0.9, tokens: 200 },
    ];
    expect(paretoFront(pts)).toEqual([true, true, false, false, true]);
  });

  it('escapes every label in the SVG and carries the plotted numbers', async () => {
    const agg = await run();
    const sc = compareStrategies(agg).find((c) => c.provider === 'sim:guesser' && c.grader === 'parseable');
    if (!sc) throw new Error('no comparison');
    const pts = tradeoffPoints(sc).map((p, i) => (i ? p : { ...p, renderer: '<script>alert(1)</script>"' }));
    const svg = tradeoffSvg(pts, (r) => (r === 'names-only' ? 1 : 0), 'cap <b>');
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(svg).toContain('data-rate="0.3" data-tokens="120" data-pass="3" data-n="10" data-pareto="0"');
  });
});

describe('heat scale and page data', () => {
  it('puts 91% half the scale away from 100%', () => {
    expect(heatPosition(1)).toBe(0);
    expect(heatPosition(0)).toBe(1);
    expect(heatPosition(0.91) - heatPosition(1)).toBeGreaterThan(0.45);
    expect(heatPosition(0.79)).toBeGreaterThan(heatPosition(0.93) + 0.15);
    expect(heatStyle(1)).not.toBe(heatStyle(0.91));
  });

  it('scriptJson cannot close or bend the script element', () => {
    const text = scriptJson({ a: '</script><script>alert(1)</script><!-- \u2028\u2029' });
    expect(text).not.toMatch(/<|\u2028|\u2029/);
    expect(JSON.parse(text)).toEqual({ a: '</script><script>alert(1)</script><!-- \u2028\u2029' });
  });
});
