import type { LoadedSuite } from '../config/load-suite.js';
import type { SuiteCase } from '../contracts/suite.js';
import type { ProviderSlot, Strategy } from '../plugins/index.js';
import { runsWith } from '../util/strategy-providers.js';

/** One unit of work: a case in one cell (strategy × provider) for one repeat. */
export interface PlanItem {
  key: string;
  suite: LoadedSuite;
  case: SuiteCase;
  strategy: Strategy;
  provider: ProviderSlot;
  repeat: number;
}

export function planKey(suite: string, caseId: string, renderer: string, provider: string, repeat: number): string {
  return `${suite}/${caseId}|${renderer}|${provider}|${repeat}`;
}

/** Cases the plan holds: every case in every cell a strategy runs in (a strategy may name its providers). */
export function planSize(
  suites: LoadedSuite[],
  strategies: readonly Strategy[],
  providers: readonly ProviderSlot[],
  repeats: number,
): number {
  let cells = 0;
  for (const s of strategies) for (const p of providers) if (runsWith(s, p.label)) cells++;
  return suites.reduce((n, s) => n + s.cases.count, 0) * cells * repeats;
}

/**
 * The matrix, generated lazily (constant memory however large). Repeats vary slowest and cells fastest,
 * so an interrupted run has covered every cell evenly.
 */
export function* plan(
  suites: LoadedSuite[],
  strategies: Strategy[],
  providers: ProviderSlot[],
  repeats: number,
): Generator<PlanItem> {
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const suite of suites) {
      for (const c of suite.cases) {
        for (const strategy of strategies) {
          for (const provider of providers) {
            if (!runsWith(strategy, provider.label)) continue;
            yield {
              key: planKey(suite.suite.name, c.id, strategy.label, provider.label, repeat),
              suite,
              case: c,
              strategy,
              provider,
              repeat,
            };
          }
        }
      }
    }
  }
}
