import type { LoadedSuite } from '../config/load-suite.js';
import type { Message, Oracle } from '../contracts/model.js';
import { oracleOf } from '../render/oracle-of.js';
import { isUserPrompt } from '../runner/feedback.js';
import { userMessagesOf } from '../util/user-turns.js';

/** The oracles of a set of cases, found by the prompt a request opens with. */
export interface CaseOracles {
  /** The expectations of the case whose prompt is the request's first user message; undefined for an unknown prompt. */
  lookup(messages: readonly Message[]): Oracle | undefined;
  cases: number;
  /** Prompts shared by cases with different expectations: the first case wins. */
  ambiguous: string[];
}

/**
 * Case expectations by prompt, for `serve llm`: a request over the wire carries the rendered prompt but not the case
 * it came from, and every renderer sends the case's prompt unchanged as the first user message. In a conversation,
 * the user messages the request holds say which one is being answered: its expectations are the oracle.
 */
export function caseOracles(suites: readonly LoadedSuite[]): CaseOracles {
  const byPrompt = new Map<string, { id: string; oracles: Oracle[] }>();
  const ambiguous: string[] = [];
  let cases = 0;
  for (const { suite, cases: suiteCases } of suites) {
    for (const c of suiteCases) {
      cases++;
      const oracles = userMessagesOf(c).map((_, u) => oracleOf(c, u));
      const seen = byPrompt.get(c.prompt);
      if (!seen) byPrompt.set(c.prompt, { id: `${suite.name}/${c.id}`, oracles });
      else if (JSON.stringify(seen.oracles) !== JSON.stringify(oracles)) ambiguous.push(`${suite.name}/${c.id}`);
    }
  }
  return {
    cases,
    ambiguous,
    lookup(messages) {
      const first = messages.find((m) => m.role === 'user');
      if (!first || typeof first.content !== 'string') return undefined;
      const oracles = byPrompt.get(first.content)?.oracles;
      if (!oracles) return undefined;
      const spoken = messages.filter((m) => typeof m.content === 'string' && isUserPrompt(m)).length;
      return oracles[Math.min(Math.max(spoken, 1), oracles.length) - 1];
    },
  };
}
