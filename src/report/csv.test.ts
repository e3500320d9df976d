import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaseRecord } from '../run-log/schema.js';
import { csvField, csvHeader, csvRows } from './csv.js';

function record(): CaseRecord {
  return {
    type: 'case',
    key: 'excel/read|full-details|sim:oracle|0',
    suite: 'excel',
    case: 'read',
    renderer: 'full-details',
    provider: 'sim:oracle',
    simulated: true,
    repeat: 0,
    protocol: 'xml-tags',
    catalogHash: 'h',
    promptTokens: 120,
    transcript: { turns: [], finalText: '', stopReason: 'answered' },
    grades: [
      { grader: 'parseable', pass: true, score: 1, reason: '1 call(s), in tags' },
      { grader: 'correct-arguments', pass: false, score: 0, reason: 'expected sheet_name="Sheet1", got "S1"' },
    ],
    startedAt: '2026-11-22T01:02:03.000Z',
    durationMs: 12,
    usage: { input: 0, output: 0, cached: 0 },
  };
}

// csv-stringify (a dev dependency) is the reference the hand-written quoting is checked against.
const reference = (rows: Array<Array<string | number | boolean>>) =>
  stringify(rows, { cast: { boolean: (b: boolean) => (b ? 'true' : 'false') }, escape_formulas: true });

describe('results.csv rows', () => {
  it('quote exactly as csv-stringify does, for any text, number or boolean', () => {
    const field = fc.oneof(
      fc.string({
        unit: fc.constantFrom('a', ' ', ',', '"', '\n', '\r', '\t', 'é', '帮', ';', '=', '+', '-', '@', '\uFF1D'),
      }),
      fc.string(),
      fc.double({ noNaN: true }),
      fc.integer(),
      fc.boolean(),
    );
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }), (rows) => {
        const ours = rows.map((row) => `${row.map(csvField).join(',')}\n`).join('');
        expect(ours).toBe(reference(rows));
      }),
      { numRuns: 500 },
    );
  });

  it('write a header and one row per grader, or one error row', () => {
    expect(csvHeader()).toBe(
      'key,suite,case,renderer,provider,simulated,repeat,grader,pass,score,reason,error_code,error,prompt_tokens,input_tokens,output_tokens,duration_ms\n',
    );
    const key = 'excel/read|full-details|sim:oracle|0,excel,read,full-details,sim:oracle,true,0';
    expect(csvRows(record())).toBe(
      `${key},parseable,true,1,"1 call(s), in tags",,,120,0,0,12\n` +
        `${key},correct-arguments,false,0,"expected sheet_name=""Sheet1"", got ""S1""",,,120,0,0,12\n`,
    );
    const failed = { ...record(), grades: [], error: { code: 'PROVIDER_HTTP', message: 'HTTP 500, "boom"\nretry' } };
    expect(csvRows(failed)).toBe(`${key},,,,,PROVIDER_HTTP,"HTTP 500, ""boom""\nretry",120,0,0,12\n`);
  });
});
