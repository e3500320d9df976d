import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunJson } from '../src/report/json.js';
import { ROOT, runDirFrom } from './cli-helpers.js';
import { runCliWithEnv } from './fixtures/providers-mock/mock-run.js';
import { bernoulliSuite } from './helpers/bernoulli-provider.js';
import { useTempDirs } from './helpers/temp-dirs.js';

// The gate's false-alarm rate under repeats, through the real CLI: a provider plugin answers each case correctly with
// the case's probability (tests/helpers/bernoulli-model.ts), and for each k an eval is the baseline of a second eval of
// the same config (an A/A pair: the same config hash, the same seed), whose model draws other answers (its randomness,
// like a real model's, is outside the config: TG_BERNOULLI_DRAW), with `maxRegression: 0` so that only the test decides. Each run
// has CELLS independent cells (one provider entry per cell, each its own random stream), so one pair of runs gives
// CELLS comparisons. Counted as net trials in McNemar's test, repeats made 10-25% of these cells "significant" at
// k = 10; the paired sign-flip test keeps every k at or under alpha, within binomial error.
const CASES = 30;
const CELLS = 30;
const ALPHA = 0.05;
const dir = useTempDirs()('tg-gate-aa-');

const PLUGIN = join(ROOT, 'tests', 'helpers', 'bernoulli-provider.ts');

/** A third of the cells alike (p = 0.8), a third whose cases differ, a third whose runs also repeat themselves. */
function providers() {
  return Array.from({ length: CELLS }, (_, i) => {
    const kind = i % 3;
    const options =
      kind === 0 ? { p: 0.8 } : kind === 1 ? { p: 0.65, spread: 0.35 } : { p: 0.65, spread: 0.35, sticky: 0.5 };
    return { id: PLUGIN, label: `coin-${String(i).padStart(2, '0')}`, options: { ...options, stream: `s${i}` } };
  });
}

/** The upper end of a binomial count's usual range: mean + 2 standard deviations. */
const upper = (n: number, p: number) => n * p + 2 * Math.sqrt(n * p * (1 - p));

describe('the gate under repeats (A/A through the real CLI)', () => {
  it('keeps A/A false alarms at or below alpha for k = 1, 3, 5 and 10 with maxRegression 0', async () => {
    writeFileSync(join(dir, 'coin.yaml'), bernoulliSuite(CASES));
    const counts: Record<number, number> = {};
    for (const k of [1, 3, 5, 10]) {
      const full = k === 3; // one pair writes every report, for the sections checked below
      const config = join(dir, `k${k}.config.json`);
      writeFileSync(
        config,
        JSON.stringify({
          suites: ['coin.yaml'],
          renderers: ['full-details'],
          providers: providers(),
          graders: ['correct-arguments'],
          repeats: k,
          maxTurns: 1,
          concurrency: 64,
          out: `out-${k}`,
          ...(full ? {} : { reporters: [] }),
          gate: { maxInfraErrorRate: 0, baseline: `baseline-${k}.json`, alpha: ALPHA, maxRegression: 0 },
        }),
      );
      const first = await runCliWithEnv(['eval', '-c', config, '-q'], { TG_BERNOULLI_DRAW: '1' });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain('gate: no baseline');
      copyFileSync(join(runDirFrom(first.stderr), 'run.json'), join(dir, `baseline-${k}.json`));

      const second = await runCliWithEnv(['eval', '-c', config, '-q'], { TG_BERNOULLI_DRAW: '2' });
      const runDir = runDirFrom(second.stderr);
      const run = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as RunJson;
      const cells = run.comparison?.cells ?? [];
      expect(cells).toHaveLength(CELLS);
      // the two draws gave different answers: the runs differ case by case
      expect(cells.reduce((s, c) => s + c.casesWorse + c.casesBetter, 0)).toBeGreaterThan(CELLS);
      counts[k] = cells.filter((c) => c.p < ALPHA).length;
      expect(counts[k], `k=${k}: ${counts[k]} of ${CELLS} cells significant`).toBeLessThanOrEqual(upper(CELLS, ALPHA));
      // the gate's verdict is the Holm-corrected one, and it says what it could have seen, per cell
      const regressions = cells.filter((c) => c.regression).length;
      expect(second.code, second.stderr).toBe(regressions ? 1 : 0);
      expect(second.stderr).toMatch(/gate: detects drops of \d+\.\d–\d+\.\d pts with 80% power/);
      expect(second.stderr).toMatch(
        new RegExp(
          `gate: {3}correct-arguments in full-details × coin-\\d\\d: ≥ \\d+\\.\\d pts \\(n=${CASES}, k=${k}, baseline`,
        ),
      );
      expect(second.stderr).not.toContain('configuration differs');
      if (k === 1) expect(second.stderr).toContain('(assumed: one trial per case)');
      else expect(second.stderr).not.toContain('(assumed');
      if (full) {
        const summary = readFileSync(join(runDir, 'summary.md'), 'utf8');
        expect(summary).toContain('## What this gate can detect');
        expect(summary).toMatch(
          new RegExp(
            `\\| full-details \\| coin-\\d\\d \\| correct-arguments \\| ≥ \\d+\\.\\d pts \\| ${CASES} \\| 3 \\|`,
          ),
        );
        expect(summary).toMatch(/## Flaky cases \(\d+\)/);
        expect(summary).toMatch(/- `coin\/c\d{4}\|full-details\|coin-\d\d` correct-arguments: [12]\/3 repeats passed/);
        const html = readFileSync(join(runDir, 'report.html'), 'utf8');
        expect(html).toContain('<section id="detect"><h2>What this gate can detect</h2>');
        expect(html).toContain('<section id="flaky">');
      }
    }
    // over every k together: 4 × CELLS comparisons
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(total, JSON.stringify(counts)).toBeLessThanOrEqual(upper(4 * CELLS, ALPHA));
  }, 300_000);
});
