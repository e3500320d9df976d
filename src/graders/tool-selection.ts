import type { ExpectedCall } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import type { CallRef } from './transcript-calls.js';

/**
 * What the model did about one expected call:
 * - `right`: a call matched it (tool and arguments);
 * - `wrong-arguments`: the expected tool was called, but no such call matched;
 * - `other-tool`, `distractor`, `hallucinated`: another offered tool, a distractor a catalog variant added, or a
 *   tool nobody offered was called in its place;
 * - `no-call`: nothing was called in its place.
 */
export type SelectionHow = 'right' | 'wrong-arguments' | 'other-tool' | 'distractor' | 'hallucinated' | 'no-call';

/** One expected call and the tool the model called for it (null: none). What the confusion tables count. */
export interface Selection {
  expected: string;
  called: string | null;
  how: SelectionHow;
  /** For a wrong tool: both tools' descriptions as the model read them (cut), for the side-by-side view. */
  descriptions?: { expected: string; called: string };
}

/** Characters of a description a selection keeps: enough to see why two tools were confused. */
const MAX_DESCRIPTION = 400;

function describe(tools: readonly ToolDef[] | undefined, name: string): string {
  const t = tools?.find((x) => x.name === name);
  const text = (t?.description ?? t?.title ?? '').trim();
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

/**
 * The tool the model chose for each expected call. Matched expectations are `right`; an unmatched one whose tool was
 * called (not matched) is `wrong-arguments`; the others are paired in order with the calls to tools no expectation
 * names (`strays`, in call order), which says which tool was taken for which; the rest are `no-call`. Also returns
 * the strays that stood in for an expected call, by ref index.
 */
export function selectionsOf(
  expected: readonly ExpectedCall[],
  owner: readonly (number | undefined)[],
  refs: readonly CallRef[],
  tools: ReadonlyMap<string, ToolDef>,
  offeredCount: number,
  shown: readonly ToolDef[] | undefined,
): { selections: Selection[]; standIns: Map<number, string> } {
  const matched = new Set(owner.filter((o): o is number => o !== undefined));
  const expectedTools = new Set(expected.map((e) => e.tool));
  const strays: number[] = [];
  for (let i = 0; i < refs.length; i++) {
    if (!matched.has(i) && !expectedTools.has((refs[i] as CallRef).tool)) strays.push(i);
  }
  const standIns = new Map<number, string>();
  const selections = expected.map((e, j): Selection => {
    if (owner[j] !== undefined) return { expected: e.tool, called: e.tool, how: 'right' };
    if (refs.some((r, i) => r.tool === e.tool && !matched.has(i))) {
      return { expected: e.tool, called: e.tool, how: 'wrong-arguments' };
    }
    const stray = strays.shift();
    if (stray === undefined) return { expected: e.tool, called: null, how: 'no-call' };
    const called = (refs[stray] as CallRef).tool;
    standIns.set(stray, e.tool);
    const tool = tools.get(called);
    const how: SelectionHow =
      !tool && offeredCount > 0 ? 'hallucinated' : tool?.distractor ? 'distractor' : 'other-tool';
    if (how === 'hallucinated') return { expected: e.tool, called, how };
    const seen = shown ?? [...tools.values()];
    return {
      expected: e.tool,
      called,
      how,
      descriptions: { expected: describe(seen, e.tool), called: describe(seen, called) },
    };
  });
  return { selections, standIns };
}
