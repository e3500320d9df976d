import { setImmediate as nextTick } from 'node:timers/promises';
import type { ServerPool } from '../catalog/server-pool.js';
import type { LoadedSuite } from '../config/load-suite.js';
import type { SuiteCase } from '../contracts/suite.js';
import type { ProviderSlot, Strategy } from '../plugins/index.js';
import type { CaseRecord } from '../run-log/schema.js';
import { planKey } from '../runner/plan.js';
import { type CaseSettings, runCase } from '../runner/run-case.js';
import { redactSecrets } from '../util/redact.js';

/** A case of one of the tune's suites. */
export interface TuneCase {
  suite: LoadedSuite;
  case: SuiteCase;
}

/** Cases to run for one cell: a strategy × a provider. */
export interface CellCases {
  strategy: Strategy;
  provider: ProviderSlot;
  cases: readonly TuneCase[];
}

export interface RunCellsEnv {
  pool: ServerPool;
  settings: CaseSettings;
  concurrency: number;
  /** Aborts the cases in flight (their records are dropped). */
  signal: AbortSignal;
  /** No new case starts once it aborts; the cases in flight finish. */
  stop?: AbortSignal;
  onCase?: (record: CaseRecord) => void;
}

const YIELD_MS = 10;

/**
 * The one place tune runs cases: every case of every cell given, through the runner's own runCase (repeat 0), with
 * bounded concurrency. Returns, per cell, the records in the order of its cases; a case not run (stopped, or aborted
 * in flight) has no record (undefined). Switching tune to the library's evaluate() is a change to this file only.
 */
export async function runCells(cells: readonly CellCases[], env: RunCellsEnv): Promise<(CaseRecord | undefined)[][]> {
  const out: (CaseRecord | undefined)[][] = cells.map((c) => c.cases.map(() => undefined));
  const work: [number, number][] = [];
  cells.forEach((cell, i) => {
    cell.cases.forEach((_, j) => {
      work.push([i, j]);
    });
  });
  let next = 0;
  let lastYield = performance.now();
  const stopped = () => env.signal.aborted || env.stop?.aborted === true;
  const worker = async () => {
    while (next < work.length && !stopped()) {
      const [i, j] = work[next++]!;
      // a provider that answers at once could run the whole batch without returning to the event loop: no Ctrl-C
      if (performance.now() - lastYield > YIELD_MS) {
        lastYield = performance.now();
        await nextTick();
      }
      const cell = cells[i]!;
      const { suite, case: c } = cell.cases[j]!;
      const item = {
        key: planKey(suite.suite.name, c.id, cell.strategy.label, cell.provider.label, 0),
        suite,
        case: c,
        strategy: cell.strategy,
        provider: cell.provider,
        repeat: 0,
      };
      const record = redactSecrets(await runCase(item, env.pool, env.settings, env.signal));
      if (env.signal.aborted && record.error) continue; // cut short: not a result
      out[i]![j] = record;
      env.onCase?.(record);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, env.concurrency) }, worker));
  return out;
}
