import type { LoadedSuite } from '../config/load-suite.js';
import type { Message, Oracle } from '../contracts/model.js';
import { oracleOf } from '../render/oracle-of.js';

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
 * it came from, and every renderer sends the case's prompt unchanged as the first user message.
 */
export function caseOracles(suites: readonly LoadedSuite[]): CaseOracles {
  const byPrompt = new Map<string, { id: string; oracle: Oracle }>();
  const ambiguous: string[] = [];
  let cases = 0;
  for (const { suite, cases: suiteCases } of suites) {
    for (const c of suiteCases) {
      cases++;
      const oracle = oracleOf(c);
      const seen = byPrompt.get(c.prompt);
      if (!seen) byPrompt.set(c.prompt, { id: `${suite.name}/${c.id}`, oracle });
      else if (JSON.stringify(seen.oracle) !== JSON.stringify(oracle)) ambiguous.push(`${suite.name}/${c.id}`);
    }
  }
  return {
    cases,
    ambiguous,
    lookup(messages) {
      const first = messages.find((m) => m.role === 'user');
      return first && typeof first.content === 'string' ? byPrompt.get(first.content)?.oracle : undefined;
    },
  };
}
