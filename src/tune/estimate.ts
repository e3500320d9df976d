import type { Catalog } from '../contracts/tool.js';
import { renderCase } from '../render/render-case.js';
import { pairedDiffInterval } from '../report/strategy-comparison.js';
import { expectedCalls } from './case-cost.js';
import type { RaceSettings } from './race.js';
import type { TuneCase } from './run-cells.js';
import { sampleSizes } from './sample-sizes.js';
import type { TuneSetup } from './tune-setup.js';

/** Model calls and tokens, estimated or spent. */
export interface Cost {
  calls: number;
  tokens: number;
}

/** What a tune expects to cost before it starts, against the full grid's cost. */
export interface Estimate {
  candidates: number;
  providers: number;
  /** Cases the grader grades (the race samples them). */
  cases: number;
  /** Every candidate on every case, for every provider. */
  grid: Cost;
  /** The first round: every candidate on the first sample. */
  firstRound: Cost;
  /**
   * The race when no candidate is ever dropped and all agree on every case: it runs until they are within the margin
   * (the sample size below), the most a race costs short of candidates that keep disagreeing. A race that drops
   * candidates costs less; one whose candidates keep disagreeing narrowly costs more, up to the grid.
   */
  race: Cost;
  /** The sample size at which candidates that agree on every case are within the margin. */
  raceCases: number;
  /** Per candidate and provider: tokens per call (the first request's, o200k) and calls per case (expected turns). */
  perCell: { strategy: string; provider: string; tokensPerCall: number; callsPerCase: number }[];
}

/** The first sample size at which two candidates passing every case are within `margin` (Newcombe's interval). */
function agreeingStop(sizes: readonly number[], margin: number): number {
  for (const n of sizes) if (pairedDiffInterval(n, 0, 0, 0)[0] > -margin) return n;
  return sizes.at(-1) ?? 0;
}

/**
 * The estimate printed before a tune starts: each candidate's first request is rendered for each provider on the
 * probe cases (the first few of the race's order) (no model is called) for its size in tokens; calls per case are the turns a case takes when
 * the model does as expected. Tokens are first-request tokens × calls (later turns carry more: a lower estimate).
 */
export function estimateTune(
  setup: TuneSetup,
  order: readonly number[],
  settings: Pick<RaceSettings, 'firstRound' | 'growth' | 'margin'>,
  probes: readonly { tc: TuneCase; live: Catalog }[],
): Estimate {
  const { strategies, providers, cases } = setup;
  const sizes = sampleSizes(cases.length, settings);
  const raceCases = agreeingStop(sizes, settings.margin);
  const grid: Cost = { calls: 0, tokens: 0 };
  const firstRound: Cost = { calls: 0, tokens: 0 };
  const race: Cost = { calls: 0, tokens: 0 };
  const perCell: Estimate['perCell'] = [];
  const first = sizes[0] ?? 0;
  const position = new Map(order.map((caseIndex, at) => [caseIndex, at]));
  for (const strategy of strategies) {
    const search = strategy.name === 'tool-search';
    for (const provider of providers) {
      const sizesTokens: number[] = [];
      for (const { tc, live } of probes) {
        const { rendered } = renderCase({
          suite: tc.suite,
          testCase: tc.case,
          live,
          strategy,
          provider: { id: provider.id, kind: provider.provider.kind },
          schemaDir: setup.settings.schemaDir,
          trial: { repeat: 0, seed: setup.settings.seed },
          context: setup.context,
        });
        sizesTokens.push(setup.context.prompts.count(rendered));
      }
      const tokensPerCall = sizesTokens.length ? sizesTokens.reduce((a, b) => a + b, 0) / sizesTokens.length : 0;
      let calls = 0;
      cases.forEach((tc, i) => {
        const n = expectedCalls(tc.case, search);
        const cost = { calls: n, tokens: Math.round(n * tokensPerCall) };
        calls += n;
        add(grid, cost);
        const at = position.get(i) ?? 0;
        if (at < first) add(firstRound, cost);
        if (at < raceCases) add(race, cost);
      });
      perCell.push({
        strategy: strategy.label,
        provider: provider.label,
        tokensPerCall: Math.round(tokensPerCall),
        callsPerCase: cases.length ? calls / cases.length : 0,
      });
    }
  }
  return {
    candidates: strategies.length,
    providers: providers.length,
    cases: cases.length,
    grid,
    firstRound,
    race,
    raceCases,
    perCell,
  };
}

function add(into: Cost, cost: Cost): void {
  into.calls += cost.calls;
  into.tokens += cost.tokens;
}
