import { compare } from '../api/compare.js';
import { fmtP } from '../report/format.js';
import { displayPath } from '../util/display-path.js';
import { visibleInline } from '../util/visible-text.js';

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
 * `toolgauge compare <baseline> <run>`: compare(), compare.md and the regressions printed. Exit 1 when a cell
 * regressed significantly beyond the tolerance.
 */
export async function compareCommand(baselineArg: string, runArg: string, flags: CompareFlags = {}): Promise<number> {
  const { quiet, ...options } = flags;
  const compared = await compare(baselineArg, runArg, options);
  if (!quiet) process.stdout.write(compared.markdown);
  for (const c of compared.regressions) {
    // labels come from the runs' files: one line each, whatever they hold
    const cell = visibleInline(`${c.grader} in ${c.renderer} × ${c.provider}`);
    process.stderr.write(
      `compare: REGRESSION ${cell}: ${c.base[0]}/${c.base[1]} → ${c.run[0]}/${c.run[1]} (p=${fmtP(c.pAdjusted)})\n`,
    );
  }
  if (compared.result.configChanged)
    process.stderr.write("compare: note: the configuration differs from the baseline's (config hash changed)\n");
  const { alpha, maxRegression, source } = compared.settings;
  process.stderr.write(
    `compare: ${compared.regressions.length} regression(s) (alpha ${alpha}, maxRegression ${(maxRegression * 100).toFixed(1)} pts, from ${source}) → ${displayPath(compared.file)}\n`,
  );
  return compared.exitCode;
}
