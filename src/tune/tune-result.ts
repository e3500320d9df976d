import { join } from 'node:path';
import { redactSecrets } from '../util/redact.js';
import { writeFileWhole } from '../util/write-file.js';
import { configSnippet, type Recommendation } from './config-snippet.js';
import type { Estimate } from './estimate.js';
import type { Race, RoundEvidence, Standing, StopReason } from './race.js';
import { tuneHtml } from './tune-html.js';
import type { TuneInput } from './tune-input.js';
import { tuneMarkdown } from './tune-markdown.js';
import type { TuneSetup } from './tune-setup.js';

export const TUNE_RESULT_FORMAT = 'toolgauge.tune/1';

/** One provider's race: how it ended, every candidate's standing, the rounds, and what it cost. */
export interface ProviderTune {
  provider: string;
  simulated: boolean;
  stopReason: StopReason | null;
  /** The recommended candidate (null when no round was judged). */
  recommended: Standing | null;
  candidates: Standing[];
  /** The Pareto front of pass rate against prompt tokens, fewest tokens first. */
  pareto: string[];
  rounds: RoundEvidence[];
  calls: number;
  tokens: number;
  /**
   * The full grid's calls for this provider: every candidate on every case, at each candidate's measured calls per
   * case (the estimate's for a candidate never run).
   */
  gridCalls: number;
}

/** tune.json: what a tune found, and the evidence. */
export interface TuneResult {
  format: typeof TUNE_RESULT_FORMAT;
  out: string;
  startedAt: string;
  finishedAt: string;
  seed: number;
  grader: string;
  objective: TuneInput['objective'];
  alpha: number;
  margin: number;
  space: string | null;
  suites: TuneSetup['suites'];
  /** Cases the grader grades, which the race samples. */
  cases: number;
  candidates: string[];
  interrupted: boolean;
  budget: { calls?: number; tokens?: number; spent: boolean };
  estimate: Estimate;
  /**
   * Calls the race needed (its finished cases'), and of them those paid now (new in the cassette) and those answered
   * from it. Cases aborted in flight by a second Ctrl-C may have paid calls no finished case counts.
   */
  calls: { spent: number; paid: number; reused: number; grid: number };
  tokens: number;
  providers: ProviderTune[];
  /** Config lines that run each provider with its recommended strategy. */
  snippet: string;
}

export function tuneResultOf(input: {
  dir: string;
  input: TuneInput;
  setup: TuneSetup;
  races: Race[];
  estimate: Estimate;
  spent: { calls: number; tokens: number };
  paid: number;
  budgetSpent: boolean;
  interrupted: boolean;
  startedAt: string;
}): TuneResult {
  const { setup, races, estimate } = input;
  const providers: ProviderTune[] = races.map((race, p) => {
    const slot = setup.providers[p]!;
    const judged = race.rounds.length > 0;
    const candidates = judged ? race.standings() : [];
    let calls = 0;
    let tokens = 0;
    for (const c of candidates) calls += c.calls;
    for (const c of candidates) tokens += c.tokens * c.cases;
    const gridCalls = setup.strategies.reduce((n, s, c) => {
      const st = candidates[c];
      const perCase =
        st && st.cases > 0
          ? st.calls / st.cases
          : (estimate.perCell.find((e) => e.strategy === s.label && e.provider === slot.label)?.callsPerCase ?? 0);
      return n + perCase * setup.cases.length;
    }, 0);
    return {
      provider: slot.label,
      simulated: slot.provider.simulated,
      stopReason: race.stopReason ?? null,
      recommended: candidates.find((c) => c.status === 'recommended') ?? null,
      candidates,
      pareto: candidates
        .filter((c) => c.pareto)
        .sort((a, b) => a.tokens - b.tokens)
        .map((c) => c.label),
      rounds: race.rounds,
      calls,
      tokens: Math.round(tokens),
      gridCalls: Math.round(gridCalls),
    };
  });
  const recommendations: Recommendation[] = [];
  providers.forEach((p, i) => {
    const strategy = setup.strategies.find((s) => s.label === p.recommended?.label);
    if (strategy) recommendations.push({ provider: p.provider, entry: input.input.providers[i]!, strategy });
  });
  const grid = providers.reduce((n, p) => n + p.gridCalls, 0);
  return redactSecrets({
    format: TUNE_RESULT_FORMAT,
    out: input.dir,
    startedAt: input.startedAt,
    finishedAt: new Date().toISOString(),
    seed: input.input.seed,
    grader: input.input.grader,
    objective: input.input.objective,
    alpha: input.input.alpha,
    margin: input.input.margin,
    space: input.input.space,
    suites: setup.suites,
    cases: setup.cases.length,
    candidates: setup.strategies.map((s) => s.label),
    interrupted: input.interrupted,
    budget: {
      ...(input.input.budgetCalls !== undefined ? { calls: input.input.budgetCalls } : {}),
      ...(input.input.budgetTokens !== undefined ? { tokens: input.input.budgetTokens } : {}),
      spent: input.budgetSpent,
    },
    estimate,
    calls: { spent: input.spent.calls, paid: input.paid, reused: Math.max(0, input.spent.calls - input.paid), grid },
    tokens: input.spent.tokens,
    providers,
    snippet: configSnippet(recommendations, input.input.seed),
  });
}

/** tune.json, tune.md and tune.html, each written whole. */
export function writeTuneResult(dir: string, result: TuneResult): void {
  writeFileWhole(join(dir, 'tune.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileWhole(join(dir, 'tune.md'), tuneMarkdown(result));
  writeFileWhole(join(dir, 'tune.html'), tuneHtml(result));
}
