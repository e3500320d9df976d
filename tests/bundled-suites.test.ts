import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const cases = async (args: string[]) => {
  const out = tempDir('tg-bundled-');
  const res = await runCli(['eval', '--out', out, '-q', ...args]);
  const records = readRecords(join(runDirFrom(res.stderr), 'run.jsonl'));
  return { res, cases: records.filter((r): r is CaseRecord => r.type === 'case') };
};

describe('bundled suites (default config)', () => {
  it('sim:oracle passes every grade of every case under every renderer: suites, servers, parser and graders agree', async () => {
    const { res, cases: all } = await cases(['--provider', 'sim:oracle']);
    expect(res.code).toBe(0);
    // 9 strategies: 4 renderers, native-functions on 2 crowded catalogs, tool-search on 3 catalogs; 97 bundled cases
    expect(all.length).toBe(9 * 97);
    const failing = all.flatMap((c) =>
      c.error
        ? [`${c.key}: ${c.error.message}`]
        : c.grades.filter((g) => !g.pass).map((g) => `${c.key} ${g.grader}: ${g.reason}`),
    );
    expect(failing).toEqual([]);
  });

  it('case study 000 reproduced: sim:guesser is far less correct with names only than with full details', async () => {
    const { cases: all } = await cases([
      '--provider',
      'sim:guesser',
      '--suite',
      'excel',
      '-r',
      'names-only',
      '-r',
      'full-details',
    ]);
    const rate = (renderer: string) => {
      const grades = all
        .filter((c) => c.renderer === renderer)
        .flatMap((c) => c.grades.filter((g) => g.grader === 'correct-arguments'));
      return grades.filter((g) => g.pass).length / grades.length;
    };
    expect(rate('full-details')).toBeGreaterThan(0.8);
    expect(rate('names-only')).toBeLessThan(0.45);
  });
});
