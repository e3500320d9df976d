import { gateOfRun } from '../gate/finish-run.js';
import { baselinePath } from '../gate/judge.js';
import { type CompareResult, compareSnapshots, DEFAULT_COMPARE } from '../report/compare.js';
import { loadSnapshot } from '../report/load-snapshot.js';
import { type RunSnapshot, readSnapshot, snapshotOf } from '../report/snapshot.js';
import { REPORT_FILES, writeReports } from '../report/write-reports.js';
import { type LoadedRun, loadRun } from '../run-log/load-run.js';
import { displayPath } from '../util/display-path.js';

export interface ReportFlags {
  /** Compare with this baseline (file or run folder) and include the comparison. */
  baseline?: string;
  maxHtmlCases?: number;
  quiet?: boolean;
}

/**
 * `toolgauge report <run-dir>`: regenerates every report of a run from its run.jsonl (no model is called). The gate
 * is not judged again: its verdict, as the command that made the run judged it, is in the run's footer, and goes into
 * junit.xml's gate suite and summary.md's gate lines. A log whose footer keeps none (written before footers kept it,
 * or a run nothing judged) gets reports without a gate.
 */
export async function reportCommand(runArg: string, flags: ReportFlags = {}): Promise<number> {
  const run = await loadRun(runArg, 'report');
  const judged = run.footer?.gate;
  const base = flags.baseline ? await loadSnapshot(flags.baseline, '--baseline') : runBaseline(run);
  // judged with the run's own gate settings, as eval judged it
  const gate = run.aggregate.header.config.gate as { alpha?: number; maxRegression?: number } | undefined;
  const comparison: CompareResult | null | undefined = base
    ? compareSnapshots(base, snapshotOf(run.aggregate), {
        alpha: gate?.alpha ?? DEFAULT_COMPARE.alpha,
        maxRegression: gate?.maxRegression ?? DEFAULT_COMPARE.maxRegression,
      })
    : base;
  const summary = await writeReports({
    runDir: run.runDir,
    runLog: run.runLog,
    displayDir: displayPath(run.runDir),
    aggregate: run.aggregate,
    interrupted: run.interrupted,
    ...(comparison !== undefined ? { comparison } : {}),
    ...(judged ? { gate: { exitCode: judged.exitCode, lines: judged.lines }, gateChecks: judged.checks } : {}),
    ...(flags.maxHtmlCases !== undefined ? { maxHtmlCases: flags.maxHtmlCases } : {}),
  });
  if (!flags.quiet) process.stdout.write(summary);
  const files = [...REPORT_FILES, ...(comparison ? ['compare.md'] : [])];
  process.stderr.write(`report: wrote ${files.join(', ')} in ${displayPath(run.runDir)}\n`);
  return 0;
}

/**
 * The baseline the run's gate compared with, as the footer names it: null when the run found none (the reports say
 * so, as the run's did); that baseline when its file is still where the run's config puts it; else undefined (no
 * comparison section), with a note on stderr.
 */
function runBaseline(run: LoadedRun): RunSnapshot | null | undefined {
  const judged = run.footer?.gate;
  if (judged?.baseline === undefined) return undefined;
  if (judged.baseline === null) return null;
  const { gate, configDir } = gateOfRun(run.header, process.cwd());
  const file = baselinePath(gate, configDir);
  const snapshot = file ? readSnapshot(file) : null;
  if (snapshot?.runId === judged.baseline) return snapshot;
  process.stderr.write(
    `report: the baseline the gate compared with (run ${judged.baseline}) is no longer at ${file ? displayPath(file) : 'the config'}: the reports have no comparison (--baseline adds one)\n`,
  );
  return undefined;
}
