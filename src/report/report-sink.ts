import type { RunHeader } from '../run-log/schema.js';
import { allBuiltinReporters, type BuiltinReporterOptions } from './reporters/index.js';
import { RunReporters } from './run-reporters.js';

export const REPORT_FILES = ['summary.md', 'report.html', 'results.csv', 'junit.xml', 'run.json'] as const;

export type { FinishInput } from './run-reporters.js';

/**
 * Every built-in report of a run (src/report/reporters/), written in one pass as the records go by: RunReporters
 * with the built-in writers and no custom reporter.
 */
export class ReportSink extends RunReporters {
  constructor(runDir: string, header: RunHeader, options: BuiltinReporterOptions = {}) {
    super(runDir, header, { builtins: allBuiltinReporters(options), custom: [] });
  }
}
