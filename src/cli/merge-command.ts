import { basename, dirname, resolve } from 'node:path';
import { newRunId } from '../api/run-meta.js';
import { finishRun, gateOfRun } from '../gate/finish-run.js';
import { mergeRuns } from '../offline/merge-runs.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFolder } from '../util/output-folder.js';
import { lockRunDir } from '../util/run-lock.js';
import { visibleInline } from '../util/visible-text.js';
import { printFinished } from './print-finished.js';

/** Flags of `toolgauge merge`. */
export interface MergeFlags {
  /** Folder for the merged run (default: a new run folder beside the first). */
  out?: string;
  /** Merge an incomplete set of shards: a warning instead of a usage error. */
  allowPartial?: boolean;
}

/** `toolgauge merge <run-dirs…>`: one run log and one report from the shards of a run. */
export async function mergeCommand(dirs: string[], flags: MergeFlags): Promise<number> {
  const outDir = flags.out ? resolve(flags.out) : resolve(dirname(resolve(dirs[0] ?? '.')), newRunId());
  // a refused merge leaves no empty run folder behind (a folder with anything in it is kept)
  const undo = prepareOutputFolder(
    outDir,
    flags.out ? `--out ${flags.out}` : `merge (writes a new run folder beside ${dirs[0]}; or pass --out)`,
  );
  // held until the reports are written too (mergeRuns' own lock on the folder nests in this one)
  const lock = lockRunDir(outDir, 'merge');
  try {
    const outcome = await mergeRuns(dirs, outDir, basename(outDir), { allowPartial: flags.allowPartial ?? false });
    for (const w of outcome.warnings) process.stderr.write(`${visibleInline(w)}\n`);
    process.stderr.write(`merge: ${outcome.aggregate.total} cases from ${dirs.length} runs → ${displayPath(outDir)}\n`);
    // judged like `eval` of the whole plan: the config's gate, and its baseline
    const finished = await finishRun({
      aggregate: outcome.aggregate,
      runDir: outDir,
      displayDir: displayPath(outDir),
      interrupted: outcome.interrupted,
      ...gateOfRun(outcome.header, process.cwd()),
    });
    printFinished(finished);
    return finished.exitCode;
  } catch (e) {
    lock.release();
    undo();
    throw e;
  } finally {
    lock.release();
  }
}
