import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { newRunId } from '../api/run-meta.js';
import { finishRun, gateOfRun } from '../gate/finish-run.js';
import { regradeRun } from '../offline/regrade-run.js';
import { runLogOf } from '../run-log/run-folder.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFolder } from '../util/output-folder.js';
import { lockRunDir } from '../util/run-lock.js';
import { visibleInline } from '../util/visible-text.js';
import { printFinished } from './print-finished.js';

export interface RegradeFlags {
  out?: string;
  inPlace?: boolean;
  grader?: string[];
  reparse?: boolean;
}

/**
 * `toolgauge regrade <run-dir> [--reparse | --no-reparse]`: recomputes every grade with the current graders (and, for a
 * run of `grade` or with --reparse, the current parser); no model is called.
 */
export async function regradeCommand(runDir: string, flags: RegradeFlags): Promise<number> {
  const outDir = flags.out ? resolve(flags.out) : resolve(dirname(resolve(runDir)), newRunId());
  // the folder written is checked before anything is read: one line, exit 2
  runLogOf(runDir, 'regrade');
  const undo = flags.inPlace
    ? prepareOutputFolder(runDir, `regrade --in-place ${runDir}`)
    : flags.out
      ? prepareOutputFolder(outDir, `--out ${flags.out}`)
      : prepareOutputFolder(dirname(outDir), `regrade ${runDir} (writes a new run folder beside it; or pass --out)`);
  try {
    return await regradeInto(runDir, outDir, flags);
  } catch (e) {
    undo(); // (a folder it made that is still empty)
    throw e;
  }
}

async function regradeInto(runDir: string, outDir: string, flags: RegradeFlags): Promise<number> {
  // a folder that exists already (--in-place, or --out into one) is held until its reports are written too;
  // regradeRun's own lock nests in this one, and covers the run log of a folder it creates
  const written = flags.inPlace ? resolve(runDir) : outDir;
  const lock = existsSync(written) ? lockRunDir(written, flags.inPlace ? 'regrade --in-place' : 'regrade') : undefined;
  try {
    const outcome = await regradeRun(runDir, {
      outDir,
      ...(flags.inPlace ? { inPlace: true } : {}),
      ...(flags.grader?.length ? { graders: flags.grader } : {}),
      ...(flags.reparse === undefined ? {} : { reparse: flags.reparse }),
    });
    for (const note of outcome.notes) process.stderr.write(`regrade: ${visibleInline(note)}\n`);
    process.stderr.write(
      `regrade: ${outcome.aggregate.total} records regraded${outcome.reparsed.on ? ' (replies parsed again)' : ''}, ${outcome.changed} with changed grades → ${displayPath(outcome.runDir)}\n`,
    );
    // judged like `eval` of the run: the config's gate, and its baseline
    const finished = await finishRun({
      aggregate: outcome.aggregate,
      runDir: outcome.runDir,
      displayDir: displayPath(outcome.runDir),
      interrupted: outcome.interrupted,
      ...gateOfRun(outcome.header, process.cwd()),
    });
    printFinished(finished);
    return finished.exitCode;
  } finally {
    lock?.release();
  }
}
