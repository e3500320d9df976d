import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportCommand } from '../src/cli/export-command.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';
import { HAVE_PROMPTFOO, runPromptfoo, SKIP_MESSAGE } from './promptfoo-helpers.js';

const tempDir = useTempDirs();

interface Exported {
  evalId: string;
  results: {
    version: number;
    prompts: { label: string; provider: string; metrics: { testPassCount: number; testFailCount: number } }[];
    results: {
      success: boolean;
      promptIdx: number;
      vars: { case: string };
      gradingResult: { componentResults: { pass: boolean; reason: string }[] } | null;
      metadata: { toolgaugeKey: string };
    }[];
    stats: { successes: number; failures: number; errors: number };
  };
}

let runDir = '';
let records: CaseRecord[] = [];
let exported: Exported;
let file = '';

beforeAll(async () => {
  const out = tempDir('tg-export-');
  const run = await runCli([
    'eval',
    '-c',
    join(FIXTURES, 'mini.config.yaml'),
    '-p',
    'sim:oracle',
    '-p',
    'sim:stopper',
    '--out',
    out,
    '-q',
  ]);
  expect([0, 1], run.stderr).toContain(run.code);
  runDir = runDirFrom(run.stderr);
  records = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
  file = join(out, 'promptfoo.json');
  expect(await exportCommand('promptfoo', runDir, { out: file })).toBe(0);
  exported = JSON.parse(readFileSync(file, 'utf8')) as Exported;
}, 120_000);

describe('toolgauge export promptfoo', () => {
  it("writes promptfoo's v3 eval export: a column per cell, a result per case record with each grade", () => {
    expect(exported.results.version).toBe(3);
    expect(exported.results.prompts.map((p) => `${p.label}|${p.provider}`).sort()).toEqual([
      'full-details|sim:oracle',
      'full-details|sim:stopper',
      'names-only|sim:oracle',
      'names-only|sim:stopper',
    ]);
    expect(exported.results.results).toHaveLength(records.length);
    for (const r of records) {
      const e = exported.results.results.find((x) => x.metadata.toolgaugeKey === r.key);
      expect(e, r.key).toBeDefined();
      expect(e!.success).toBe(!r.error && r.grades.every((g) => g.pass));
      expect(e!.gradingResult?.componentResults.map((c) => [c.pass, c.reason])).toEqual(
        r.grades.map((g) => [g.pass, `${g.grader}: ${g.reason}`]),
      );
      const column = exported.results.prompts[e!.promptIdx];
      expect(`${column?.label}|${column?.provider}`).toBe(`${r.renderer}|${r.provider}`);
    }
    const failures = records.filter((r) => !r.error && r.grades.some((g) => !g.pass)).length;
    expect(failures).toBeGreaterThan(0); // sim:stopper never continues after a result: the export must carry failures too
    expect(exported.results.stats.failures).toBe(failures);
    expect(exported.results.stats.successes + exported.results.stats.failures + exported.results.stats.errors).toBe(
      records.length,
    );
  });

  it('rejects an unknown format and a folder without a run log with one-line usage errors', async () => {
    await expect(exportCommand('csv', runDir)).rejects.toThrow(/unknown format; valid: promptfoo/);
    await expect(exportCommand('promptfoo', tmpdir())).rejects.toThrow(/no run.jsonl there/);
  });

  it.skipIf(!HAVE_PROMPTFOO)(
    'loads in promptfoo: `promptfoo import`, then `promptfoo export eval` gives it back',
    { timeout: 120_000 },
    async () => {
      const home = tempDir('tg-pf-home-');
      const imported = await runPromptfoo(['import', file], runDir, home);
      expect(imported.code, imported.stderr + imported.stdout).toBe(0);
      expect(imported.stdout + imported.stderr).toContain(exported.evalId);
      const back = join(home, 'back.json');
      const again = await runPromptfoo(['export', 'eval', exported.evalId, '-o', back], runDir, home);
      expect(again.code, again.stderr + again.stdout).toBe(0);
      const roundTrip = JSON.parse(readFileSync(back, 'utf8')) as Exported;
      expect(roundTrip.results.results).toHaveLength(records.length);
      const passes = (x: Exported) =>
        x.results.results
          .filter((r) => r.success)
          .map((r) => r.vars.case)
          .sort();
      expect(passes(roundTrip)).toEqual(passes(exported));
    },
  );
});

if (!HAVE_PROMPTFOO) console.warn(SKIP_MESSAGE);
