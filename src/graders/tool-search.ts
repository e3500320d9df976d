import type { Grade, GradeInput, Grader } from '../contracts/grade.js';
import { userMessagesOf } from '../util/user-turns.js';
import { expectsCalls, isSearchCall, toolCalls } from './transcript-calls.js';

const NAME = 'tool-search';

/**
 * For a strategy that holds its tools back behind a search (the request's `toolSearch`): passes when every tool the
 * case expects was loaded, by a search within its `k` results or as an eager tool, whatever was then done with it
 * (correct-arguments judges that). Its pass rate is the search's recall at k. Reports the searches per case, the rank
 * at which each expected tool was first found, and the turns spent on searches alone. In a conversation it judges the
 * whole case once (scope `conversation`): a tool found while answering one user message stays loaded for the next, so
 * the expected tools are those of every message, found by any search of the case.
 */
export const toolSearchGrader: Grader = {
  name: NAME,
  description:
    'For tool-search strategies: every expected tool was found by a search within k (or loaded eagerly); reports searches, ranks and the turns spent searching.',
  scope: 'conversation',
  grade(input: GradeInput): Grade | null {
    const spec = input.transcript.turns[0]?.request.toolSearch;
    if (!spec) return null;
    const calling = userMessagesOf(input.case).filter((m) => expectsCalls({ ...input.case, expect: m.expect }));
    if (calling.length === 0) return null;
    const expected = [...new Set(calling.flatMap((m) => (m.expect.calls ?? []).map((c) => c.tool)))];
    const eager = new Set(spec.eager);
    const ranks: Record<string, number> = {};
    const queries: string[] = [];
    let searches = 0;
    let searchTurns = 0;
    for (const turn of input.transcript.turns) {
      const calls = turn.parse.calls;
      if (calls.length > 0 && toolCalls(turn).length === 0 && calls.some((c) => isSearchCall(turn, c))) searchTurns++;
      for (const x of turn.executed) {
        if (!x.loaded) continue;
        searches++;
        const q = typeof x.args === 'object' && x.args !== null ? Object.values(x.args)[0] : undefined;
        if (typeof q === 'string') queries.push(q);
        for (const [i, name] of x.loaded.entries()) if (ranks[name] === undefined) ranks[name] = i + 1;
      }
    }
    const found = expected.filter((t) => eager.has(t) || ranks[t] !== undefined);
    const missing = expected.filter((t) => !found.includes(t));
    const shown = (t: string) => (eager.has(t) ? `${t} (eager)` : `${t} (rank ${ranks[t]} of ${spec.k})`);
    const tried = queries.length > 0 ? ` (${queries.map((q) => JSON.stringify(q)).join(', ')})` : '';
    const reason =
      missing.length === 0
        ? `found ${found.map(shown).join(', ')} in ${searches} search(es)`
        : `${missing.join(', ')} not found by ${searches} search(es)${tried}${found.length ? `; found ${found.map(shown).join(', ')}` : ''}`;
    return {
      grader: NAME,
      pass: missing.length === 0,
      score: expected.length === 0 ? 0 : found.length / expected.length,
      reason,
      data: {
        searches,
        searchTurns,
        found,
        missing,
        ranks: Object.fromEntries(found.filter((t) => !eager.has(t)).map((t) => [t, ranks[t]])),
        k: spec.k,
      },
    };
  },
};
