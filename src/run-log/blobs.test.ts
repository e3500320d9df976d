import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobDecoder } from './blob-decoder.js';
import { BlobEncoder } from './blob-encoder.js';
import type { BlobLine } from './blobs.js';
import { caseRecords, readHeader } from './reader.js';
import type { CaseRecord } from './schema.js';

const FIXTURE = join(import.meta.dirname, '../../tests/fixtures/run-log-v1/shard-2/run.jsonl');

async function fixtureCases(): Promise<CaseRecord[]> {
  const out: CaseRecord[] = [];
  for await (const r of caseRecords(FIXTURE)) out.push(r);
  return out;
}

/** Encodes the records as one log would hold them, then decodes that log's lines. */
function roundTrip(records: CaseRecord[], header?: unknown): { lines: Record<string, unknown>[]; decoded: unknown[] } {
  const lines: Record<string, unknown>[] = [];
  const encoder = new BlobEncoder((b: BlobLine) => lines.push({ ...b }));
  if (header) encoder.useHeader(header);
  for (const r of records) lines.push(JSON.parse(JSON.stringify(encoder.encode(r))) as Record<string, unknown>);
  const decoder = new BlobDecoder();
  if (header) decoder.useHeader(header);
  const decoded: unknown[] = [];
  for (const line of lines) {
    if (line.type === 'blob') decoder.add(line);
    else decoded.push(decoder.decode(line));
  }
  return { lines, decoded };
}

describe('format 2 blobs', () => {
  it('decodes every record of a real run to exactly the record encoded, with each text stored once', async () => {
    const records = await fixtureCases();
    const { lines, decoded } = roundTrip(records, await readHeader(FIXTURE));
    expect(decoded).toEqual(records);
    // key order too (cassette keys and reports see the same objects)
    expect(decoded.map((r) => JSON.stringify(r))).toEqual(records.map((r) => JSON.stringify(r)));
    const blobs = lines.filter((l) => l.type === 'blob');
    expect(new Set(blobs.map((b) => b.hash)).size).toBe(blobs.length);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('"system":"You are');
    // every turn after the first continues the one before it, every reply is the simulated envelope
    const cases = lines.filter((l) => l.type === 'case');
    const turns = (l: Record<string, unknown>) => (l.transcript as { turns: unknown[] }).turns.length;
    expect(cases.every((l) => /^[cfgkmpsu]+$/.test(String(l.packed)))).toBe(true);
    expect(cases.filter((l) => turns(l) > 1).every((l) => String(l.packed).includes('c'))).toBe(true);
    expect(text).not.toContain('"meta"');
    expect(text).not.toContain('"raw"');
    expect(text).not.toContain('"key"');
  });

  it('without a header (no seed), keeps meta and still shortens the rest; messages as priorMessages', async () => {
    const records = await fixtureCases();
    const { lines, decoded } = roundTrip(records);
    expect(decoded).toEqual(records);
    const text = JSON.stringify(lines);
    expect(text).toContain('"meta"');
    expect(text).not.toContain('"raw"');
  });

  it('keeps whole what it cannot shorten: messages that are not a continuation, a raw response of its own', async () => {
    const [first] = await fixtureCases();
    const r = structuredClone(first) as CaseRecord;
    const t0 = r.transcript.turns[0]!;
    const t1 = { ...structuredClone(t0), index: 1 };
    t1.request.messages = [{ role: 'user', content: 'something else' }];
    t1.response.raw = { request: {}, response: { id: 'chatcmpl-1', text: t1.response.text } };
    r.transcript.turns = [t0, t1];
    const { lines, decoded } = roundTrip([r]);
    expect(decoded).toEqual([r]);
    const turn = (lines.at(-1) as unknown as CaseRecord).transcript.turns[1] as unknown as Record<string, never>;
    expect(turn.request).not.toHaveProperty('priorMessages');
    expect(turn.response).not.toHaveProperty('rawIsReply');
  });

  it('refuses a blob whose text does not match its hash', () => {
    expect(() => new BlobDecoder().add({ type: 'blob', hash: '0000000000000000', text: 'x' })).toThrow(
      /does not have that hash/,
    );
  });
});
