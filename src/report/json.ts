import type { CellSummary } from '../contracts/reporter.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import { casePassHatK } from '../run-log/conversation-tally.js';
import type { CompareResult } from './compare.js';
import { orderedPoints, pointText } from './conversation-summary.js';
import { type PresentationJson, presentationJson } from './presentation-json.js';
import { type RunSnapshot, snapshotOf } from './snapshot.js';
import { compareStrategies, type StrategyComparison } from './strategy-comparison.js';
import { wilson } from './wilson.js';

export interface RunJson {
  format: 'toolgauge.summary/1';
  runId: string;
  startedAt: string;
  gitCommit: string | null;
  interrupted: boolean;
  repeats: number;
  total: number;
  errors: number;
  suites: { name: string; file: string; cases: number }[];
  /** The cells as reporters receive them (the public contract is the source of the shape). */
  cells: CellSummary[];
  comparison: null | {
    baseRunId: string;
    regressions: number;
    cells: CompareResult['cells'];
    flips: { passToFail: number; failToPass: number };
    added: number;
    removed: number;
  };
  gate?: { exitCode: number; lines: string[] };
  /**
   * Per provider and grader, every strategy against the provider's best on the same cases (report.html's "Which
   * strategy?" and summary.md's "Strategies per provider"). Providers are never pooled.
   */
  strategies: StrategyComparison[];
  /**
   * Why strategies fail, per cell: each expected tool's outcomes (right, wrong arguments, another tool, a distractor,
   * a hallucination, no call), the tools confused with it, tool-search counts; and the sweeps as curves.
   */
  presentation: PresentationJson;
  /**
   * Present when the run has scripted conversations: each conversation case per cell, its repeats' passes, pass^k
   * (k = repeats) and where its failing runs first failed (`turn 2`, `final state`, `error`).
   */
  conversations?: ConversationJson[];
  /** The compact per-case numbers: what `baseline update` promotes and `compare` pairs on. */
  snapshot: RunSnapshot;
}

export interface ConversationJson {
  case: string;
  renderer: string;
  provider: string;
  trials: number;
  passes: number;
  errors: number;
  passHatK: number | null;
  /** The goal state alone (final-state): runs judged, reached, and pass^k; absent without state facts. */
  state?: { trials: number; passes: number; passHatK: number | null };
  failedAt: Record<string, number>;
}

/** run.json: the summary numbers of a run. Pure. */
export function renderRunJson(
  agg: RunAggregate,
  extra: { interrupted: boolean; comparison?: CompareResult | null; gate?: { exitCode: number; lines: string[] } },
  opts: { snapshotCases?: boolean } = {},
): RunJson {
  const h = agg.header;
  const k = agg.repeats;
  const c = extra.comparison;
  return {
    format: 'toolgauge.summary/1',
    runId: h.runId,
    startedAt: h.startedAt,
    gitCommit: h.gitCommit,
    interrupted: extra.interrupted,
    repeats: k,
    total: agg.total,
    errors: agg.totalErrors,
    suites: h.suites,
    cells: [...agg.cells.values()].map((cell) => ({
      renderer: cell.renderer,
      provider: cell.provider,
      simulated: cell.simulated,
      cases: cell.cases,
      errors: cell.errors,
      promptTokensMean: cell.cases ? Math.round(cell.promptTokens / cell.cases) : 0,
      usage: cell.usage,
      graders: Object.fromEntries(
        [...cell.graders].map(([g, t]) => [
          g,
          {
            pass: t.pass,
            n: t.n,
            rate: t.n ? t.pass / t.n : 0,
            wilson95: wilson(t.pass, t.n),
            passHatK: agg.passHatK(cell.renderer, cell.provider, g, k),
          },
        ]),
      ),
    })),
    comparison: c
      ? {
          baseRunId: c.baseRunId,
          regressions: c.cells.filter((x) => x.regression).length,
          cells: c.cells,
          flips: {
            passToFail: c.flips.filter((f) => f.from === 'pass' && f.to !== 'pass').length,
            failToPass: c.flips.filter((f) => f.from !== 'pass' && f.to === 'pass').length,
          },
          added: c.added.length,
          removed: c.removed.length,
        }
      : null,
    ...(extra.gate ? { gate: extra.gate } : {}),
    strategies: compareStrategies(agg),
    presentation: presentationJson(agg),
    ...(agg.conversations.size ? { conversations: conversationsJson(agg) } : {}),
    snapshot: snapshotOf(agg, { cases: opts.snapshotCases !== false }),
  };
}

/** run.json's conversations: one entry per conversation case and cell, in the order first seen. */
function conversationsJson(agg: RunAggregate): ConversationJson[] {
  return agg.conversations.cases().map((c) => ({
    case: c.caseId,
    renderer: c.renderer,
    provider: c.provider,
    trials: c.trials,
    passes: c.passes,
    errors: c.errors,
    passHatK: casePassHatK(c, agg.repeats),
    ...(c.stateTrials
      ? {
          state: {
            trials: c.stateTrials,
            passes: c.statePasses,
            passHatK: casePassHatK(c, agg.repeats, 'state'),
          },
        }
      : {}),
    failedAt: Object.fromEntries(orderedPoints(c.failedAt).map(([p, n]) => [pointText(p), n])),
  }));
}
