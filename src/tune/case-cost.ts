import type { Expect, SuiteCase } from '../contracts/suite.js';
import { userMessagesOf } from '../util/user-turns.js';

const callsOf = (e: Expect) => (e.no_call ? 0 : (e.calls?.length ?? 0));

/**
 * Model calls a case takes when the model does as expected: per user message, one turn per call in sequence (all at
 * once when parallel) and one for the answer; a tool-search strategy adds a search turn per message that calls. An
 * estimate for the budget before any call is made; the race measures the real count as it goes.
 */
export function expectedCalls(c: SuiteCase, search: boolean): number {
  let turns = 0;
  for (const m of userMessagesOf(c)) {
    const calls = callsOf(m.expect);
    if (calls === 0) {
      turns += 1;
      continue;
    }
    turns += (m.expect.order === 'parallel' ? 1 : calls) + 1 + (search ? 1 : 0);
  }
  return turns;
}

/**
 * Whether the grader the race scores by can grade the case at all, for the built-in graders whose rule depends on the
 * case alone (a case the grader never grades would cost calls and tell the race nothing). A grader not known here may
 * grade any case.
 */
export function gradable(grader: string, c: SuiteCase): boolean {
  const messages = userMessagesOf(c);
  switch (grader) {
    case 'correct-arguments':
    case 'parseable':
    case 'tool-search':
      return messages.some((m) => callsOf(m.expect) > 0);
    case 'no-call':
      return messages.some((m) => m.expect.no_call === true);
    case 'final-state':
      return (c.expect.state?.length ?? 0) > 0;
    default:
      return true;
  }
}
