import { regrade } from '../api/regrade.js';
import { displayPath } from '../util/display-path.js';
import { visibleInline } from '../util/visible-text.js';
import { printFinished } from './print-finished.js';

export interface RegradeFlags {
  out?: string;
  inPlace?: boolean;
  grader?: string[];
  reparse?: boolean;
}

/**
 * `toolgauge regrade <run-dir> [--reparse | --no-reparse]`: regrade(), its notes and the summary printed; no model is
 * called.
 */
export async function regradeCommand(runDir: string, flags: RegradeFlags): Promise<number> {
  const result = await regrade(
    runDir,
    {
      ...(flags.out !== undefined ? { out: flags.out } : {}),
      ...(flags.inPlace ? { inPlace: true } : {}),
      ...(flags.grader ? { graders: flags.grader } : {}),
      ...(flags.reparse === undefined ? {} : { reparse: flags.reparse }),
    },
    {
      // printed before the reports are written, so a failure to write them comes after what was regraded
      onRegraded: (done) => {
        for (const note of done.notes) process.stderr.write(`regrade: ${visibleInline(note)}\n`);
        process.stderr.write(
          `regrade: ${done.total} records regraded${done.reparsed.on ? ' (replies parsed again)' : ''}, ${done.changed} with changed grades → ${displayPath(done.runDir)}\n`,
        );
      },
    },
  );
  printFinished(result);
  return result.exitCode;
}
