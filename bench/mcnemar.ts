import { mcnemarExact } from '../src/util/stats.js';
import type { BenchResult } from './types.js';

/** The exact McNemar test as compare and the gate run it for every cell × grader: ms per call at 10,000 pairs. */
export async function benchMcnemar(pairs = 10_000, calls = 2_000): Promise<BenchResult> {
  const worse = Math.floor(pairs * 0.49);
  let p = 0;
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) p = mcnemarExact(worse + (i % 2), pairs - worse - (i % 2));
  const ms = (performance.now() - t0) / calls;
  return {
    name: `exact McNemar test, ${pairs.toLocaleString('en-US')} discordant pairs`,
    value: Number(ms.toFixed(4)),
    unit: 'ms/call',
    target: 'linear in the pairs',
    met: ms < 1,
    detail: `${calls} calls (${worse}/${pairs - worse}, p = ${p.toPrecision(4)}); before (log n! summed for every term) ~89 ms at 3,800 pairs and ~614 ms at 9,800 per cell × grader`,
  };
}

/**
 * The paired sign-flip test compare and the gate run per cell × grader with repeats, at the size where it is still
 * exact (just under its budget of cases × tail steps): ms per call, for an A/A-like cell of about 1,400 changed cases
 * at k = 3.
 */
export async function benchSignFlip(calls = 20): Promise<BenchResult> {
  const { signFlipTest } = await import('../src/report/sign-flip.js');
  const scores = new Map([
    [1, 330],
    [-1, 330],
    [2, 190],
    [-2, 190],
    [3, 190],
    [-3, 185],
  ]);
  let p = 0;
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) p = signFlipTest(scores);
  const ms = (performance.now() - t0) / calls;
  return {
    name: 'paired sign-flip test, 1,415 changed cases at k = 3 (exact)',
    value: Number(ms.toFixed(2)),
    unit: 'ms/call',
    target: '≤ 50 ms (past 4M steps the normal form takes over)',
    met: ms <= 50,
    detail: `${calls} calls, p = ${p.toPrecision(4)}`,
  };
}
