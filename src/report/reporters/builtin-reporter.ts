import type { RunEnd, RunStart } from '../../contracts/reporter.js';
import type { RunAggregate } from '../../run-log/aggregate.js';
import type { CaseRecord } from '../../run-log/schema.js';
import type { CompareResult } from '../compare.js';
import type { JudgedGate } from '../junit-gate.js';

/** What the built-in writers get at the end of a run, beyond the public RunEnd. */
export interface ReportEnd extends RunEnd {
  /** The aggregate of exactly the records given to onCase. */
  aggregate: RunAggregate;
  /** How the run folder is named in the reports (a display path). */
  displayDir: string;
  comparison?: CompareResult | null;
  /** The gate's verdict and its checks; absent when nothing was judged (a cancelled run, `grade`). */
  judged?: JudgedGate;
  /** The text of summary.md (also printed by the command). */
  summary: string;
}

/** Options of the built-in writers (`reporters: [{ name: html, options: { maxCases: 100 } }]`). */
export interface BuiltinReporterOptions {
  /** Most drill-downs embedded in report.html (failing cases first). */
  maxHtmlCases?: number;
  /** Host named in junit.xml. */
  hostname?: string;
}

/**
 * A built-in report writer: a Reporter whose hooks are synchronous (the runner feeds onCase as each case finishes)
 * and that can remove what it left half-written when a run fails before its reports.
 */
export interface BuiltinReporter {
  name: string;
  /** The files it writes in the run folder. */
  files: readonly string[];
  onRunStart(run: RunStart): void;
  onCase?(record: CaseRecord): void;
  onRunEnd(run: ReportEnd): void;
  /** Closes and removes anything unfinished. */
  discard?(): void;
}
