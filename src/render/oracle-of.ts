import type { Oracle } from '../contracts/model.js';
import type { SuiteCase } from '../contracts/suite.js';
import { caseOfTurn } from '../util/user-turns.js';

/**
 * What a simulated persona may know of a case: its expectations (never shown to a real model). In a conversation,
 * those of the user message being answered (`userTurn`, 0-based).
 */
export function oracleOf(c: SuiteCase, userTurn = 0): Oracle {
  const { expect } = caseOfTurn(c, userTurn);
  return {
    calls: expect.calls ?? [],
    noCall: expect.no_call === true,
    answerMentions: expect.answer_mentions ?? [],
    ...(expect.order ? { order: expect.order } : {}),
    ...(expect.alternatives ? { alternatives: expect.alternatives } : {}),
  };
}
