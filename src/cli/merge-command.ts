import { merge } from '../api/merge.js';
import { displayPath } from '../util/display-path.js';
import { visibleInline } from '../util/visible-text.js';
import { printFinished } from './print-finished.js';

/** Flags of `toolgauge merge`. */
export interface MergeFlags {
  /** Folder for the merged run (default: a new run folder beside the first). */
  out?: string;
  /** Merge an incomplete set of shards: a warning instead of a usage error. */
  allowPartial?: boolean;
}

/** `toolgauge merge <run-dirs…>`: merge(), its warnings and the summary printed. */
export async function mergeCommand(dirs: string[], flags: MergeFlags): Promise<number> {
  const result = await merge(
    dirs,
    {
      ...(flags.out !== undefined ? { out: flags.out } : {}),
      ...(flags.allowPartial ? { allowPartial: true } : {}),
    },
    {
      // printed before the reports are written, so a failure to write them comes after what was merged
      onMerged: (done) => {
        for (const w of done.warnings) process.stderr.write(`${visibleInline(w)}\n`);
        process.stderr.write(`merge: ${done.total} cases from ${dirs.length} runs → ${displayPath(done.runDir)}\n`);
      },
    },
  );
  printFinished(result);
  return result.exitCode;
}
