import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EXIT_INTERRUPTED, ToolgaugeError } from '../errors.js';
import type { CompareResult } from '../report/compare.js';
import type { FinishInput } from '../report/report-sink.js';
import { renderBriefSummary } from '../report/summary.js';
import { writeReports } from '../report/write-reports.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import { recordGate } from '../run-log/footer-gate.js';
import { runLogPath } from '../run-log/run-folder.js';
import type { RunHeader } from '../run-log/schema.js';
import { isWriteFailure, writeFailed } from '../util/write-failure.js';
import type { GateVerdict } from './gate.js';
import { type GateSettings, judgeRun } from './judge.js';

/** Reports fed with every record while the run went (eval, grade): only their end is left to write. */
export interface FedReports {
  finish(input: FinishInput): Promise<string> | string;
  discard(): void;
}

export interface FinishRunInput {
  aggregate: RunAggregate;
  runDir: string;
  /** How the run folder is named in the reports (a display path). */
  displayDir: string;
  /** The run log lacks planned cases (a run stopped early, a shard that did not finish): the reports say so. */
  interrupted: boolean;
  /** This command was stopped (Ctrl-C): the reports are written, nothing is judged, the exit code is 130. */
  cancelled?: boolean;
  /** The gate and its baseline; null: no gate (a run of `grade` exits 0). */
  gate: GateSettings | null;
  /** The folder the gate's baseline path is relative to (the config file's). */
  configDir: string;
  /** Reports already fed with every record; absent: written from the run log in one pass (merge, regrade). */
  reports?: FedReports;
}

export interface FinishedRun {
  /** The text of summary.md, for the command to print. */
  summary: string;
  /** Its first part, what `-q` prints: the verdict, the comparison with the baseline and the matrix. */
  brief: string;
  /** undefined: not compared (no gate, comparison off, or cancelled); null: no baseline file. */
  comparison?: CompareResult | null;
  verdict?: GateVerdict;
  /** The gate's lines, for the command to print on stderr (none when nothing was judged). */
  lines: string[];
  /** 0 passed, 1 a threshold failed or a cell regressed, 3 too many infrastructure errors, 130 cancelled. */
  exitCode: number;
}

/**
 * The end of every command that makes a run (eval, replay, grade, regrade, merge), in one order: the baseline
 * comparison and the gate are judged from the aggregate, every report is written with them, and the exit code is the
 * gate's. Nothing is printed: the command prints the summary and the lines.
 */
export async function finishRun(input: FinishRunInput): Promise<FinishedRun> {
  const { aggregate } = input;
  let judged: ReturnType<typeof judgeRun> | undefined;
  try {
    judged = input.cancelled || !input.gate ? undefined : judgeRun(aggregate, input.gate, input.configDir);
  } catch (e) {
    input.reports?.discard();
    throw e;
  }
  const end: FinishInput = {
    aggregate,
    displayDir: input.displayDir,
    interrupted: input.interrupted,
    ...(judged
      ? {
          comparison: judged.comparison,
          gate: { exitCode: judged.verdict.exitCode, lines: judged.verdict.lines },
          gateChecks: judged.verdict.checks,
        }
      : {}),
  };
  let summary: string;
  try {
    // The footer keeps the verdict, so `toolgauge report` writes junit.xml and summary.md as this command does.
    const runLog = runLogPath(input.runDir);
    if (judged && existsSync(runLog))
      recordGate(runLog, {
        exitCode: judged.verdict.exitCode,
        lines: judged.verdict.lines,
        checks: judged.verdict.checks,
        ...(judged.comparison !== undefined ? { baseline: judged.comparison?.baseRunId ?? null } : {}),
      });
    summary = input.reports
      ? await input.reports.finish(end)
      : await writeReports({ ...end, runDir: input.runDir, runLog: runLogPath(input.runDir) });
  } catch (e) {
    input.reports?.discard();
    if (!isWriteFailure(e)) throw e;
    // The run log is complete (it was closed before): only the reports are missing, and they can be written again.
    const first = writeFailed(input.runDir, e);
    throw new ToolgaugeError(
      'WRITE_FAILED',
      `${first.message}; the run log ${input.displayDir}/run.jsonl is complete: once the folder has room, write the reports with: toolgauge report ${input.displayDir}`,
      first.details,
      { cause: e },
    );
  }
  const brief = renderBriefSummary(aggregate, {
    runDir: input.displayDir,
    interrupted: input.interrupted,
    ...(judged ? { comparison: judged.comparison, gateLines: judged.verdict.lines } : {}),
  });
  return {
    summary,
    brief,
    ...(judged ? { comparison: judged.comparison, verdict: judged.verdict } : {}),
    lines: judged?.verdict.lines ?? [],
    exitCode: input.cancelled ? EXIT_INTERRUPTED : (judged?.verdict.exitCode ?? 0),
  };
}

/** The gate of a config without one (the config schema's default). */
const DEFAULT_GATE: GateSettings = { maxInfraErrorRate: 0.2 };

/**
 * The gate of a finished run, from its log (for merge and regrade): its config's gate, whose baseline is relative to
 * the config file's folder, as `eval` judges it. When that file is not here (a merge on another machine) the baseline
 * is looked up from `cwd`, the checkout the command runs in. A run of `grade` has no baseline.
 */
export function gateOfRun(header: RunHeader, cwd: string): { gate: GateSettings; configDir: string } {
  const gate = (header.config.gate as GateSettings | undefined) ?? DEFAULT_GATE;
  if (header.config.command === 'grade') return { gate: { ...gate, baseline: 'none' }, configDir: cwd };
  const configFile = resolve(cwd, header.configFile);
  return { gate, configDir: existsSync(configFile) ? dirname(configFile) : cwd };
}
