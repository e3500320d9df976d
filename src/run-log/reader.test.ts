import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { readRunLog } from './reader.js';
import { type CaseRecord, RUN_LOG_FORMAT, type RunFooter, type RunHeader } from './schema.js';

const tempDir = useTempDirs();

const header: RunHeader = {
  type: 'header',
  format: RUN_LOG_FORMAT,
  runId: 'r1',
  toolgaugeVersion: '0.0.0',
  startedAt: '2026-01-01T00:00:00.000Z',
  gitCommit: null,
  configFile: 'toolgauge.config.yaml',
  config: { repeats: 1 },
  strategies: [{ label: 'full-details', name: 'full-details', options: {} }],
  providers: [{ label: 'sim:oracle', id: 'sim:oracle', simulated: true }],
  suites: [{ name: 'excel', file: 'suites/excel.yaml', cases: 1 }],
  plannedCases: 1,
};
const record: CaseRecord = {
  type: 'case',
  key: 'excel/a|full-details|sim:oracle|0',
  suite: 'excel',
  case: 'a',
  renderer: 'full-details',
  provider: 'sim:oracle',
  simulated: true,
  repeat: 0,
  protocol: 'xml-tags',
  catalogHash: 'h',
  promptTokens: 10,
  transcript: { turns: [], finalText: '', stopReason: 'answered' },
  grades: [{ grader: 'parseable', pass: true, score: 1, reason: 'ok' }],
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  usage: { input: 0, output: 0 },
};
const footer: RunFooter = { type: 'footer', finishedAt: 'x', interrupted: false, completed: 1, errors: 0 };

function logOf(lines: string[]): string {
  const file = join(tempDir('tg-reader-'), 'run.jsonl');
  writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
  return file;
}

async function readAll(file: string) {
  const out = [];
  for await (const r of readRunLog(file)) out.push(r);
  return out;
}

describe('readRunLog', () => {
  it('reads a run log as written, fields this version does not know included', async () => {
    const extra = { ...record, futureField: { kept: true } };
    const file = logOf([JSON.stringify(header), JSON.stringify(extra), JSON.stringify(footer)]);
    const records = await readAll(file);
    expect(records).toEqual([header, extra, footer]);
  });

  it('skips a torn last line and rejects a torn line before it with file:line', async () => {
    const whole = [JSON.stringify(header), JSON.stringify(record)];
    expect(await readAll(logOf([...whole, '{"type":"case","key'])).then((r) => r.length)).toBe(2);
    const file = logOf([JSON.stringify(header), '{"type":"ca', JSON.stringify(record)]);
    await expect(readAll(file)).rejects.toThrow(`${file}:2: not a JSON record; the run log is corrupt`);
  });

  it('names the line and the field of a record that does not match its schema', async () => {
    const bad = { ...record, grades: [{ grader: 'parseable', pass: 'yes', score: 1, reason: 'ok' }] };
    const file = logOf([JSON.stringify(header), JSON.stringify(record), JSON.stringify(bad)]);
    await expect(readAll(file)).rejects.toThrow(`${file}:3: not a valid case record (grades.0: a grade is`);
    const noKey = logOf([JSON.stringify(header), JSON.stringify({ ...record, key: 7 })]);
    await expect(readAll(noKey)).rejects.toThrow(
      /run\.jsonl:2: not a valid case record \(key: .*\); the run log is corrupt/,
    );
    const odd = logOf([JSON.stringify(header), JSON.stringify({ type: 'note' })]);
    await expect(readAll(odd)).rejects.toThrow('run.jsonl:2: unknown record type "note" (valid: header, case, footer)');
  });

  it('checks the format of the header: an unknown version is refused, naming the versions it reads', async () => {
    const file = logOf([JSON.stringify({ ...header, format: 'toolgauge.run/99' })]);
    await expect(readAll(file)).rejects.toThrow(
      `${file}:1: run log format "toolgauge.run/99" is not one this toolgauge reads (it reads toolgauge.run/1, ${RUN_LOG_FORMAT})`,
    );
    const headless = logOf([JSON.stringify(record)]);
    await expect(readAll(headless)).rejects.toThrow(
      `${headless}:1: the first record is a 'case' record, not a run header`,
    );
  });
});
