import type { Oracle } from '../contracts/model.js';
import type { SuiteCase } from '../contracts/suite.js';

/**
 * What a simulated persona may know of a case: its expectations (never shown to a real model), and the names and
 * descriptions of the catalog the strategy presents, when given.
 */
export function oracleOf(c: SuiteCase, catalog?: Oracle['catalog']): Oracle {
  return {
    calls: c.expect.calls ?? [],
    noCall: c.expect.no_call === true,
    answerMentions: c.expect.answer_mentions ?? [],
    ...(c.expect.order ? { order: c.expect.order } : {}),
    ...(catalog ? { catalog } : {}),
  };
}
