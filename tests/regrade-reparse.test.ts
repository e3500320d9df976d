import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const args = { filepath: 'test.xlsx', sheet_name: 'Sheet1' };
const lines = [
  {
    case: 'read-sheet-zh',
    output: `<tool_call>${JSON.stringify({ name: 'read_data_from_excel', arguments: args })}</tool_call>`,
  },
  { case: 'capital-irrelevant', output: 'Paris.' },
];

/**
 * A run of `grade` whose stored readings are those of a parser that saw no call (as an older version did for a
 * format it did not know yet): the stored parse of every reply is emptied.
 */
async function staleGradeRun(): Promise<string> {
  const dir = tempDir('tg-reparse-');
  const outputs = join(dir, 'outputs.jsonl');
  writeFileSync(outputs, lines.map((l) => JSON.stringify(l)).join('\n'));
  const graded = await runCli([
    'grade',
    '--suite',
    join(FIXTURES, 'mini.yaml'),
    '--outputs',
    outputs,
    '--out',
    join(dir, 'reports'),
    '-q',
  ]);
  expect(graded.code).toBe(0);
  const runDir = runDirFrom(graded.stderr);
  const log = join(runDir, 'run.jsonl');
  const stale = readRecords(log).map((r: RunRecord) =>
    r.type === 'case'
      ? {
          ...r,
          transcript: {
            ...r.transcript,
            turns: r.transcript.turns.map((t) => ({ ...t, parse: { calls: [], diagnostics: [] } })),
          },
        }
      : r,
  );
  writeFileSync(log, `${stale.map((r) => JSON.stringify(r)).join('\n')}\n`);
  // and the grades of that reading
  expect((await runCli(['regrade', runDir, '--in-place', '--no-reparse'])).code).toBe(0);
  return runDir;
}

function verdicts(runDir: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const r of readRecords(join(runDir, 'run.jsonl')).filter((x): x is CaseRecord => x.type === 'case'))
    for (const g of r.grades) out[`${r.case}:${g.grader}`] = g.pass;
  return out;
}

describe('toolgauge regrade reads stored replies again with the current parser', () => {
  it('a run of grade is parsed again by default: the call the stale reading missed is graded', async () => {
    const runDir = await staleGradeRun();
    expect(verdicts(runDir)).toMatchObject({ 'read-sheet-zh:correct-arguments': false });
    const out = join(tempDir('tg-reparse-out-'), 'regraded');
    const r = await runCli(['regrade', runDir, '--out', out]);
    expect(r.stderr).toContain(
      'regrade: 1 record(s) whose replies the current parser reads differently than the run did',
    );
    expect(r.stderr).toMatch(/regrade: 2 records regraded \(replies parsed again\), 1 with changed grades/);
    expect(verdicts(out)).toMatchObject({
      'read-sheet-zh:parseable': true,
      'read-sheet-zh:correct-arguments': true,
      'capital-irrelevant:no-call': true,
    });
    const record = readRecords(join(out, 'run.jsonl')).find((x): x is CaseRecord => x.type === 'case');
    expect(record?.transcript.turns[0]?.parse.calls.map((c) => c.name)).toEqual(['read_data_from_excel']);
  });

  it('--no-reparse grades the stored readings as they are', async () => {
    const runDir = await staleGradeRun();
    const out = join(tempDir('tg-reparse-out-'), 'regraded');
    const r = await runCli(['regrade', runDir, '--out', out, '--no-reparse']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('parsed again');
    expect(verdicts(out)).toMatchObject({ 'read-sheet-zh:parseable': false, 'read-sheet-zh:correct-arguments': false });
  });

  it('a grade run whose suite file is gone is one usage line, exit 2', async () => {
    const runDir = await staleGradeRun();
    const log = join(runDir, 'run.jsonl');
    const [header, ...rest] = readFileSync(log, 'utf8').split('\n');
    const moved = JSON.parse(header as string) as { suites: { file: string }[] };
    moved.suites = moved.suites.map((s) => ({ ...s, file: '/nowhere/mini.yaml' }));
    writeFileSync(log, [JSON.stringify(moved), ...rest].join('\n'));
    const r = await runCli(['regrade', runDir, '--out', join(runDir, 'again')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'toolgauge: regrade: the suite this grade run read, /nowhere/mini.yaml, is not there; run regrade from the folder grade ran in, or restore the suite file',
    ]);
    expect(readdirSync(runDir)).not.toContain('again');
  });
});
