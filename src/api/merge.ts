import { basename, dirname, resolve } from 'node:path';
import { finishRun, gateOfRun } from '../gate/finish-run.js';
import { mergeRuns } from '../offline/merge-runs.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFolder } from '../util/output-folder.js';
import { lockRunDir } from '../util/run-lock.js';
import { newRunId } from './run-meta.js';
import { type RunResult, runResultOf } from './run-result.js';

/** What `toolgauge merge` takes besides the run folders. */
export interface MergeOptions {
  /** Folder for the merged run (default: a new run folder beside the first). */
  out?: string;
  /** Merge an incomplete set of shards: a warning instead of a usage error (the merged run is marked partial). */
  allowPartial?: boolean;
}

/** A merged run, and the warnings of the merge (one line each). */
export interface MergeResult extends RunResult {
  warnings: string[];
  /** Shards of the plan absent from a partial merge (`i/n` each). */
  missingShards: string[];
}

/** What a merge made, told once its run log is written and before its reports are (the CLI prints it then). */
export interface MergeControl {
  onMerged?(done: { runDir: string; warnings: string[]; total: number }): void;
}

/**
 * `toolgauge merge` as a function: the run logs of a plan's shards combined into one run log and one set of reports,
 * judged as eval of the whole plan would be (the config's gate and baseline).
 */
export async function merge(
  dirs: string[],
  options: MergeOptions = {},
  control: MergeControl = {},
): Promise<MergeResult> {
  const outDir = options.out ? resolve(options.out) : resolve(dirname(resolve(dirs[0] ?? '.')), newRunId());
  // a refused merge leaves no empty run folder behind (a folder with anything in it is kept)
  const undo = prepareOutputFolder(
    outDir,
    options.out ? `--out ${options.out}` : `merge (writes a new run folder beside ${dirs[0]}; or pass --out)`,
  );
  // held until the reports are written too (mergeRuns' own lock on the folder nests in this one)
  const lock = lockRunDir(outDir, 'merge');
  try {
    const outcome = await mergeRuns(dirs, outDir, basename(outDir), { allowPartial: options.allowPartial ?? false });
    control.onMerged?.({ runDir: outDir, warnings: outcome.warnings, total: outcome.aggregate.total });
    const finished = await finishRun({
      aggregate: outcome.aggregate,
      runDir: outDir,
      displayDir: displayPath(outDir),
      interrupted: outcome.interrupted,
      ...gateOfRun(outcome.header, process.cwd()),
    });
    return {
      ...runResultOf({ ...outcome, runDir: outDir }, finished),
      warnings: outcome.warnings,
      missingShards: outcome.missingShards,
    };
  } catch (e) {
    lock.release();
    undo();
    throw e;
  } finally {
    lock.release();
  }
}
