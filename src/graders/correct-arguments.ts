import type { Grade, GradeInput, Grader } from '../contracts/grade.js';
import type { ExpectedCall } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { maxMatching } from './assignment.js';
import { matchCall } from './match-args.js';
import { checkAgainstSchema } from './schema-check.js';
import { allCalls, type CallRef, dedupeConsecutive, expectsCalls, showCall } from './transcript-calls.js';

const NAME = 'correct-arguments';

export const correctArguments: Grader = {
  name: NAME,
  description:
    'Right tools with the right arguments across all turns (any call shape): BFCL value rules, order-insensitive for parallel calls, plus JSON Schema validation; flags hallucinated tools and unknown parameters.',
  grade(input: GradeInput): Grade | null {
    if (!expectsCalls(input.case)) return null;
    const expected = input.case.expect.calls ?? [];
    const refs = dedupeConsecutive(allCalls(input.transcript));
    const tools = toolsByName(input.tools);
    const toolOf = (name: string) => tools.get(name);

    // counted only (worded later for the misses explained); a call to another tool is one problem, as matchCall says
    const problems = refs.map((r) =>
      expected.map((e) => (r.tool === e.tool ? matchCall(asCallLike(r), e, toolOf(r.tool), false) : OTHER_TOOL)),
    );
    const fits = problems.map((row) => row.map((p) => p.length === 0));
    const owner =
      input.case.expect.order === 'sequence' ? inOrder(fits, expected.length) : maxMatching(fits, expected.length);
    const matchedRefs = new Set(owner.filter((o): o is number => o !== undefined));

    const failures: string[] = [];
    const unmatched: string[] = [];
    expected.forEach((e, j) => {
      if (owner[j] !== undefined) return;
      unmatched.push(e.tool);
      failures.push(
        explainMiss(e, j, refs, problems, matchedRefs, input.case.expect.order === 'sequence', (r) =>
          matchCall(asCallLike(r), e, toolOf(r.tool)),
        ),
      );
    });
    const hallucinated: string[] = [];
    const extra: string[] = [];
    const schemaErrors: string[] = [];
    refs.forEach((r, i) => {
      const tool = toolOf(r.tool);
      if (!tool && input.tools.length > 0) {
        hallucinated.push(r.tool);
        failures.push(
          `called ${r.tool}, which is not one of the ${input.tools.length} tools offered (hallucinated tool)`,
        );
        return;
      }
      if (tool) {
        const check = checkAgainstSchema(tool.inputSchema, r.call.args);
        if (check.ok === false) {
          schemaErrors.push(...check.errors.map((e) => `${r.tool}: ${e}`));
          failures.push(`${showCall(r.tool, r.call.args)} violates its JSON Schema: ${check.errors.join('; ')}`);
        }
      }
      // an unmatched call to a tool whose expected call is unmatched is already explained by explainMiss
      if (!matchedRefs.has(i) && !unmatched.includes(r.tool)) {
        extra.push(r.tool);
        failures.push(`unexpected extra call ${showCall(r.tool, r.call.args)}`);
      }
    });

    const matched = expected.length - unmatched.length;
    const pass = failures.length === 0;
    const reason = pass
      ? `made the ${expected.length} expected call(s): ${refs
          .filter((_, i) => matchedRefs.has(i))
          .map((r) => showCall(r.tool, r.call.args))
          .join(', ')}`
      : failures.join('; ');
    return {
      grader: NAME,
      pass,
      score: expected.length === 0 ? 0 : matched / expected.length,
      reason,
      data: { matched, expected: expected.length, calls: refs.length, unmatched, hallucinated, extra, schemaErrors },
    };
  },
};

const OTHER_TOOL = [''];

/** The offered tools by name (first wins), built once per tools list: offline grading reuses a case's list. */
const byName = new WeakMap<ToolDef[], { length: number; tools: Map<string, ToolDef> }>();

function toolsByName(list: ToolDef[]): Map<string, ToolDef> {
  const hit = byName.get(list);
  if (hit && hit.length === list.length) return hit.tools;
  const tools = new Map<string, ToolDef>();
  for (const t of list) if (!tools.has(t.name)) tools.set(t.name, t);
  byName.set(list, { length: list.length, tools });
  return tools;
}

function asCallLike(r: CallRef) {
  return { tool: r.tool, args: r.call.args, rawArgs: r.call.rawArgs };
}

/** `order: sequence`: expected calls matched left to right, each by a later model call than the previous. */
function inOrder(fits: boolean[][], right: number): Array<number | undefined> {
  const owner: Array<number | undefined> = new Array(right).fill(undefined);
  let next = 0;
  for (let j = 0; j < right; j++) {
    for (let i = next; i < fits.length; i++) {
      if (fits[i]?.[j]) {
        owner[j] = i;
        next = i + 1;
        break;
      }
    }
  }
  return owner;
}

/** Why expected call `j` has no match: the closest call to the same tool and what is wrong with it. */
function explainMiss(
  e: ExpectedCall,
  j: number,
  refs: CallRef[],
  problems: string[][][],
  matched: Set<number>,
  sequence: boolean,
  explain: (ref: CallRef) => string[],
): string {
  let best: number | undefined;
  refs.forEach((r, i) => {
    if (r.tool !== e.tool || matched.has(i)) return;
    const n = problems[i]?.[j]?.length ?? Number.POSITIVE_INFINITY;
    if (best === undefined || n < (problems[best]?.[j]?.length ?? Number.POSITIVE_INFINITY)) best = i;
  });
  if (best === undefined) {
    const same = refs.some((r) => r.tool === e.tool);
    if (same && sequence) return `${e.tool} was called, but not in the expected order`;
    return same ? `${e.tool} was called fewer times than expected` : `${e.tool} was never called`;
  }
  const ref = refs[best] as CallRef;
  const p = explain(ref);
  if (p.length === 0 && sequence) return `${showCall(ref.tool, ref.call.args)} is out of the expected order`;
  return `called ${ref.tool} with ${p.join(', ')}`;
}
