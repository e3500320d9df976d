import { answerArgs } from '../../src/config/expected-answer.js';
import type { ExpectedCall } from '../../src/contracts/index.js';
import type { RequestView } from './request-view.js';
import type { SimCall } from './types.js';

/** What a perfect model would do this turn, given what the request reveals. */
export type TurnPlan =
  | { kind: 'calls'; calls: PlannedCall[] }
  /** Results are in and nothing is left to call: answer using them. */
  | { kind: 'answer' }
  /** The case expects no call (irrelevance). */
  | { kind: 'no-call' }
  /** The needed tool is not in the request: the model cannot call what it was not shown. */
  | { kind: 'not-revealed'; tool: string };

export interface PlannedCall extends SimCall {
  expected: ExpectedCall;
}

/** The first allowed value of each parameter; a parameter whose first allowed value is "" is omitted. */
export function expectedArgs(call: ExpectedCall): Record<string, unknown> {
  // Free parameters have no allowed list: the case's `example` supplies a valid value.
  return { ...(call.example ?? {}), ...answerArgs(call) };
}

/** Parameters the case lets the model omit ("" among the allowed values). */
export function optionalParams(call: ExpectedCall): Set<string> {
  return new Set(
    Object.entries(call.args ?? {})
      .filter(([, allowed]) => allowed.includes(''))
      .map(([p]) => p),
  );
}

function planned(view: RequestView, expected: ExpectedCall): PlannedCall | null {
  const name = view.callName(expected.tool);
  return name === null ? null : { tool: expected.tool, name, args: expectedArgs(expected), expected };
}

/**
 * The oracle's decision for this turn. Calls already executed are counted from the results fed back:
 * `sequence` → the next expected call alone; `parallel` → every remaining call at once.
 */
export function planTurn(view: RequestView): TurnPlan {
  const oracle = view.request.oracle;
  const expected = oracle?.calls ?? [];
  if (!oracle || oracle.noCall || expected.length === 0)
    return view.afterResults ? { kind: 'answer' } : { kind: 'no-call' };
  const remaining = expected.slice(view.results.length);
  if (remaining.length === 0) return { kind: 'answer' };
  const candidates = oracle.order === 'sequence' ? remaining.slice(0, 1) : remaining;
  const calls = candidates.map((c) => planned(view, c)).filter((c): c is PlannedCall => c !== null);
  if (calls.length > 0) return { kind: 'calls', calls };
  if (view.afterResults) return { kind: 'answer' };
  return { kind: 'not-revealed', tool: candidates[0]?.tool ?? '' };
}
