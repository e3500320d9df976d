import { resolve } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { ToolgaugeError } from '../errors.js';
import { baselinePath } from '../gate/judge.js';
import { serializeSnapshot, snapshotOf } from '../report/snapshot.js';
import { loadRun } from '../run-log/load-run.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFile } from '../util/output-folder.js';
import { writeFileWhole } from '../util/write-file.js';

export interface BaselineFlags {
  /** Config whose baseline is written, where `eval -c` with it reads it (default toolgauge.config.yaml). */
  config?: string;
  /** Write this file instead (relative to the current folder); no config is read. */
  to?: string;
  /** Promote an interrupted run anyway. */
  force?: boolean;
}

/** Where `baseline update` writes: `--to` when given, else the config's baseline (the file `eval` compares with). */
function baselineTarget(flags: BaselineFlags): string {
  if (flags.to) return resolve(flags.to);
  const loaded = loadConfig(flags.config);
  const file = baselinePath(loaded.config.gate, loaded.dir);
  if (!file) {
    throw new ToolgaugeError(
      'USAGE',
      `baseline update: ${displayPath(loaded.file)} has gate.baseline: none (eval compares with no baseline); set gate.baseline, or pass --to <file>`,
    );
  }
  return file;
}

/**
 * `toolgauge baseline update <run-dir>`: promotes a finished run to the config's baseline (compact, sorted), the
 * file `eval` with the same config compares with.
 */
export async function baselineUpdateCommand(runArg: string, flags: BaselineFlags = {}): Promise<number> {
  const out = baselineTarget(flags);
  prepareOutputFile(out, flags.to ? `--to ${flags.to}` : `baseline update (writes ${displayPath(out)})`);
  const run = await loadRun(runArg, 'baseline update');
  if (run.interrupted && !flags.force) {
    throw new ToolgaugeError(
      'USAGE',
      `baseline update ${runArg}: the run is incomplete (interrupted); finish it with \`toolgauge eval --resume ${runArg}\` or pass --force`,
    );
  }
  const snapshot = snapshotOf(run.aggregate);
  writeFileWhole(out, serializeSnapshot(snapshot));
  const cases = Object.keys(snapshot.cases).length;
  process.stderr.write(
    `baseline: ${displayPath(out)} ← run ${snapshot.runId} (${cases} case(s) × cell, ${Object.keys(snapshot.cells).length} cell(s), ${run.aggregate.totalErrors} error(s) not graded)\n`,
  );
  return 0;
}
