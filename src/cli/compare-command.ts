import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { compareSettings } from '../gate/config-gate.js';
import { compareSnapshots } from '../report/compare.js';
import { renderCompare } from '../report/compare-md.js';
import { fmtP } from '../report/format.js';
import { loadSnapshot } from '../report/load-snapshot.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFile } from '../util/output-folder.js';
import { visibleInline } from '../util/visible-text.js';
import { writeFileWhole } from '../util/write-file.js';

export interface CompareFlags {
  /** Config whose gate.alpha and gate.maxRegression apply (default: toolgauge.config.yaml when present). */
  config?: string;
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
  const settings = compareSettings(flags);
  const base = await loadSnapshot(baselineArg, 'baseline');
  const run = await loadSnapshot(runArg, 'run');
  const result = compareSnapshots(base, run, settings.options);
  const md = renderCompare(result);
  const runPath = resolve(runArg);
  const dir = existsSync(runPath) && statSync(runPath).isDirectory() ? runPath : dirname(runPath);
  const out = flags.out ? resolve(flags.out) : join(dir, 'compare.md');
  writeFileWhole(out, md);
  if (!flags.quiet) process.stdout.write(md);
  const regressions = result.cells.filter((c) => c.regression);
  for (const c of regressions) {
    // labels come from the runs' files: one line each, whatever they hold
    const cell = visibleInline(`${c.grader} in ${c.renderer} × ${c.provider}`);
    process.stderr.write(
      `compare: REGRESSION ${cell}: ${c.base[0]}/${c.base[1]} → ${c.run[0]}/${c.run[1]} (p=${fmtP(c.pAdjusted)})\n`,
    );
  }
  if (result.configChanged)
    process.stderr.write("compare: note: the configuration differs from the baseline's (config hash changed)\n");
  process.stderr.write(
    `compare: ${regressions.length} regression(s) (alpha ${settings.options.alpha}, maxRegression ${(settings.options.maxRegression * 100).toFixed(1)} pts, from ${settings.source}) → ${displayPath(out)}\n`,
  );
  return regressions.length ? 1 : 0;
}
