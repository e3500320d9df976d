import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { variedHeader, variedRecords } from '../../tests/helpers/varied-records.js';
import { recordGate } from './footer-gate.js';
import { readRunLog } from './reader.js';
import type { RunGate, RunRecord } from './schema.js';
import { RunLogWriter } from './writer.js';

const tempDir = useTempDirs();

const GATE: RunGate = {
  exitCode: 1,
  lines: ['gate: parseable 50.0% (1/2) < 90.0% FAILED'],
  checks: [
    { kind: 'pass-rate', name: 'parseable >= 90.0% over every cell', ok: false, line: 'gate: …', grader: 'parseable' },
  ],
  baseline: null,
};

async function readAll(file: string): Promise<RunRecord[]> {
  const out: RunRecord[] = [];
  for await (const r of readRunLog(file)) out.push(r);
  return out;
}

describe('recordGate', () => {
  const dir = tempDir('tg-footer-gate-');

  it('puts the verdict into the footer of a finished log, which reads back with every record as it was', async () => {
    const file = join(dir, 'finished.jsonl');
    const w = new RunLogWriter(file);
    for (const r of [variedHeader(), ...variedRecords(20)]) w.write(r);
    w.write({ type: 'footer', finishedAt: 'now', interrupted: false, completed: 20, errors: 0 });
    w.close();
    const before = await readAll(file);
    expect(recordGate(file, GATE)).toBe(true);
    const after = await readAll(file);
    expect(after.slice(0, -1)).toEqual(before.slice(0, -1));
    expect(after.at(-1)).toEqual({ ...before.at(-1), gate: GATE });
    // again (regrade judges a run whose footer has a verdict already): replaced, not added
    expect(recordGate(file, { ...GATE, exitCode: 0 })).toBe(true);
    expect((await readAll(file)).at(-1)).toEqual({ ...before.at(-1), gate: { ...GATE, exitCode: 0 } });
  });

  it('leaves a log that does not end with a footer (a killed run) as it is', () => {
    const file = join(dir, 'killed.jsonl');
    const w = new RunLogWriter(file);
    for (const r of [variedHeader(), ...variedRecords(5)]) w.write(r);
    w.close();
    const text = readFileSync(file, 'utf8');
    expect(recordGate(file, GATE)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(text);
    writeFileSync(file, `${text}{"type":"footer"`); // a torn footer
    expect(recordGate(file, GATE)).toBe(false);
  });
});
