import { setFlagsFromString } from 'node:v8';

/**
 * How far past the last full collection's survivors V8 lets the old generation grow before it collects again, in
 * percent. V8 picks a factor of up to 4 by itself when collecting is cheap, as it is for an eval: the live set stays
 * flat at any number of cases (~40 MB on the bench workload), but records already written and report chunks already
 * flushed pile up to four times that before a full collection, and peak RSS follows the pile, not the live set.
 * Measured on the bench workload (YAML, every grader, two turns, sim:oracle) at 20k / 100k cases: peak RSS 222 / 270
 * MB with V8's own factor, 159 / 169 MB at 50%, for ~3-7% more CPU time (the wall time did not change measurably).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Bounds the heap's growth past its live set (see {@link HEAP_GROWING_PERCENT}), unless the user tunes V8's heap
 * themselves (any heap-size or growth flag on the command line or in NODE_OPTIONS): theirs wins. V8 reads the factor
 * at every full collection, so setting it once the process runs takes effect from the next one.
 */
export function boundHeapGrowth(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((f) => /^--(max-old-space-size|max-heap-size|heap-growing-percent)\b/.test(f))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
