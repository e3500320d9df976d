import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../src/run-log/schema.js';
import { readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/** A config over the bundled excel suite, one renderer, one provider shown under the label `model`. */
function writeConfig(dir: string, provider: string): string {
  const file = join(dir, 'toolgauge.config.yaml');
  writeFileSync(
    file,
    [
      'suites: [excel]',
      'renderers: [names-only]',
      `providers: [{ id: "${provider}", label: model }]`,
      'graders: [correct-arguments]',
      'repeats: 1',
      'concurrency: 8',
      'seed: 1',
      'out: runs',
      'gate: { maxInfraErrorRate: 0, maxRegression: 0.05, alpha: 0.05 }',
      '',
    ].join('\n'),
  );
  return file;
}

const REGRESSION = 'gate: REGRESSION correct-arguments in names-only × model';

/** A folder with a config whose committed baseline is a run of sim:oracle (every case passes). */
async function withBaseline(): Promise<{ dir: string; cfg: string }> {
  const dir = tempDir('tg-shard-regression-');
  const cfg = writeConfig(dir, 'sim:oracle');
  // (the CLI runs in the checkout; every path is absolute)
  const base = await runCli(['eval', '-c', cfg, '-q']);
  expect(base.code).toBe(0);
  const promoted = await runCli(['baseline', 'update', runDirFrom(base.stderr), '-c', cfg]);
  expect(promoted.code).toBe(0);
  expect(existsSync(join(dir, 'reports', 'baseline.json'))).toBe(true);
  return { dir, cfg };
}

async function shards(cfg: string): Promise<string[]> {
  const runs = await Promise.all([1, 2].map((i) => runCli(['eval', '-c', cfg, '--shard', `${i}/2`, '-q'])));
  return runs.map((r) => runDirFrom(r.stderr));
}

describe('merge judges the merged run against the baseline, as eval of the whole plan does (real CLI)', () => {
  it('a model that got worse fails eval of the whole run and the merge of its shards alike, naming the cell', async () => {
    const { dir, cfg } = await withBaseline();
    writeConfig(dir, 'sim:guesser'); // same label, a model that guesses the parameter names it is not shown
    const whole = await runCli(['eval', '-c', cfg, '-q']);
    expect(whole.code).toBe(1);
    expect(whole.stderr).toContain(REGRESSION);

    const merged = join(dir, 'merged');
    const res = await runCli(['merge', ...(await shards(cfg)), '--out', merged]);
    expect(res.stderr).toContain(REGRESSION);
    expect(res.code).toBe(1);
    const line = (s: string) => s.split('\n').find((l) => l.startsWith(REGRESSION));
    expect(line(res.stderr)).toBe(line(whole.stderr));
    expect(readFileSync(join(merged, 'compare.md'), 'utf8')).toContain('correct-arguments');
    expect(readFileSync(join(merged, 'summary.md'), 'utf8')).toContain('**correct-arguments** in names-only × model');
  });

  it('a regression planted in one shard fails the merge (exit 1); the shards as run pass it (exit 0)', async () => {
    const { dir, cfg } = await withBaseline();
    const [first, second] = await shards(cfg);
    const clean = await runCli(['merge', first!, second!, '--out', join(dir, 'clean')]);
    expect(clean.stderr).toContain('gate: passed');
    expect(clean.code).toBe(0);

    // Every correct-arguments grade of shard 1 turned into a failure, as a regressed model would have it.
    const log = join(first!, 'run.jsonl');
    const planted = readRecords(log).map((r: RunRecord) =>
      r.type === 'case'
        ? { ...r, grades: r.grades.map((g) => ({ ...g, pass: false, score: 0, reason: 'planted failure' })) }
        : r,
    );
    writeFileSync(log, planted.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const res = await runCli(['merge', first!, second!, '--out', join(dir, 'planted')]);
    expect(res.stderr).toContain(REGRESSION);
    expect(res.stderr).toContain('gate: FAILED');
    expect(res.code).toBe(1);
  });
});
