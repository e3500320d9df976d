import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { deepened, SEED, variedHeader, variedRecords } from '../../tests/helpers/varied-records.js';
import { jsonText } from '../util/json-text.js';
import { readRunLog } from './reader.js';
import type { CaseRecord, RunHeader, RunRecord } from './schema.js';
import { RunLogWriter } from './writer.js';

const tempDir = useTempDirs();

/** The record as a log holds it: what JSON keeps of it (no undefined fields). */
const asJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

async function readAll(file: string): Promise<RunRecord[]> {
  const out: RunRecord[] = [];
  for await (const r of readRunLog(file)) out.push(r);
  return out;
}

function write(file: string, records: RunRecord[], mode: 'create' | 'append' = 'create'): void {
  const w = new RunLogWriter(file, mode);
  for (const r of records) w.write(r);
  w.close();
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('packed case records', () => {
  const dir = tempDir('tg-packed-');

  it('read back exactly as written, key order included, for every kind of record', async () => {
    const header = variedHeader();
    const records = variedRecords(600);
    const file = join(dir, 'varied.jsonl');
    write(file, [header, ...records]);
    const read = await readAll(file);
    expect(read[0]).toEqual(asJson(header));
    const cases = read.slice(1) as CaseRecord[];
    expect(cases.length).toBe(records.length);
    for (const [i, r] of records.entries()) {
      expect(cases[i], `record ${i}`).toEqual(asJson(r));
      expect(JSON.stringify(cases[i]), `record ${i}`).toBe(JSON.stringify(r));
    }
    // every rule was used, and every one was also declined somewhere (the varied fields)
    const written = lines(file).filter((l) => l.type === 'case');
    const rules = new Set(written.flatMap((l) => [...String(l.packed ?? '')]));
    expect([...rules].sort().join('')).toBe('cdfgkmpsuw');
    expect(written.some((l) => typeof l.key === 'string')).toBe(true);
    // rule d: repeated long strings written once, some found in a blob (a long system prompt in the raw request)
    const same = written.flatMap((l) => (Array.isArray(l.same) ? (l.same as unknown[][]) : []));
    expect(same.some((e) => typeof e[0] === 'string')).toBe(true);
    expect(same.some((e) => Array.isArray(e[0]))).toBe(true);
    expect(written.some((l) => !String(l.packed ?? '').includes('m'))).toBe(true);
    // a real provider's wire body is written as it was
    const real = written.find((l) => l.provider === 'openai:gpt-4o') as unknown as CaseRecord;
    expect(JSON.stringify(real.transcript.turns[0]?.response.raw)).toContain('chatcmpl-');
  });

  it('reads back exactly records whose call arguments nest thousands of levels deep, long strings inside them too', async () => {
    const long = 'a long text repeated inside deep arguments; '.repeat(40);
    const records = variedRecords(40).map((r, i) => (i % 2 === 0 ? deepened(r, 6000 + i, long) : r));
    const withDeep = records.filter((r) => r.transcript.turns.some((t) => t.response.toolCalls.length > 0));
    expect(withDeep.some((r) => r.provider === 'openai:gpt-4o' && r.protocol === 'native')).toBe(true);
    const file = join(dir, 'deep.jsonl');
    write(file, [variedHeader(), ...records]);
    const read = (await readAll(file)).slice(1);
    expect(read.length).toBe(records.length);
    // compared as the text JSON writes (a value this deep is neither JSON.stringify'd nor deep-compared)
    for (const [i, r] of records.entries()) expect(jsonText(read[i]), `record ${i}`).toBe(jsonText(r));
    // rule d wrote the long strings near the top of the deep values once
    const written = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"type":"case"'));
    expect(written.some((l) => l.includes('"same":') && l.includes('"note"'))).toBe(true);
  });

  it('reads records of a header without a seed (meta then stays whole)', async () => {
    const header = variedHeader(undefined);
    const records = variedRecords(60, 0);
    const file = join(dir, 'no-seed.jsonl');
    write(file, [header, ...records]);
    expect((await readAll(file)).slice(1)).toEqual(asJson(records));
    expect(lines(file).some((l) => String(l.packed ?? '').includes('m'))).toBe(false);
  });

  it('packs records appended to a log against the header that log begins with', async () => {
    const header = variedHeader(SEED);
    const records = variedRecords(80);
    const file = join(dir, 'resumed.jsonl');
    write(file, [header, ...records.slice(0, 40)]);
    write(file, records.slice(40), 'append');
    expect((await readAll(file)).slice(1)).toEqual(asJson(records));
    const appended = lines(file)
      .filter((l) => l.type === 'case')
      .slice(40);
    expect(appended.some((l) => String(l.packed).includes('m'))).toBe(true);
  });

  it('writes a packed record read raw from a log again as it is (the bench floor copies lines)', async () => {
    const header = variedHeader();
    const records = variedRecords(30);
    const a = join(dir, 'a.jsonl');
    write(a, [header, ...records]);
    const raw = lines(a) as unknown as RunRecord[];
    const b = join(dir, 'b.jsonl');
    write(b, raw);
    expect(await readAll(b)).toEqual(await readAll(a));
  });

  it('refuses a record packed by a rule it does not know, naming the line', async () => {
    const file = join(dir, 'unknown-rule.jsonl');
    write(file, [variedHeader(), ...variedRecords(1)]);
    const text = readFileSync(file, 'utf8').replace(/"packed":"/, '"packed":"Z');
    const bad = join(dir, 'unknown-rule-bad.jsonl');
    (await import('node:fs')).writeFileSync(bad, text);
    await expect(readAll(bad)).rejects.toThrow(/unknown-rule-bad\.jsonl:\d+: packed: .* does not know/);
  });

  it('is about half the size of the records as the previous writer wrote them, on simulated runs', () => {
    const header: RunHeader = variedHeader();
    const records = variedRecords(300);
    const file = join(dir, 'size.jsonl');
    write(file, [header, ...records]);
    const whole = records.reduce((n, r) => n + JSON.stringify(r).length, 0);
    expect(readFileSync(file, 'utf8').length).toBeLessThan(whole * 0.6);
  });
});
