import type { CaseRecord } from '../run-log/schema.js';

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

/**
 * What a spreadsheet reads as the start of a formula (`=`, `+`, `-`, `@`, and their full-width forms) or strips before
 * one (tab, carriage return): a text cell starting with one of them gets a leading `'` (OWASP's advice against CSV
 * injection, and csv-stringify's `escape_formulas`), so `=HYPERLINK(…)` in a reason or a case id is shown, never run.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * One RFC 4180 field: quoted (quotes doubled) when it holds a comma, a quote or a line break. Text (every string:
 * keys, suite, case, labels, grader, reason, error) is defused as FORMULA_START says; numbers and booleans are
 * written as they are, so a negative number stays a number. Hand-written rather than csv-stringify because a run
 * writes one row per case and grader from the runner's hot loop, where the library's per-call option handling cost
 * ~12 µs a row (4% of a zero-latency run); a property test checks this against csv-stringify's output with
 * `escape_formulas`.
 */
export function csvField(value: string | number | boolean): string {
  const text = typeof value === 'string' ? (FORMULA_START.test(value) ? `'${value}` : value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(fields: Array<string | number | boolean>): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) line += (i ? ',' : '') + csvField(fields[i] as string | number | boolean);
  return `${line}\n`;
}

/** The header line of results.csv. */
export function csvHeader(): string {
  return csvLine([...COLUMNS]);
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
  let out = '';
  for (const row of rows) out += csvLine(row);
  return out;
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
