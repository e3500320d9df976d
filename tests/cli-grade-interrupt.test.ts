import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter, RunHeader } from '../src/run-log/schema.js';
import { caseCount, FIXTURES, finished, readRecords, runDirFrom, startCli, waitFor } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const RECORDED = join(FIXTURES, 'bfcl-recorded');

describe('Ctrl-C during toolgauge grade', () => {
  it('keeps every graded line, ends the run log with an interrupted footer, writes the reports, exits 130', async () => {
    const dir = tempDir('tg-grade-sigint-');
    // Both models' recorded parallel replies, 100 times over: 40,000 lines in ~10 MB, several seconds of grading,
    // read in 1 MiB batches, so the signal lands with most of the file still to grade.
    const models = readdirSync(RECORDED, { withFileTypes: true }).filter((d) => d.isDirectory());
    const lines = models.map((m) => readFileSync(join(RECORDED, m.name, 'parallel.jsonl'), 'utf8').trim()).join('\n');
    const outputs = join(dir, 'outputs.jsonl');
    writeFileSync(outputs, `${Array.from({ length: 100 }, () => lines).join('\n')}\n`);
    const total = readFileSync(outputs, 'utf8').trim().split('\n').length;

    const child = startCli([
      'grade',
      '--suite',
      'suites/bfcl/parallel.yaml',
      '--outputs',
      outputs,
      '--out',
      join(dir, 'out'),
    ]);
    const done = finished(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    await waitFor(() => /→ (\S+)\n/.test(stderr), 60_000);
    const runDir = runDirFrom(stderr);
    const log = join(runDir, 'run.jsonl');
    await waitFor(() => caseCount(log) > 0, 60_000);
    child.kill('SIGINT');
    const res = await done;

    expect(res.code).toBe(130);
    expect(res.stderr).toContain('interrupted: stopping after the lines being graded');
    const records = readRecords(log); // every line parses: nothing torn
    expect((records[0] as RunHeader).plannedCases).toBe(total);
    const kept = records.filter((r): r is CaseRecord => r.type === 'case');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(total);
    expect(records.at(-1)).toMatchObject({
      type: 'footer',
      interrupted: true,
      completed: kept.length,
    } satisfies Partial<RunFooter>);
    expect(res.stderr).toContain(`grade: interrupted after ${kept.length} of the file's lines`);
    const summary = readFileSync(join(runDir, 'summary.md'), 'utf8');
    expect(summary.toLowerCase()).toContain('interrupted');
    expect(existsSync(join(runDir, 'report.html'))).toBe(true);
  }, 120_000);
});
