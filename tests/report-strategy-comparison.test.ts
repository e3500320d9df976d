import { describe, expect, it } from 'vitest';
import { scriptJson } from '../src/report/html-data.js';
import { heatPosition, heatStyle } from '../src/report/html-heat.js';
import { tradeoffSvg } from '../src/report/html-tradeoff.js';
import { mcnemarExact } from '../src/report/stats.js';
import { compareStrategies, pairedDiffInterval } from '../src/report/strategy-comparison.js';
import { renderSummary } from '../src/report/summary.js';
import { paretoFront, tradeoffPoints } from '../src/report/tradeoff.js';
import { loadRun } from '../src/run-log/load-run.js';
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
    // the oracle ties: the cheaper strategy is its best (equal prompt tokens here: the first listed), no difference
    const oracle = all.find((c) => c.provider === 'sim:oracle' && c.grader === 'correct-arguments');
    expect(oracle?.rows.find((r) => !r.best)?.vsBest).toMatchObject({ diff: 0, p: 1, significant: false });
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
