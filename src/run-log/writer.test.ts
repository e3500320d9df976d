import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import type { RunFooter, RunRecord } from './schema.js';
import { RunLogWriter } from './writer.js';

const tempDir = useTempDirs();

const footer = (n: number, note = ''): RunFooter => ({
  type: 'footer',
  finishedAt: `2026-01-01T00:00:00.000Z${note}`,
  interrupted: false,
  completed: n,
  errors: 0,
});

describe('RunLogWriter', () => {
  it('writes exactly JSON.stringify(record) + LF per record, across buffer flushes and oversized lines', () => {
    const file = join(tempDir('tg-lw-'), 'sub', 'run.jsonl');
    const w = new RunLogWriter(file);
    const records: RunRecord[] = [];
    for (let i = 0; i < 3000; i++) records.push(footer(i, '名称 é 😀'.repeat(i % 200)));
    records.push(footer(-1, 'x'.repeat(3 << 20)));
    records.push(footer(-2));
    for (const [i, r] of records.entries()) {
      w.write(r);
      if (i === 10) w.flush();
    }
    w.close();
    expect(readFileSync(file, 'utf8')).toBe(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    expect(() => w.write(footer(0))).toThrow(/closed/);
  });

  it('writes a record holding a value nested deeper than JSON.stringify can recurse, and it reads back whole', () => {
    const file = join(tempDir('tg-lw-'), 'run.jsonl');
    const levels = 20_000;
    const deep = `${'{"a":['.repeat(levels)}1${']}'.repeat(levels)}`;
    const record = { ...footer(1), deep: JSON.parse(deep) } as RunRecord;
    expect(() => JSON.stringify(record)).toThrow(RangeError);
    const w = new RunLogWriter(file);
    w.write(footer(0));
    w.write(record);
    w.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe(JSON.stringify(footer(0)));
    expect(lines[1]).toBe(`${JSON.stringify(footer(1)).slice(0, -1)},"deep":${deep}}`);
    expect(lines[2]).toBe('');
  });
});
