import { passHatK } from '../util/stats.js';
import type { CaseRecord } from './schema.js';

/** Where a failing trial of a conversation first went wrong. */
export type FailurePoint = number | 'state' | 'error';

/** One conversation case in one cell (renderer × provider), over its repeats. */
export interface ConversationCase {
  /** `suite/case`. */
  caseId: string;
  renderer: string;
  provider: string;
  simulated: boolean;
  /** Trials graded (errors excluded) and those where every grader passed. */
  trials: number;
  passes: number;
  errors: number;
  /** Trials the final-state grader judged, and those where the goal state was reached (whatever the path). */
  stateTrials: number;
  statePasses: number;
  /**
   * Failing trials by where the first failure happened: the user message (1-based) of the earliest turn a grader
   * failed at, `state` when every message passed but the final state did not, `error` for an infrastructure error.
   */
  failedAt: Map<FailurePoint, number>;
}

/** Whether a record is a scripted conversation's (its model turns say which user message they answer). */
export function isConversationRecord(record: CaseRecord): boolean {
  return (record.transcript?.turns ?? []).some((t) => t.userTurn !== undefined);
}

/**
 * Where a failing trial first went wrong: the earliest `failedTurn` of its failing grades (turn-scoped graders name
 * it), else `state` (only a conversation-scoped grader failed: the final state). Undefined when every grade passed.
 */
export function failurePoint(record: CaseRecord): FailurePoint | undefined {
  if (record.error) return 'error';
  let first: number | undefined;
  let failed = false;
  for (const g of record.grades) {
    if (g.pass) continue;
    failed = true;
    const turn = g.data?.failedTurn;
    if (typeof turn === 'number' && (first === undefined || turn < first)) first = turn;
  }
  if (!failed) return undefined;
  return first ?? 'state';
}

/**
 * The conversation cases of a run, per cell, folded as records stream by: trials, passes, and where failures
 * happened. Holds a few numbers per conversation case and cell (never a transcript), and nothing for one-message
 * cases: a run without conversations costs one check per record.
 */
export class ConversationTally {
  private readonly byKey = new Map<string, ConversationCase>();

  add(record: CaseRecord): void {
    if (!isConversationRecord(record)) return;
    const key = `${record.suite}/${record.case}|${record.renderer}|${record.provider}`;
    let c = this.byKey.get(key);
    if (!c) {
      c = {
        caseId: `${record.suite}/${record.case}`,
        renderer: record.renderer,
        provider: record.provider,
        simulated: record.simulated,
        trials: 0,
        passes: 0,
        errors: 0,
        stateTrials: 0,
        statePasses: 0,
        failedAt: new Map(),
      };
      this.byKey.set(key, c);
    }
    const point = failurePoint(record);
    if (point === 'error') c.errors++;
    else {
      c.trials++;
      if (point === undefined) c.passes++;
    }
    if (point !== undefined) c.failedAt.set(point, (c.failedAt.get(point) ?? 0) + 1);
    const state = record.error ? undefined : record.grades.find((g) => g.grader === STATE_GRADER);
    if (state) {
      c.stateTrials++;
      if (state.pass) c.statePasses++;
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Every conversation case in every cell, in the order first seen. */
  cases(): ConversationCase[] {
    return [...this.byKey.values()];
  }
}

/** The grader whose verdict is the goal state (τ-bench's success: the state reached, whatever the calls). */
const STATE_GRADER = 'final-state';

/**
 * pass^k of one conversation case in one cell: the chance that k of its trials all pass (τ-bench's C(c,k)/C(n,k)):
 * every grader (`all`), or the goal state (`state`: final-state). Null with fewer than k judged trials.
 */
export function casePassHatK(c: ConversationCase, k: number, of: 'all' | 'state' = 'all'): number | null {
  const [passes, trials] = of === 'all' ? [c.passes, c.trials] : [c.statePasses, c.stateTrials];
  return trials >= k && trials > 0 ? passHatK(passes, trials, k) : null;
}
