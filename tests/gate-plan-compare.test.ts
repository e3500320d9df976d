import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planGate } from '../src/gate/plan-gate.js';
import { DEFAULT_COMPARE } from '../src/report/compare.js';
import { snapshotOf } from '../src/report/snapshot.js';
import { loadRun } from '../src/run-log/load-run.js';
import { runCli } from './cli-helpers.js';
import { type SyntheticCase, writeSyntheticRun } from './helpers/synthetic-run.js';

const dir = mkdtempSync(join(tmpdir(), 'tg-gate-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 60 cases × k repeats in two cells; case i passes repeat r unless `fails(i, r)`. */
function cases(k: number, fails: (i: number, r: number) => boolean): SyntheticCase[] {
  const out: SyntheticCase[] = [];
  for (const provider of ['sim:oracle', 'sim:guesser']) {
    for (let i = 0; i < 60; i++) {
      for (let r = 0; r < k; r++) {
        out.push({
          case: `case-${String(i).padStart(3, '0')}`,
          provider,
          repeat: r,
          pass: { parseable: !fails(i, r) },
        });
      }
    }
  }
  return out;
}

describe('toolgauge plan and compare settings (real CLI)', () => {
  // the baseline: 3 repeats; cases 0-5 always fail, cases 6-17 fail one repeat in three (flaky): 80% pass
  const base = writeSyntheticRun(
    dir,
    'base',
    cases(3, (i, r) => i < 6 || (i < 18 && r === i % 3)),
    { repeats: 3 },
  );

  it('plan: cases and repeats for a drop, from the baseline pass and flip rates; refuses a drop the gate tolerates', async () => {
    const res = await runCli(['plan', base, '--drop', '0.15', '--repeats', '1,3']);
    expect(res.code, res.stderr).toBe(0);
    const want = planGate({
      baseline: snapshotOf((await loadRun(base)).aggregate),
      options: DEFAULT_COMPARE,
      drop: 0.15,
      power: 0.8,
      repeats: [1, 3],
    });
    expect(res.stdout).toContain(
      '2 renderer × provider cell(s), 2 cell × grader comparison(s), 60 case(s) per cell, 3 repeat(s)',
    );
    expect(res.stdout).toContain('gate: alpha 0.05 (Holm over 2), maxRegression 5.0 pts (from toolgauge.config.yaml)'); // the checkout's config;
    expect(res.stdout).toContain('model calls per run (1.00 per trial)');
    expect(res.stdout).toContain('Flip rates measured from the baseline');
    for (const row of want.rows) {
      const n = row.cases as number;
      expect(n).toBeGreaterThan(0);
      expect(res.stdout).toContain(
        `| ${row.repeats} | ${n.toLocaleString('en-US')} | ${(n * row.repeats * 2).toLocaleString('en-US')} | ≈ ${(n * row.repeats * 2).toLocaleString('en-US')} |`,
      );
    }
    // repeats help: fewer cases at k = 3 than at k = 1 for the same drop
    expect(want.rows[1]?.cases).toBeLessThan(want.rows[0]?.cases as number);

    const tolerated = await runCli(['plan', base, '--drop', '0.05']);
    expect(tolerated.code).toBe(0);
    expect(tolerated.stdout).toContain('A drop of 5.0 pts is never flagged');

    const bad = await runCli(['plan', base, '--drop', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--drop');
  });

  it('compare takes the gate settings of -c (flags override); notes a configuration change; summary gives p', async () => {
    // the run: one repeat, and in sim:oracle 18 more cases fail (a 30-point drop); its config differs (repeats)
    const usual = (i: number) => i < 6 || (i < 18 && i % 3 === 0);
    const run = writeSyntheticRun(dir, 'run', [
      ...cases(1, (i) => usual(i) || (i >= 30 && i < 48)).filter((c) => c.provider === 'sim:oracle'),
      ...cases(1, usual).filter((c) => c.provider === 'sim:guesser'),
    ]);
    const config = join(dir, 'lenient.config.yaml');
    writeFileSync(config, 'suites: [excel]\nproviders: [sim:oracle]\ngate: { maxRegression: 0.5, alpha: 0.01 }\n');
    const lenient = await runCli(['compare', join(base, 'run.jsonl'), run, '-c', config, '-q']);
    expect(lenient.code, lenient.stderr).toBe(0);
    expect(lenient.stderr).toMatch(
      /compare: 0 regression\(s\) \(alpha 0\.01, maxRegression 50\.0 pts, from \S*lenient\.config\.yaml\)/,
    );
    expect(lenient.stderr).toContain("compare: note: the configuration differs from the baseline's");
    const strict = await runCli(['compare', base, run, '-c', config, '--max-regression', '0.05', '-q']);
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.stderr).toContain('compare: REGRESSION parseable in full-details × sim:oracle');
    expect(strict.stderr).toContain('lenient.config.yaml, --max-regression)');
    const md = readFileSync(join(run, 'compare.md'), 'utf8');
    expect(md).toContain('a regression is a significant drop of more than 5.0 percentage points');
    expect(md).toContain('> The configuration differs from the baseline’s (config hash changed)');
    expect(md).toContain('## What this gate can detect');
    expect(md).toMatch(/\| full-details \| sim:oracle \| parseable \| ≥ \d+\.\d pts \| 60 \| 1 \| 83\.3% \| 13\.3% \|/);

    const rep = await runCli(['report', run, '--baseline', base, '-q']);
    expect(rep.code, rep.stderr).toBe(0);
    const summary = readFileSync(join(run, 'summary.md'), 'utf8');
    expect(summary).toMatch(
      /- \*\*parseable\*\* in full-details × sim:oracle: 83% → 53% \(−30\.0 pts, \d+ pass→fail vs \d+ fail→pass, p=\S+\)/,
    );
    expect(summary).toContain("> **The configuration differs from the baseline's**");
    expect(summary).toContain('## What this gate can detect');
  });
});
