import { compareSnapshots, DEFAULT_COMPARE } from '../report/compare.js';
import { loadSnapshot } from '../report/load-snapshot.js';
import { snapshotOf } from '../report/snapshot.js';
import { REPORT_FILES, writeReports } from '../report/write-reports.js';
import { loadRun } from '../run-log/load-run.js';
import { displayPath } from '../util/display-path.js';

export interface ReportFlags {
  /** Compare with this baseline (file or run folder) and include the comparison. */
  baseline?: string;
  maxHtmlCases?: number;
  quiet?: boolean;
}

/** `toolgauge report <run-dir>`: regenerates every report of a run from its run.jsonl (no model is called). */
export async function reportCommand(runArg: string, flags: ReportFlags = {}): Promise<number> {
  const run = await loadRun(runArg, 'report');
  // judged with the run's own gate settings, as eval judged it
  const gate = run.aggregate.header.config.gate as { alpha?: number; maxRegression?: number } | undefined;
  const comparison = flags.baseline
    ? compareSnapshots(await loadSnapshot(flags.baseline, '--baseline'), snapshotOf(run.aggregate), {
        alpha: gate?.alpha ?? DEFAULT_COMPARE.alpha,
        maxRegression: gate?.maxRegression ?? DEFAULT_COMPARE.maxRegression,
      })
    : undefined;
  const summary = await writeReports({
    runDir: run.runDir,
    runLog: run.runLog,
    displayDir: displayPath(run.runDir),
    aggregate: run.aggregate,
    interrupted: run.interrupted,
    ...(comparison ? { comparison } : {}),
    ...(flags.maxHtmlCases !== undefined ? { maxHtmlCases: flags.maxHtmlCases } : {}),
  });
  if (!flags.quiet) process.stdout.write(summary);
  const files = [...REPORT_FILES, ...(comparison ? ['compare.md'] : [])];
  process.stderr.write(`report: wrote ${files.join(', ')} in ${displayPath(run.runDir)}\n`);
  return 0;
}
