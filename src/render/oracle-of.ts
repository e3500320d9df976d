import type { Oracle } from '../contracts/model.js';
import type { SuiteCase } from '../contracts/suite.js';
import { caseOfTurn } from '../util/user-turns.js';

/**
 * What a simulated persona may know of a case: its expectations (never shown to a real model), and the names and
 * descriptions of the catalog the strategy presents, when given. In a conversation, the expectations are those of the
 * user message being answered (`userTurn`, 0-based).
 */
export function oracleOf(c: SuiteCase, userTurn = 0, catalog?: Oracle['catalog']): Oracle {
  const { expect } = caseOfTurn(c, userTurn);
  return {
    calls: expect.calls ?? [],
    noCall: expect.no_call === true,
    answerMentions: expect.answer_mentions ?? [],
    ...(expect.order ? { order: expect.order } : {}),
    ...(expect.alternatives ? { alternatives: expect.alternatives } : {}),
    ...(catalog ? { catalog } : {}),
  };
}
