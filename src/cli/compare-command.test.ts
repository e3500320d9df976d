import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, runDirFrom } from '../../tests/cli-helpers.js';
import { passingCases, writeSyntheticRun } from '../../tests/helpers/synthetic-run.js';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';

const tempDir = useTempDirs();

const dir = tempDir('tg-cli-compare-');

describe('toolgauge baseline update / compare / report (real CLI)', () => {
  it('a baseline at 90% and a run at 60% on the same cases exits 1 and names the regressed cell', async () => {
    const graders = ['parseable', 'correct-arguments'];
    const baseRun = writeSyntheticRun(dir, 'base', [
      ...passingCases(40, 36, graders),
      ...passingCases(40, 36, graders, { provider: 'sim:guesser' }),
    ]);
    const run = writeSyntheticRun(dir, 'run', [
      ...passingCases(40, 24, graders),
      ...passingCases(40, 36, graders, { provider: 'sim:guesser' }),
    ]);
    const baseline = join(dir, 'baseline.json');
    const up = await runCli(['baseline', 'update', baseRun, '--to', baseline]);
    expect(up.stderr).toContain('baseline.json ← run base (80 case(s) × cell, 2 cell(s)');
    expect(up.code).toBe(0);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).cases['excel/case-000|full-details|sim:oracle']).toEqual({
      'correct-arguments': [1, 1],
      parseable: [1, 1],
    });

    const res = await runCli(['compare', baseline, run, '-q']);
    expect(res.stderr).toMatch(/compare: REGRESSION parseable in full-details × sim:oracle: 36\/40 → 24\/40/);
    expect(res.stderr).toMatch(/compare: REGRESSION correct-arguments in full-details × sim:oracle/);
    expect(res.stderr).not.toContain('sim:guesser:');
    expect(res.code).toBe(1);
    const md = readFileSync(join(run, 'compare.md'), 'utf8');
    expect(md).toContain('## Regressions (2)');
    expect(md).toContain('## Case flips: 24 pass→fail, 0 fail→pass');

    const same = await runCli(['compare', baseline, baseRun, '-q']);
    expect(same.code).toBe(0);

    const rep = await runCli(['report', run, '--baseline', baseline, '-q']);
    expect(rep.code).toBe(0);
    for (const f of ['summary.md', 'report.html', 'results.csv', 'junit.xml', 'run.json', 'compare.md']) {
      expect(existsSync(join(run, f)), f).toBe(true);
    }
    expect(readFileSync(join(run, 'summary.md'), 'utf8')).toMatch(
      /## Regressions against baseline base \(2\)\n\n- \*\*(parseable|correct-arguments)\*\* in full-details × sim:oracle: 90% → 60%/,
    );
    // one CSV row per case × cell × grader, plus the header
    expect(readFileSync(join(run, 'results.csv'), 'utf8').trim().split('\n')).toHaveLength(1 + 80 * 2);

    const bad = await runCli(['compare', join(dir, 'nope.json'), run]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('baseline');
  });

  it('eval compares with the baseline by default; two sim:noisy runs differing only in seed pass (A/A)', async () => {
    const aa = join(dir, 'aa');
    const config = join(dir, 'aa.config.yaml');
    writeFileSync(
      config,
      [
        `suites: [${JSON.stringify(join(ROOT, 'suites/excel.yaml'))}]`,
        'renderers: [full-details, native-functions]',
        'providers: [sim:noisy]',
        'concurrency: 8',
        `out: ${JSON.stringify(aa)}`,
        'gate: { maxInfraErrorRate: 0, baseline: aa-baseline.json }',
      ].join('\n'),
    );
    const first = await runCli(['eval', '-c', config, '--seed', '1', '-q']);
    expect(first.stderr).toContain('gate: no baseline');
    expect(first.code).toBe(0);
    const firstDir = runDirFrom(first.stderr);
    for (const f of ['summary.md', 'report.html', 'results.csv', 'junit.xml', 'run.json']) {
      expect(existsSync(join(firstDir, f)), f).toBe(true);
    }
    expect((await runCli(['baseline', 'update', firstDir, '--to', join(dir, 'aa-baseline.json')])).code).toBe(0);

    const second = await runCli(['eval', '-c', config, '--seed', '2', '-q']);
    const secondDir = runDirFrom(second.stderr);
    const compare = readFileSync(join(secondDir, 'compare.md'), 'utf8');
    expect(compare).toMatch(/pass→fail \| fail→pass/); // the seeds really produced different replies
    expect(second.stderr).toMatch(/gate: baseline \S+: 0 significant regression\(s\)/);
    expect(second.stderr).toContain('gate: passed');
    expect(second.code).toBe(0);
    rmSync(aa, { recursive: true, force: true });
  });
});
