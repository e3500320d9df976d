import { stringify } from 'csv-stringify/sync';
import type { CaseRecord } from '../contracts/run-log.js';

const COLUMNS = [
  'key',
  'suite',
  'case',
  'renderer',
  'provider',
  'simulated',
  'repeat',
  'grader',
  'pass',
  'score',
  'reason',
  'error_code',
  'error',
  'prompt_tokens',
  'input_tokens',
  'output_tokens',
  'duration_ms',
] as const;

const CAST = { cast: { boolean: (b: boolean) => (b ? 'true' : 'false') } };

/** The header line of results.csv. */
export function csvHeader(): string {
  return stringify([[...COLUMNS]]);
}

/**
 * The rows of one case record: one per grader (an errored case gets one row with its error and an empty grader);
 * '' when it has none. Pure.
 */
export function csvRows(r: CaseRecord): string {
  const base = [r.key, r.suite, r.case, r.renderer, r.provider, r.simulated, r.repeat];
  const tail = [r.promptTokens, r.usage.input, r.usage.output, r.durationMs];
  const rows = r.error
    ? [[...base, '', '', '', '', r.error.code, r.error.message, ...tail]]
    : r.grades.map((g) => [...base, g.grader, g.pass, g.score, g.reason, '', '', ...tail]);
  return rows.length ? stringify(rows, CAST) : '';
}

/**
 * results.csv, streamed: one row per case × cell × grader (an errored case gets one row with its error and
 * an empty grader). Pure: yields text chunks for the records it is given.
 */
export async function* renderCsv(records: AsyncIterable<CaseRecord>): AsyncGenerator<string> {
  yield csvHeader();
  for await (const r of records) {
    const rows = csvRows(r);
    if (rows) yield rows;
  }
}
