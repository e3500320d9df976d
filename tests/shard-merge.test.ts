import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter, RunHeader } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const cases = (dir: string) => readRecords(join(dir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
const gradesByKey = (records: CaseRecord[]) =>
  Object.fromEntries(records.map((r) => [r.key, r.grades.map((g) => [g.grader, g.pass, g.score, g.reason])]));

describe('--shard i/n and toolgauge merge (real CLI processes)', () => {
  it('three shards partition the plan by case, and their merge grades exactly like the unsharded run', async () => {
    const out = tempDir('tg-shard-');
    const cfg = join(FIXTURES, 'mini.config.yaml');
    const args = ['eval', '-c', cfg, '--repeat', '2', '-q'];
    const [full, ...shards] = await Promise.all([
      runCli([...args, '--out', join(out, 'full')]),
      ...[1, 2, 3].map((i) => runCli([...args, '--shard', `${i}/3`, '--out', join(out, `s${i}`)])),
    ]);
    const fullDir = runDirFrom(full!.stderr);
    const shardDirs = shards.map((s) => runDirFrom(s.stderr));
    for (const [i, dir] of shardDirs.entries()) {
      const header = readRecords(join(dir, 'run.jsonl'))[0] as RunHeader;
      expect(header.shard).toEqual({ index: i + 1, count: 3 });
      // Every cell and repeat of a case stays in one shard.
      const perCase = new Map<string, number>();
      for (const r of cases(dir)) perCase.set(`${r.suite}/${r.case}`, (perCase.get(`${r.suite}/${r.case}`) ?? 0) + 1);
      for (const n of perCase.values()) expect(n).toBe(2 * 2 * 2);
      expect(header.plannedCases).toBe(cases(dir).length);
    }

    const merged = join(out, 'merged');
    const res = await runCli(['merge', ...shardDirs, '--out', merged]);
    expect(res.stderr).toContain('merge: 24 cases from 3 runs');
    expect(res.code).toBe(0);
    const records = readRecords(join(merged, 'run.jsonl'));
    expect(records.filter((r) => r.type === 'header')).toHaveLength(1);
    const header = records[0] as RunHeader;
    expect(header.shard).toBeUndefined();
    expect(header.plannedCases).toBe(24);
    expect(records.at(-1)).toMatchObject({
      type: 'footer',
      completed: 24,
      interrupted: false,
    } satisfies Partial<RunFooter>);
    expect(gradesByKey(cases(merged))).toEqual(gradesByKey(cases(fullDir)));
    expect(readFileSync(join(merged, 'summary.md'), 'utf8')).toContain('cases run: 24');

    // Overlapping runs cannot be merged: a usage error naming the case and both folders.
    const overlap = await runCli(['merge', fullDir, shardDirs[0]!, '--out', join(out, 'bad')]);
    expect(overlap.code).toBe(2);
    expect(overlap.stderr).toMatch(/merge: .*(is not a shard|shards must not overlap)/);

    // Regrading needs no model: the same graders over the stored transcripts give the same grades.
    const regraded = join(out, 'regraded');
    const rg = await runCli(['regrade', fullDir, '--out', regraded]);
    expect(rg.stderr).toContain('24 records regraded, 0 with changed grades');
    expect(gradesByKey(cases(regraded))).toEqual(gradesByKey(cases(fullDir)));
    const only = await runCli(['regrade', fullDir, '--out', join(out, 'only'), '--grader', 'no-call']);
    const graders = new Set(cases(join(out, 'only')).flatMap((r) => r.grades.map((g) => g.grader)));
    expect([...graders]).toEqual(['no-call']);
    expect(only.stderr).toMatch(/24 records regraded, \d+ with changed grades/);
  }, 90_000);

  it('rejects a malformed --shard with a one-line usage error', async () => {
    const res = await runCli(['eval', '-c', join(FIXTURES, 'mini.config.yaml'), '--shard', '4/3']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--shard 4/3: expected i/n with 1 ≤ i ≤ n');
  });
});
