import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunLog } from '../src/run-log/reader.js';
import type { CaseRecord, RunRecord } from '../src/run-log/schema.js';
import { RunLogWriter } from '../src/run-log/writer.js';
import { FIXTURES } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/*
 * tests/fixtures/run-log-v2-full/run.jsonl was written by the run-log writer of format 2 as it was before packing
 * (commit 736d632: blobs, priorMessages and rawIsReply, every other field whole): the 12 cases of
 * run-log-v1/shard-1, then the 40 records of varied.jsonl (tests/helpers/varied-records.ts: simulated, real-provider
 * and recorded records, errors, fields departing from the packing rules). A log of that writer reads as it did.
 */
const DIR = join(FIXTURES, 'run-log-v2-full');

async function records(file: string): Promise<RunRecord[]> {
  const out: RunRecord[] = [];
  for await (const r of readRunLog(file)) out.push(r);
  return out;
}

const jsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as CaseRecord);

describe('run logs of format 2 written before packing', () => {
  it('read as the records that were written, key order included', async () => {
    const v1 = await records(join(FIXTURES, 'run-log-v1', 'shard-1', 'run.jsonl'));
    const expected = [
      ...v1.filter((r) => r.type === 'case'),
      ...jsonl(join(DIR, 'varied.jsonl')),
      ...v1.filter((r) => r.type === 'footer'),
    ];
    const read = await records(join(DIR, 'run.jsonl'));
    expect(read[0]).toEqual(v1[0]);
    expect(read.slice(1)).toEqual(expected);
    expect(read.slice(1).map((r) => JSON.stringify(r))).toEqual(expected.map((r) => JSON.stringify(r)));
  });

  it('written again by this writer (as merge and regrade do), are packed and read back the same', async () => {
    const read = await records(join(DIR, 'run.jsonl'));
    const file = join(tempDir('tg-v2-full-'), 'run.jsonl');
    const w = new RunLogWriter(file);
    for (const r of read) w.write(r);
    w.close();
    expect(await records(file)).toEqual(read);
    expect(readFileSync(file, 'utf8')).toContain('"packed":"');
    expect(statSync(file).size).toBeLessThan(statSync(join(DIR, 'run.jsonl')).size * 0.8);
  });
});
