import { resolve } from 'node:path';
import { type CompareResult, compareSnapshots, DEFAULT_COMPARE } from '../report/compare.js';
import { readSnapshot, snapshotOf } from '../report/snapshot.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import { applyGate, type GateConfig, type GateVerdict } from './gate.js';

export interface GateSettings extends GateConfig {
  /** Baseline file relative to the config folder; 'none' turns the comparison off. */
  baseline?: string;
}

/** The baseline of a config without `gate.baseline`, relative to the config file. */
export const DEFAULT_BASELINE = 'reports/baseline.json';

/**
 * The one rule for where a config's baseline lives: its `gate.baseline` (or the default), relative to the config
 * file's folder; null when the config turns the comparison off. `eval` reads it and `baseline update` writes it.
 */
export function baselinePath(gate: GateSettings, configDir: string): string | null {
  const b = gate.baseline ?? DEFAULT_BASELINE;
  return b === 'none' ? null : resolve(configDir, b);
}

/**
 * Compares the run with the committed baseline (when there is one) and applies the gate. The only I/O is
 * reading the baseline file. comparison: null = no baseline file, undefined = comparison turned off.
 */
export function judgeRun(
  agg: RunAggregate,
  gate: GateSettings,
  configDir: string,
): { comparison: CompareResult | null | undefined; verdict: GateVerdict } {
  const file = baselinePath(gate, configDir);
  const base = file ? readSnapshot(file) : undefined;
  const comparison =
    base === undefined
      ? undefined
      : base === null
        ? null
        : compareSnapshots(base, snapshotOf(agg), {
            alpha: gate.alpha ?? DEFAULT_COMPARE.alpha,
            maxRegression: gate.maxRegression ?? DEFAULT_COMPARE.maxRegression,
          });
  return { comparison, verdict: applyGate(agg, gate, comparison) };
}
