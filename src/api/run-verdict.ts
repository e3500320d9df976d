import type { GateCheck } from '../contracts/run-log.js';

/** The gate's verdict on a run. */
export interface RunVerdict {
  /** 0 passed, 1 a threshold failed or a cell regressed, 3 infrastructure errors beyond the limit, 130 interrupted. */
  exitCode: number;
  /** Whether the gate was judged (not when the run was interrupted, nor for a run of `grade`, which has no gate). */
  judged: boolean;
  /** The gate's lines, as the CLI prints them on stderr (none when not judged). */
  lines: string[];
  /** Every check made, passed or failed (junit.xml's gate suite). */
  checks: GateCheck[];
}
