import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { displayPath } from '../config/load-yaml.js';
import { ToolgaugeError } from '../errors.js';
import { DEFAULT_BASELINE } from '../gate/judge.js';
import { loadRun } from '../report/load-run.js';
import { serializeSnapshot, snapshotOf } from '../report/snapshot.js';

export interface BaselineFlags {
  /** Baseline file to write (default reports/baseline.json in the current folder). */
  to?: string;
  /** Promote an interrupted run anyway. */
  force?: boolean;
}

/** `toolgauge baseline update <run-dir>`: promotes a finished run to the committed baseline (compact, sorted). */
export async function baselineUpdateCommand(runArg: string, flags: BaselineFlags = {}): Promise<number> {
  const run = await loadRun(runArg, 'baseline update');
  if (run.interrupted && !flags.force) {
    throw new ToolgaugeError(
      'USAGE',
      `baseline update ${runArg}: the run is incomplete (interrupted); finish it with \`toolgauge eval --resume ${runArg}\` or pass --force`,
    );
  }
  const snapshot = snapshotOf(run.aggregate);
  const out = resolve(flags.to ?? DEFAULT_BASELINE);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, serializeSnapshot(snapshot));
  const cases = Object.keys(snapshot.cases).length;
  process.stderr.write(
    `baseline: ${displayPath(out)} ← run ${snapshot.runId} (${cases} case(s) × cell, ${Object.keys(snapshot.cells).length} cell(s), ${run.aggregate.totalErrors} error(s) not graded)\n`,
  );
  return 0;
}
