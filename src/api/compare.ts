import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { compareSettings } from '../gate/config-gate.js';
import { type CompareResult, compareSnapshots } from '../report/compare.js';
import { renderCompare } from '../report/compare-md.js';
import { loadSnapshot } from '../report/load-snapshot.js';
import { prepareOutputFile } from '../util/output-folder.js';
import { writeFileWhole } from '../util/write-file.js';

/** What `toolgauge compare` takes besides the two runs. */
export interface CompareOptions {
  /** Config whose gate.alpha and gate.maxRegression apply (default: toolgauge.config.yaml when present). */
  config?: string;
  alpha?: number;
  maxRegression?: number;
  /** Where compare.md goes (default: the run folder, or beside the run's file). */
  out?: string;
}

/** A comparison: the judgement per cell, compare.md's text and where it was written, and the settings used. */
export interface CompareRunsResult {
  result: CompareResult;
  /** The cells that regressed significantly beyond the tolerance. */
  regressions: CompareResult['cells'];
  markdown: string;
  /** Absolute path of the compare.md written. */
  file: string;
  /** The significance level and tolerance applied, and where they came from (a config file, defaults, options). */
  settings: { alpha: number; maxRegression: number; source: string };
  /** 1 when a cell regressed, else 0: what `toolgauge compare` exits with. */
  exitCode: number;
}

/**
 * `toolgauge compare` as a function: per-case flips and per-cell deltas of a run against a baseline (each a run
 * folder, run.json or baseline.json), with a significance judgement per cell; writes compare.md.
 */
export async function compare(baseline: string, run: string, options: CompareOptions = {}): Promise<CompareRunsResult> {
  if (options.out) prepareOutputFile(options.out, `--out ${options.out}`);
  const settings = compareSettings(options);
  const base = await loadSnapshot(baseline, 'baseline');
  const current = await loadSnapshot(run, 'run');
  const result = compareSnapshots(base, current, settings.options);
  const markdown = renderCompare(result);
  const runPath = resolve(run);
  const dir = existsSync(runPath) && statSync(runPath).isDirectory() ? runPath : dirname(runPath);
  const file = options.out ? resolve(options.out) : join(dir, 'compare.md');
  writeFileWhole(file, markdown);
  const regressions = result.cells.filter((c) => c.regression);
  return {
    result,
    regressions,
    markdown,
    file,
    settings: { ...settings.options, source: settings.source },
    exitCode: regressions.length ? 1 : 0,
  };
}
