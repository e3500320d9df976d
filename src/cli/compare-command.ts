import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { displayPath } from '../config/load-yaml.js';
import { fmtP } from '../gate/gate.js';
import { compareSnapshots, DEFAULT_COMPARE } from '../report/compare.js';
import { renderCompare } from '../report/compare-md.js';
import { loadSnapshot } from '../report/load-snapshot.js';
import { prepareOutputFile } from '../util/output-folder.js';
import { writeFileWhole } from '../util/write-file.js';

export interface CompareFlags {
  alpha?: number;
  maxRegression?: number;
  /** Where compare.md goes (default: the run folder, or beside the run's file). */
  out?: string;
  quiet?: boolean;
}

/**
 * `toolgauge compare <baseline> <run>`: per-case flips, per-cell deltas with a significance judgement,
 * added/removed cases → compare.md. Exit 1 when a cell regressed significantly beyond the tolerance.
 */
export async function compareCommand(baselineArg: string, runArg: string, flags: CompareFlags = {}): Promise<number> {
  if (flags.out) prepareOutputFile(flags.out, `--out ${flags.out}`);
  const base = await loadSnapshot(baselineArg, 'baseline');
  const run = await loadSnapshot(runArg, 'run');
  const result = compareSnapshots(base, run, {
    alpha: flags.alpha ?? DEFAULT_COMPARE.alpha,
    maxRegression: flags.maxRegression ?? DEFAULT_COMPARE.maxRegression,
  });
  const md = renderCompare(result);
  const runPath = resolve(runArg);
  const dir = existsSync(runPath) && statSync(runPath).isDirectory() ? runPath : dirname(runPath);
  const out = flags.out ? resolve(flags.out) : join(dir, 'compare.md');
  writeFileWhole(out, md);
  if (!flags.quiet) process.stdout.write(md);
  const regressions = result.cells.filter((c) => c.regression);
  for (const c of regressions) {
    process.stderr.write(
      `compare: REGRESSION ${c.grader} in ${c.renderer} × ${c.provider}: ${c.base[0]}/${c.base[1]} → ${c.run[0]}/${c.run[1]} (p=${fmtP(c.pAdjusted)})\n`,
    );
  }
  process.stderr.write(`compare: ${regressions.length} regression(s) → ${displayPath(out)}\n`);
  return regressions.length ? 1 : 0;
}
