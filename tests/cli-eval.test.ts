import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter, RunHeader } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

describe('toolgauge eval (end to end, real CLI process)', () => {
  it('runs a small suite and writes a complete run log and summary', async () => {
    const out = tempDir('tg-e2e-');
    const res = await runCli(['eval', '-c', join(FIXTURES, 'mini.config.yaml'), '--out', out]);
    expect(res.stderr).toContain('gate: passed');
    expect(res.code).toBe(0);
    const dir = runDirFrom(res.stderr);
    expect(dir.startsWith(out)).toBe(true);
    const records = readRecords(join(dir, 'run.jsonl'));
    const header = records[0] as RunHeader;
    expect(header).toMatchObject({ type: 'header', format: 'toolgauge.run/2', plannedCases: 12 });
    expect(header.strategies.map((s) => s.label)).toEqual(['names-only', 'full-details']);
    expect(header.providers).toEqual([
      { label: 'sim:oracle', id: 'sim:oracle', simulated: true },
      { label: 'sim:guesser', id: 'sim:guesser', simulated: true },
    ]);
    const cases = records.filter((r): r is CaseRecord => r.type === 'case');
    expect(cases).toHaveLength(12);
    expect(new Set(cases.map((c) => c.key)).size).toBe(12);
    for (const c of cases) {
      expect(c.error).toBeUndefined();
      expect(c.transcript.turns.length).toBeGreaterThan(0);
      expect(c.promptTokens).toBeGreaterThan(0);
      expect(c.simulated).toBe(true);
    }

    // The oracle under full details: the call is executed against the real excel server and the
    // result is fed back, so the second turn's request holds the fixture data.
    const read = cases.find((c) => c.key === 'mini/read-sheet-zh|full-details|sim:oracle|0')!;
    expect(read.protocol).toBe('xml-tags');
    expect(read.transcript.turns).toHaveLength(2);
    const [t1, t2] = read.transcript.turns;
    expect(t1!.executed).toHaveLength(1);
    expect(t1!.executed[0]).toMatchObject({ server: 'excel', tool: 'read_data_from_excel', isError: false });
    expect(t1!.executed[0]!.result).toContain('名称');
    const fedBack = t2!.request.messages.at(-1)!;
    expect(fedBack.role).toBe('user');
    expect(fedBack.content).toContain('<tool_result name="read_data_from_excel">');
    expect(fedBack.content).toContain('A2=苹果');
    expect(read.transcript.stopReason).toBe('answered');
    const grade = (c: CaseRecord, g: string) => c.grades.find((x) => x.grader === g);
    expect(grade(read, 'parseable')).toMatchObject({ pass: true });
    expect(grade(read, 'correct-arguments')).toMatchObject({ pass: true });
    expect(grade(read, 'continued-after-results')).toMatchObject({ pass: true });
    expect(grade(read, 'no-call')).toBeUndefined();

    // The irrelevance case is graded by no-call only.
    const capital = cases.find((c) => c.key === 'mini/capital-irrelevant|names-only|sim:oracle|0')!;
    expect(capital.grades.map((g) => g.grader)).toEqual(['no-call']);
    expect(capital.grades[0]!.pass).toBe(true);

    // names-only hides parameter names from the prompt the model received.
    const namesOnly = cases.find((c) => c.key === 'mini/read-sheet-zh|names-only|sim:oracle|0')!;
    expect(namesOnly.transcript.turns[0]!.request.system).toContain('read_data_from_excel');
    expect(namesOnly.transcript.turns[0]!.request.system).not.toContain('sheet_name');
    expect(namesOnly.promptTokens).toBeLessThan(read.promptTokens);

    const footer = records.at(-1) as RunFooter;
    expect(footer).toMatchObject({ type: 'footer', interrupted: false, completed: 12, errors: 0 });
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('| renderer | provider |');
    expect(summary).toContain('sim:guesser (simulated)');
    expect(res.stdout).toContain(summary.split('\n')[0]);
  });

  it('exits 1 when a gate threshold fails; report of that run writes the failing gate suite and verdict again', async () => {
    const out = tempDir('tg-e2e-');
    const res = await runCli(['eval', '-c', join(FIXTURES, 'gate.config.yaml'), '--out', out]);
    expect(res.stderr).toMatch(/gate: continued-after-results 0\.0% \(0\/\d+\) < 90\.0% FAILED/);
    expect(res.code).toBe(1);
    const dir = runDirFrom(res.stderr);
    const footer = readRecords(join(dir, 'run.jsonl')).at(-1) as RunFooter;
    expect(footer.gate).toMatchObject({ exitCode: 1 });
    expect(footer.gate?.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([
      'continued-after-results >= 90.0% over every cell',
    ]);
    // `toolgauge report` judges no gate: it writes the verdict the footer keeps, so junit.xml stays red
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(junit).toContain('<failure');
    for (const f of ['junit.xml', 'summary.md']) rmSync(join(dir, f));
    const report = await runCli(['report', dir, '-q']);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toBe(junit);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe(summary);
  });
});
