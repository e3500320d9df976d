import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { passingCases, writeSyntheticRun } from '../../tests/helpers/synthetic-run.js';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { serializeSnapshot, snapshotOf } from '../report/snapshot.js';
import { loadRun } from '../run-log/load-run.js';
import { applyGate } from './gate.js';
import { judgeRun } from './judge.js';

const tempDir = useTempDirs();

const dir = tempDir('tg-gate-');
const graders = ['parseable'];

async function agg(id: string, cases: Parameters<typeof writeSyntheticRun>[2]) {
  return (await loadRun(writeSyntheticRun(dir, id, cases))).aggregate;
}

describe('gate', () => {
  it('fails a baseline at 90% against a run at 60% and names the regressed cell; passes without a baseline', async () => {
    const base = await agg('b90', [
      ...passingCases(30, 27, graders),
      ...passingCases(30, 27, graders, { renderer: 'names-only' }),
    ]);
    writeFileSync(join(dir, 'baseline.json'), serializeSnapshot(snapshotOf(base)));
    const run = await agg('r60', [
      ...passingCases(30, 18, graders),
      ...passingCases(30, 27, graders, { renderer: 'names-only' }),
    ]);
    const { comparison, verdict } = judgeRun(run, { maxInfraErrorRate: 0, baseline: 'baseline.json' }, dir);
    expect(verdict.exitCode).toBe(1);
    expect(verdict.lines.join('\n')).toContain(
      'gate: REGRESSION parseable in full-details × sim:oracle: 90.0% → 60.0% (−30.0 pts, 9 pass→fail vs 0 fail→pass',
    );
    expect(verdict.lines.join('\n')).not.toContain('REGRESSION parseable in names-only');
    // what the gate could have seen, per compared cell, before the verdict
    expect(verdict.lines).toContain(
      'gate: detects drops of 39.4 pts with 80% power (per cell × grader, from the baseline):',
    );
    expect(verdict.lines).toContain(
      'gate:   parseable in names-only × sim:oracle: ≥ 39.4 pts (n=30, k=1, baseline 90.0%, flip rate 18.0% (assumed: one trial per case))',
    );
    expect(verdict.lines.at(-1)).toBe('gate: FAILED');
    expect(comparison?.cells.filter((c) => c.regression)).toHaveLength(1);
    const none = judgeRun(run, { maxInfraErrorRate: 0, baseline: 'absent.json' }, dir);
    expect(none.comparison).toBeNull();
    expect(none.verdict.exitCode).toBe(0);
    expect(none.verdict.lines).toContain(
      'gate: no baseline (regressions not checked; `toolgauge baseline update <run-dir>` creates one)',
    );
    expect(judgeRun(run, { maxInfraErrorRate: 0, baseline: 'none' }, dir).comparison).toBeUndefined();
  });

  it('names the cells where no drop is detectable, apart from the figures', async () => {
    const cases = [
      ...passingCases(40, 36, graders),
      ...passingCases(40, 0, graders, { provider: 'sim:stopper' }),
      ...passingCases(4, 4, graders, { provider: 'sim:few' }),
    ];
    writeFileSync(join(dir, 'none.json'), serializeSnapshot(snapshotOf(await agg('none-base', cases))));
    const { verdict } = judgeRun(await agg('none-run', cases), { maxInfraErrorRate: 0, baseline: 'none.json' }, dir);
    expect(verdict.lines).toContain(
      'gate:   no drop detectable: parseable in full-details × sim:stopper (nothing passes in the baseline)',
    );
    expect(verdict.lines).toContain(
      'gate:   no drop detectable: parseable in full-details × sim:few (too few cases, n ≤ 4)',
    );
    expect(
      verdict.lines.filter((l) => l.startsWith('gate:   parseable in full-details × sim:oracle: ≥ ')),
    ).toHaveLength(1);
    expect(verdict.lines[0]).toBe(
      'gate: baseline none-base: 0 significant regression(s) beyond 5.0 pts (paired sign-flip test per case, Holm-corrected alpha 0.05)',
    );
    expect(verdict.lines[1]).toMatch(/^gate: detects drops of \d+\.\d pts \(2 cell\(s\): none\) with 80% power/);
  });

  it('applies per-cell thresholds with renderer/provider globs', async () => {
    const run = await agg('cells', [
      ...passingCases(10, 9, graders),
      ...passingCases(10, 5, graders, { provider: 'sim:guesser' }),
    ]);
    const ok = applyGate(run, {
      maxInfraErrorRate: 0,
      thresholds: [{ grader: 'parseable', min: 0.8, provider: 'sim:o*' }],
    });
    expect(ok.exitCode).toBe(0);
    const bad = applyGate(run, { maxInfraErrorRate: 0, thresholds: [{ grader: 'parseable', min: 0.8 }] });
    expect(bad.exitCode).toBe(1);
    expect(bad.lines).toContain('gate: parseable in full-details × sim:guesser 50.0% (5/10) < 80.0% FAILED');
    expect(bad.lines.at(-1)).toBe('gate: FAILED');
  });

  it('judges infrastructure errors apart (exit 3), before any pass rate', async () => {
    const run = await agg('errors', [
      ...passingCases(8, 0, graders),
      ...passingCases(2, 0, [], { error: { code: 'PROVIDER_HTTP', message: '500' } }).map((c) => ({
        ...c,
        case: `e-${c.case}`,
      })),
    ]);
    const v = applyGate(run, { maxInfraErrorRate: 0.1, minPassRate: { parseable: 0.9 } });
    expect(v.exitCode).toBe(3);
    expect(v.lines[0]).toContain('2/10 cases hit infrastructure errors (20.0% > 10.0% allowed)');
    expect(applyGate(run, { maxInfraErrorRate: 0.2, minPassRate: { parseable: 0.9 } }).exitCode).toBe(1);
  });
});
