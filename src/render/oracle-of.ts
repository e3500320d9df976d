import type { Oracle } from '../contracts/model.js';
import type { SuiteCase } from '../contracts/suite.js';

/** What a simulated persona may know of a case: its expectations (never shown to a real model). */
export function oracleOf(c: SuiteCase): Oracle {
  return {
    calls: c.expect.calls ?? [],
    noCall: c.expect.no_call === true,
    answerMentions: c.expect.answer_mentions ?? [],
    ...(c.expect.order ? { order: c.expect.order } : {}),
  };
}
