import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { passingCases, type SyntheticCase, writeSyntheticRun } from '../../tests/helpers/synthetic-run.js';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { loadRun } from '../run-log/load-run.js';
import { compareSnapshots } from './compare.js';
import { renderCompare } from './compare-md.js';
import { type RunSnapshot, readSnapshot, serializeSnapshot, snapshotOf } from './snapshot.js';

const tempDir = useTempDirs();

const dir = tempDir('tg-compare-');
const graders = ['parseable', 'correct-arguments'];

async function snap(id: string, cases: SyntheticCase[], repeats = 1): Promise<RunSnapshot> {
  return snapshotOf((await loadRun(writeSyntheticRun(dir, id, cases, { repeats }))).aggregate);
}

describe('compareSnapshots', () => {
  it('flags a 90% → 60% drop on the same cases as a regression of that cell', async () => {
    const base = await snap('base', passingCases(40, 36, graders));
    const run = await snap('run', [
      ...passingCases(40, 24, graders),
      ...passingCases(5, 5, graders, { renderer: 'names-only' }).map((c) => ({ ...c, case: `new-${c.case}` })),
    ]);
    const r = compareSnapshots(base, run);
    const reg = r.cells.filter((c) => c.regression);
    expect(reg.map((c) => `${c.grader}@${c.renderer}×${c.provider}`).sort()).toEqual([
      'correct-arguments@full-details×sim:oracle',
      'parseable@full-details×sim:oracle',
    ]);
    expect(reg[0]?.worse).toBe(12);
    expect(reg[0]?.better).toBe(0);
    expect(reg[0]?.delta).toBeCloseTo(-0.3, 10);
    expect(r.flips.filter((f) => f.from === 'pass' && f.to === 'fail')).toHaveLength(24);
    expect(r.added).toHaveLength(5);
    expect(r.removed).toHaveLength(0);
    const md = renderCompare(r);
    expect(md).toContain('## Regressions (2)');
    expect(md).toContain('REGRESSION');
    expect(md).toContain('added `excel/new-case-000|names-only|sim:oracle`');
  });

  it('does not call symmetric noise a regression, and tolerates small significant drops', async () => {
    // 100 cases, 12 flip each way: pure noise.
    const base = passingCases(100, 88, ['parseable']);
    const run = base.map((c) => ({ ...c, pass: { ...c.pass } }));
    for (let i = 0; i < 12; i++) (run[i] as SyntheticCase).pass = { parseable: false };
    for (let i = 88; i < 100; i++) (run[i] as SyntheticCase).pass = { parseable: true };
    const r = compareSnapshots(await snap('aa-1', base), await snap('aa-2', run));
    expect(r.cells[0]?.worse).toBe(12);
    expect(r.cells[0]?.better).toBe(12);
    expect(r.cells.some((c) => c.regression)).toBe(false);
    // A significant 4-point drop (4 of 100 flip one way) is within the default 5-point tolerance.
    const small = base.map((c, i) => (i < 4 ? { ...c, pass: { parseable: false } } : c));
    const tol = compareSnapshots(await snap('aa-3', base), await snap('aa-4', small), {
      alpha: 0.2,
      maxRegression: 0.05,
    });
    expect(tol.cells[0]?.significant).toBe(true);
    expect(tol.cells[0]?.regression).toBe(false);
  });

  it('pairs repeats within a case (pass counts over repeats)', async () => {
    const reps = (n: number, passFor: (c: number, r: number) => boolean) =>
      Array.from({ length: n * 3 }, (_, i) => ({
        case: `c${Math.floor(i / 3)}`,
        repeat: i % 3,
        pass: { parseable: passFor(Math.floor(i / 3), i % 3) },
      }));
    const base = await snap(
      'rep-base',
      reps(10, () => true),
      3,
    );
    const run = await snap(
      'rep-run',
      reps(10, (c, r) => !(c < 6 && r === 0)),
      3,
    );
    expect(base.cases['excel/c0|full-details|sim:oracle']).toEqual({ parseable: [3, 3] });
    const r = compareSnapshots(base, run);
    expect(r.cells[0]?.worse).toBe(6);
    expect(r.flips.filter((f) => f.to === 'flaky')).toHaveLength(6);
  });

  it('counts a case once, whatever its repeats: cases that flip as a block are not many independent pairs', async () => {
    // k = 10: 12 cases go 10/10 → 0/10 and 8 go 0/10 → 10/10. Counted as 120 against 80 McNemar pairs this is
    // p ≈ 0.006; as 12 cases against 8 it is the sign test's p ≈ 0.50.
    const k = 10;
    const blocks = (passing: (c: number) => boolean) =>
      Array.from({ length: 20 * k }, (_, i) => ({
        case: `c${Math.floor(i / k)}`,
        repeat: i % k,
        pass: { parseable: passing(Math.floor(i / k)) },
      }));
    const base = await snap(
      'block-base',
      blocks((c) => c < 12),
      k,
    );
    const run = await snap(
      'block-run',
      blocks((c) => c >= 12),
      k,
    );
    const r = compareSnapshots(base, run, { alpha: 0.05, maxRegression: 0 });
    const cell = r.cells[0];
    expect(cell?.worse).toBe(120);
    expect(cell?.better).toBe(80);
    expect(cell?.casesWorse).toBe(12);
    expect(cell?.casesBetter).toBe(8);
    expect(cell?.p).toBeCloseTo(0.5034446716308594, 12);
    expect(cell?.significant).toBe(false);
    expect(cell?.regression).toBe(false);
    // the same 12 against 8 with one trial per case is the same test
    const one = compareSnapshots(
      await snap(
        'block-base-1',
        blocks((c) => c < 12).filter((x) => x.repeat === 0),
      ),
      await snap(
        'block-run-1',
        blocks((c) => c >= 12).filter((x) => x.repeat === 0),
      ),
    );
    expect(one.cells[0]?.p).toBe(cell?.p);
  });

  it('serialises a baseline stably: sorted keys, one case per line, read back equal', async () => {
    const s = await snap('ser', passingCases(3, 2, graders));
    const text = serializeSnapshot(s);
    expect(text.split('\n').filter((l) => l.includes('excel/case-'))).toHaveLength(3);
    expect(text).toContain('"excel/case-000|full-details|sim:oracle": {"correct-arguments":[1,1],"parseable":[1,1]}');
    const file = join(dir, 'baseline.json');
    (await import('node:fs')).writeFileSync(file, text);
    expect(readSnapshot(file)).toEqual(JSON.parse(JSON.stringify(s)));
    expect(readSnapshot(join(dir, 'missing.json'))).toBeNull();
    // a hand-edited baseline is one clear line naming the field, not a wrong comparison
    const bad = join(dir, 'bad-baseline.json');
    (await import('node:fs')).writeFileSync(bad, text.replace('"parseable":[1,1]', '"parseable":[3,2]'));
    expect(() => readSnapshot(bad)).toThrow(
      /bad-baseline\.json: not a valid toolgauge baseline at "cases"\."excel\/case-000\|full-details\|sim:oracle"\."parseable": passes exceed trials; regenerate it/,
    );
  });
});
