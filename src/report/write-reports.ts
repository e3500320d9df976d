import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { RunAggregate } from '../run-log/aggregate.js';
import { caseRecords } from '../run-log/reader.js';
import type { CompareResult } from './compare.js';
import type { GateCheck } from './junit-gate.js';
import type { ReporterEntry } from './reporter-registry.js';
import { RunReporters } from './run-reporters.js';

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
  gateChecks?: readonly GateCheck[];
  maxHtmlCases?: number;
}

/**
 * Writes every report of a finished run log into its folder, in one streaming pass over run.jsonl, through the
 * reporters of the run's config (`reporters`, relative to its config file; absent: every built-in writer:
 * summary.md, report.html, results.csv, junit.xml, run.json and compare.md when compared with a baseline). Returns
 * the summary text. (`eval` feeds the same reporters from the runner instead, and reads nothing back.)
 */
export async function writeReports(input: WriteReportsInput): Promise<string> {
  const { header } = input.aggregate;
  const reporters = await RunReporters.open({
    runDir: input.runDir,
    header,
    entries: header.config.reporters as ReporterEntry[] | undefined,
    baseDir: dirname(resolve(header.configFile)),
    where: (i) => `${header.configFile}: reporters[${i}]`,
    options: {
      hostname: hostname(),
      ...(input.maxHtmlCases !== undefined ? { maxHtmlCases: input.maxHtmlCases } : {}),
    },
  });
  try {
    for await (const r of caseRecords(input.runLog)) reporters.add(r);
  } catch (e) {
    reporters.discard();
    throw e;
  }
  return reporters.finish({
    aggregate: input.aggregate,
    displayDir: input.displayDir,
    interrupted: input.interrupted,
    ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
    ...(input.gate ? { gate: input.gate } : {}),
    ...(input.gateChecks ? { gateChecks: input.gateChecks } : {}),
  });
}
