import { hostname } from 'node:os';
import type { RunAggregate } from '../run-log/aggregate.js';
import type { CompareResult } from './compare.js';
import { caseRecords } from '../run-log/load-run.js';
import { ReportSink } from './report-sink.js';

export { REPORT_FILES } from './report-sink.js';

export interface WriteReportsInput {
  runDir: string;
  runLog: string;
  /** How the run folder is named in the reports (a display path). */
  displayDir: string;
  aggregate: RunAggregate;
  interrupted: boolean;
  comparison?: CompareResult | null;
  gate?: { exitCode: number; lines: string[] };
  maxHtmlCases?: number;
}

/**
 * Writes every report of a finished run log into its folder: summary.md, report.html, results.csv, junit.xml,
 * run.json (and compare.md when compared with a baseline), in one streaming pass over run.jsonl. The writers are
 * pure; the sink does the I/O. Returns the summary text. (`eval` feeds the same sink from the runner instead, and
 * reads nothing back.)
 */
export async function writeReports(input: WriteReportsInput): Promise<string> {
  const sink = new ReportSink(input.runDir, input.aggregate.header, {
    hostname: hostname(),
    ...(input.maxHtmlCases !== undefined ? { maxHtmlCases: input.maxHtmlCases } : {}),
  });
  try {
    for await (const r of caseRecords(input.runLog)) sink.add(r);
  } catch (e) {
    sink.discard();
    throw e;
  }
  return sink.finish({
    aggregate: input.aggregate,
    displayDir: input.displayDir,
    interrupted: input.interrupted,
    ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
    ...(input.gate ? { gate: input.gate } : {}),
  });
}
