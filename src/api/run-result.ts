import type { RunHeader } from '../contracts/run-log.js';
import type { FinishedRun } from '../gate/finish-run.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import { runLogPath } from '../run-log/run-folder.js';
import type { RunVerdict } from './run-verdict.js';

export type { RunVerdict };

/** What every library function that makes a run folder returns (evaluate, grade, regrade, merge). */
export interface RunResult {
  runId: string;
  /** Absolute path of the run folder, and of its run log. */
  runDir: string;
  runLog: string;
  header: RunHeader;
  /** The run log lacks planned cases (an interrupted run, a partial merge): the reports say so. */
  interrupted: boolean;
  /** The tallies of every record the run log holds (the numbers behind every report). */
  aggregate: RunAggregate;
  /** The text of summary.md, and its first part (what `-q` prints). */
  summary: string;
  brief: string;
  /** The comparison with the baseline; null: no baseline file; undefined: not compared. */
  comparison?: FinishedRun['comparison'];
  verdict: RunVerdict;
  /** The same as verdict.exitCode: what the command exits with. */
  exitCode: number;
}

/** A finished run (finishRun's answer) as the library returns it. */
export function runResultOf(
  run: { runDir: string; header: RunHeader; aggregate: RunAggregate; interrupted: boolean },
  finished: FinishedRun,
): RunResult {
  return {
    runId: run.header.runId,
    runDir: run.runDir,
    runLog: runLogPath(run.runDir),
    header: run.header,
    interrupted: run.interrupted,
    aggregate: run.aggregate,
    summary: finished.summary,
    brief: finished.brief,
    ...(finished.comparison !== undefined ? { comparison: finished.comparison } : {}),
    verdict: {
      exitCode: finished.exitCode,
      judged: finished.verdict !== undefined,
      lines: finished.lines,
      checks: finished.verdict?.checks ?? [],
    },
    exitCode: finished.exitCode,
  };
}
