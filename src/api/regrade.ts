import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { finishRun, gateOfRun } from '../gate/finish-run.js';
import { regradeRun } from '../offline/regrade-run.js';
import { runLogOf } from '../run-log/run-folder.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFolder } from '../util/output-folder.js';
import { lockRunDir } from '../util/run-lock.js';
import { newRunId } from './run-meta.js';
import { type RunResult, runResultOf } from './run-result.js';

/** What `toolgauge regrade` takes besides the run folder. */
export interface RegradeOptions {
  /** Folder for the regraded run (default: a new run folder beside the source). */
  out?: string;
  /** Rewrite the run's own run log and reports instead. */
  inPlace?: boolean;
  /** Grader names (default: the run config's graders). */
  graders?: string[];
  /** Read every stored reply again with the current parser first (default: for runs of grade only). */
  reparse?: boolean;
}

/** A regraded run: the run, and what the regrade changed. */
export interface RegradeResult extends RunResult {
  /** Records whose grades changed. */
  changed: number;
  /** Whether the replies were parsed again, and how many readings differ. */
  reparsed: { on: boolean; differ: number };
  /** Notices about the regrade (graders missing, suites changed), one line each. */
  notes: string[];
}

/** What a regrade made, told once its run log is written and before its reports are (the CLI prints it then). */
export interface RegradeControl {
  onRegraded?(done: Pick<RegradeResult, 'runDir' | 'changed' | 'reparsed' | 'notes'> & { total: number }): void;
}

/**
 * `toolgauge regrade` as a function: every grade of a finished run computed again with the current graders (and, for
 * a run of `grade` or with `reparse`, the current parser), written to a new run folder or in place, judged by the
 * run's own gate and baseline. No model is called.
 */
export async function regrade(
  runDir: string,
  options: RegradeOptions = {},
  control: RegradeControl = {},
): Promise<RegradeResult> {
  const outDir = options.out ? resolve(options.out) : resolve(dirname(resolve(runDir)), newRunId());
  // the folder written is checked before anything is read: one error, exit 2
  runLogOf(runDir, 'regrade');
  const undo = options.inPlace
    ? prepareOutputFolder(runDir, `regrade --in-place ${runDir}`)
    : options.out
      ? prepareOutputFolder(outDir, `--out ${options.out}`)
      : prepareOutputFolder(dirname(outDir), `regrade ${runDir} (writes a new run folder beside it; or pass --out)`);
  try {
    return await regradeInto(runDir, outDir, options, control);
  } catch (e) {
    undo(); // (a folder it made that is still empty)
    throw e;
  }
}

async function regradeInto(
  runDir: string,
  outDir: string,
  options: RegradeOptions,
  control: RegradeControl,
): Promise<RegradeResult> {
  // a folder that exists already (in place, or out into one) is held until its reports are written too;
  // regradeRun's own lock nests in this one, and covers the run log of a folder it creates
  const written = options.inPlace ? resolve(runDir) : outDir;
  const lock = existsSync(written)
    ? lockRunDir(written, options.inPlace ? 'regrade --in-place' : 'regrade')
    : undefined;
  try {
    const outcome = await regradeRun(runDir, {
      outDir,
      ...(options.inPlace ? { inPlace: true } : {}),
      ...(options.graders?.length ? { graders: options.graders } : {}),
      ...(options.reparse === undefined ? {} : { reparse: options.reparse }),
    });
    const { changed, reparsed, notes } = outcome;
    control.onRegraded?.({ runDir: outcome.runDir, changed, reparsed, notes, total: outcome.aggregate.total });
    // judged like `eval` of the run: the config's gate, and its baseline
    const finished = await finishRun({
      aggregate: outcome.aggregate,
      runDir: outcome.runDir,
      displayDir: displayPath(outcome.runDir),
      interrupted: outcome.interrupted,
      ...gateOfRun(outcome.header, process.cwd()),
    });
    return {
      ...runResultOf(outcome, finished),
      changed: outcome.changed,
      reparsed: outcome.reparsed,
      notes: outcome.notes,
    };
  } finally {
    lock?.release();
  }
}
