import type { RunAggregate } from '../run-log/aggregate.js';
import { type ConversationCase, casePassHatK, type FailurePoint } from '../run-log/conversation-tally.js';

/** One cell's conversations: how many, their mean pass^k, and where their failing trials first failed. */
export interface ConversationCell {
  renderer: string;
  provider: string;
  simulated: boolean;
  cases: number;
  /** Mean over the cell's conversation cases of their pass^k, every grader (null when none has k graded trials). */
  passHatK: number | null;
  /** The same for the goal state alone (final-state; null when no case of the cell has state facts). */
  statePassHatK: number | null;
  failedAt: Map<FailurePoint, number>;
}

/** Failure points in reading order: turn 1, turn 2, …, then the final state, then errors. */
export function orderedPoints(points: Iterable<[FailurePoint, number]>): [FailurePoint, number][] {
  const rank = (p: FailurePoint) => (typeof p === 'number' ? p : p === 'state' ? 1e9 : 1e9 + 1);
  return [...points].sort((a, b) => rank(a[0]) - rank(b[0]));
}

/** How a failure point reads: `turn 2`, `final state`, `error`. */
export function pointText(p: FailurePoint): string {
  return typeof p === 'number' ? `turn ${p}` : p === 'state' ? 'final state' : 'error';
}

/** A running mean of the pass^k values that exist. */
class Mean {
  private sum = 0;
  private n = 0;
  add(x: number | null): void {
    if (x === null) return;
    this.sum += x;
    this.n++;
  }
  get value(): number | null {
    return this.n ? this.sum / this.n : null;
  }
}

/** The conversation cells of a run, in the matrix's order (strategies × providers); empty without conversations. */
export function conversationCells(agg: RunAggregate): ConversationCell[] {
  const k = agg.repeats;
  const cells = new Map<string, { cell: ConversationCell; all: Mean; state: Mean }>();
  for (const c of agg.conversations.cases()) {
    const key = `${c.renderer}|${c.provider}`;
    let entry = cells.get(key);
    if (!entry) {
      entry = {
        cell: {
          renderer: c.renderer,
          provider: c.provider,
          simulated: c.simulated,
          cases: 0,
          passHatK: null,
          statePassHatK: null,
          failedAt: new Map(),
        },
        all: new Mean(),
        state: new Mean(),
      };
      cells.set(key, entry);
    }
    entry.cell.cases++;
    entry.all.add(casePassHatK(c, k));
    entry.state.add(casePassHatK(c, k, 'state'));
    for (const [p, n] of c.failedAt) entry.cell.failedAt.set(p, (entry.cell.failedAt.get(p) ?? 0) + n);
  }
  const order = new Map([...agg.cells.values()].map((s, i) => [`${s.renderer}|${s.provider}`, i]));
  const at = (key: string) => order.get(key) ?? Number.POSITIVE_INFINITY;
  return [...cells]
    .sort((a, b) => at(a[0]) - at(b[0]))
    .map(([, e]) => ({ ...e.cell, passHatK: e.all.value, statePassHatK: e.state.value }));
}

/** The conversation cases that did not pass every repeat, in the order first seen. */
export function failingConversations(agg: RunAggregate): ConversationCase[] {
  return agg.conversations.cases().filter((c) => c.passes < c.trials || c.errors > 0);
}
