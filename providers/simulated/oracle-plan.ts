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
  | { kind: 'not-revealed'; tool: string }
  /** The needed tool is not loaded, but the request offers a search: search for it. */
  | { kind: 'search'; call: SimCall };

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
  // one call per turn when the case wants them in order, and as many as the agent runs in one message
  const perTurn = oracle.order === 'sequence' ? 1 : (view.request.maxCallsPerTurn ?? remaining.length);
  const candidates = remaining.slice(0, perTurn);
  const calls = candidates.map((c) => planned(view, c)).filter((c): c is PlannedCall => c !== null);
  const hidden = candidates.find((c) => view.callName(c.tool) === null);
  // a model that can search finds every tool it needs before calling: a few tries per tool
  const tries = view.searchesSinceResult;
  if (hidden && view.searchTool && tries < MAX_SEARCHES * candidates.length) {
    return { kind: 'search', call: searchCall(view, hidden.tool, tries % MAX_SEARCHES) };
  }
  if (calls.length > 0) return { kind: 'calls', calls };
  if (view.afterResults) return { kind: 'answer' };
  return { kind: 'not-revealed', tool: candidates[0]?.tool ?? '' };
}

/** Searches a persona makes for one tool before it gives up on finding it. */
export const MAX_SEARCHES = 2;

/**
 * What a persona searches for a tool it needs, as a model would put it: the words of the tool's name first (a model
 * guesses `read data excel` from the task), then the first words of its description when the catalog gives one. For
 * a regex search, two words of the name joined by `.*`, then its last word.
 */
export function searchQuery(view: RequestView, tool: string, attempt: number): string {
  const nameWords = tool.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/).filter((w) => w.length > 1);
  if (view.request.toolSearch?.method === 'regex') {
    const first = nameWords[0] ?? tool;
    const last = nameWords.at(-1) ?? tool;
    return attempt === 0 && first !== last ? `${first}.*${last}` : last;
  }
  if (attempt === 0) return nameWords.join(' ').toLowerCase();
  const description = view.request.oracle?.catalog?.find((t) => t.name === tool)?.description ?? '';
  return description.split(/\s+/).slice(0, 8).join(' ') || nameWords.join(' ');
}

function searchCall(view: RequestView, tool: string, attempt: number): SimCall {
  const spec = view.request.toolSearch;
  const name = spec?.tool ?? 'tool_search';
  const param = spec?.method === 'regex' ? 'pattern' : 'query';
  return { tool: name, name, args: { [param]: searchQuery(view, tool, attempt) } };
}
