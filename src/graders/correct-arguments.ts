import type { Grade, GradeInput, Grader } from '../contracts/grade.js';
import type { ExpectedCall } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { maxMatching } from './assignment.js';
import { type CallLike, matchCall } from './match-args.js';
import { checkAgainstSchema } from './schema-check.js';
import { selectionsOf } from './tool-selection.js';
import {
  allCalls,
  type CallRef,
  dedupeConsecutive,
  expectsCalls,
  malformedAttempts,
  showCall,
} from './transcript-calls.js';

const NAME = 'correct-arguments';

export const correctArguments: Grader = {
  name: NAME,
  description:
    'Right tools with the right arguments across all turns (any call shape): BFCL value rules, order-insensitive for parallel calls, plus JSON Schema validation; flags hallucinated tools and unknown parameters.',
  grade(input: GradeInput): Grade | null {
    if (!expectsCalls(input.case)) return null;
    const expected = input.case.expect.calls ?? [];
    const sequence = input.case.expect.order === 'sequence';
    const refs = dedupeConsecutive(allCalls(input.transcript, input.tools));
    const tools = toolsByName(input.tools);
    // Plain loops, no per-call closures: offline grading runs this for every recorded line.
    const calls = refs.map(asCallLike);

    // counted only (worded later for the misses explained); a call to another tool is one problem, as matchCall says
    const problems: string[][][] = [];
    const fits: boolean[][] = [];
    for (const c of calls) {
      const tool = tools.get(c.tool);
      const row: string[][] = [];
      const fitRow: boolean[] = [];
      for (const e of expected) {
        const p = c.tool === e.tool ? matchCall(c, e, tool, false) : OTHER_TOOL;
        row.push(p);
        fitRow.push(p.length === 0);
      }
      problems.push(row);
      fits.push(fitRow);
    }
    const owner = sequence ? inOrder(fits, expected.length) : maxMatching(fits, expected.length);
    const matchedRefs = new Set<number>();
    for (const o of owner) if (o !== undefined) matchedRefs.add(o);

    const failures: string[] = [];
    const unmatched: string[] = [];
    const { selections, standIns } = selectionsOf(expected, owner, refs, tools, input.tools.length, input.shown);
    for (let j = 0; j < expected.length; j++) {
      if (owner[j] !== undefined) continue;
      const e = expected[j] as ExpectedCall;
      unmatched.push(e.tool);
      // a call to another tool stood in for it: that call's own failure says so ("… instead of e.tool")
      const how = selections[j]?.how;
      if (how === 'other-tool' || how === 'distractor') continue;
      failures.push(explainMiss(e, j, refs, calls, problems, matchedRefs, sequence, tools));
    }
    const hallucinated: string[] = [];
    const distractors: string[] = [];
    const extra: string[] = [];
    const schemaErrors: string[] = [];
    const renamed: Renamed[] = [];
    const ambiguous: Array<{ called: string; candidates: string[] }> = [];
    for (let i = 0; i < refs.length; i++) {
      const r = refs[i] as CallRef;
      const how = r.resolution;
      if (how && how.how !== 'ambiguous' && !renamed.some((x) => x.called === how.called && x.tool === how.tool)) {
        renamed.push({
          called: how.called,
          tool: how.tool,
          how: how.how,
          ...(how.server ? { server: how.server } : {}),
        });
      }
      const tool = tools.get(r.tool);
      if (!tool && input.tools.length > 0) {
        hallucinated.push(r.tool);
        if (how?.how === 'ambiguous') {
          if (!ambiguous.some((x) => x.called === how.called)) {
            ambiguous.push({ called: how.called, candidates: how.candidates });
          }
          failures.push(
            `called ${r.tool}, the provider-safe form of ${how.candidates.length} offered tools (${how.candidates.join(', ')}): ambiguous, counted as a hallucinated tool`,
          );
        } else {
          failures.push(
            `called ${r.tool}, which is not one of the ${input.tools.length} tools offered (hallucinated tool)`,
          );
        }
        continue;
      }
      if (tool?.distractor) {
        // a real tool no case expects, added by a catalog variant: the wrong tool, whatever its arguments
        if (!distractors.includes(r.tool)) distractors.push(r.tool);
        const instead = standIns.get(i);
        failures.push(`wrong tool: distractor ${r.tool}${instead ? ` instead of ${instead}` : ''}`);
        continue;
      }
      const insteadOf = standIns.get(i);
      if (tool && insteadOf) {
        // the wrong tool: its arguments are beside the point
        failures.push(`wrong tool: ${showCall(r.tool, r.call.args)} instead of ${insteadOf}`);
        continue;
      }
      if (tool) {
        const check = checkAgainstSchema(tool.inputSchema, r.call.args);
        if (check.ok === false) {
          for (const e of check.errors) schemaErrors.push(`${r.tool}: ${e}`);
          failures.push(`${showCall(r.tool, r.call.args)} violates its JSON Schema: ${check.errors.join('; ')}`);
        }
      }
      // an unmatched call to a tool whose expected call is unmatched is already explained by explainMiss
      if (!matchedRefs.has(i) && !unmatched.includes(r.tool)) {
        extra.push(r.tool);
        failures.push(`unexpected extra call ${showCall(r.tool, r.call.args)}`);
      }
    }

    // nothing parsed, but the reply tried: say why, or "was never called" reads as if the model did not try
    if (refs.length === 0) {
      const attempts = malformedAttempts(input.transcript);
      if (attempts.length > 0) {
        const more = attempts.length > 1 ? ` (and ${attempts.length - 1} more)` : '';
        failures.push(`the reply's call attempt does not parse: ${attempts[0]?.message}${more}`);
      }
    }
    const matched = expected.length - unmatched.length;
    const pass = failures.length === 0;
    let reason: string;
    if (pass) {
      const shown: string[] = [];
      for (let i = 0; i < refs.length; i++) {
        const r = refs[i] as CallRef;
        if (matchedRefs.has(i)) shown.push(showCall(r.tool, r.call.args));
      }
      reason = `made the ${expected.length} expected call(s): ${shown.join(', ')}`;
    } else reason = collapseRepeats(failures).join('; ');
    // a renamed call is not a problem, but the reason says which name stood for which tool
    if (renamed.length > 0) reason += `; ${renamed.map(describeRename).join('; ')}`;
    return {
      grader: NAME,
      pass,
      score: expected.length === 0 ? 0 : matched / expected.length,
      reason,
      data: {
        matched,
        expected: expected.length,
        calls: refs.length,
        unmatched,
        hallucinated,
        extra,
        schemaErrors,
        // only when there are any: records graded before name resolution keep their exact data
        ...(renamed.length > 0 ? { renamed } : {}),
        ...(ambiguous.length > 0 ? { ambiguous } : {}),
        ...(distractors.length > 0 ? { distractors } : {}),
        // which tool was taken for which expected one: what the confusion tables count
        selections,
      },
    };
  },
};

/** A call whose name is not its tool's own: the name as called and the offered tool it resolved to. */
interface Renamed {
  called: string;
  tool: string;
  how: 'qualified' | 'provider-safe';
  server?: string;
}

function describeRename(r: Renamed): string {
  if (r.how === 'provider-safe') return `called as ${r.called}, the provider-safe form of ${r.tool}`;
  return `called as ${r.called}, ${r.tool} qualified by its server ${r.server}`;
}

const OTHER_TOOL = [''];

/** Identical problems once each, in first-seen order, with a count when repeated (`… (×2)`). */
function collapseRepeats(items: string[]): string[] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  const out: string[] = [];
  for (const [item, n] of counts) out.push(n > 1 ? `${item} (×${n})` : item);
  return out;
}

/** The offered tools by name (first wins). */
function toolsByName(list: ToolDef[]): Map<string, ToolDef> {
  const tools = new Map<string, ToolDef>();
  for (const t of list) if (!tools.has(t.name)) tools.set(t.name, t);
  return tools;
}

function asCallLike(r: CallRef): CallLike {
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
  calls: CallLike[],
  problems: string[][][],
  matched: Set<number>,
  sequence: boolean,
  tools: Map<string, ToolDef>,
): string {
  let best: number | undefined;
  for (let i = 0; i < refs.length; i++) {
    if ((refs[i] as CallRef).tool !== e.tool || matched.has(i)) continue;
    const n = problems[i]?.[j]?.length ?? Number.POSITIVE_INFINITY;
    if (best === undefined || n < (problems[best]?.[j]?.length ?? Number.POSITIVE_INFINITY)) best = i;
  }
  if (best === undefined) {
    // every call to this tool matched another expected call: one is missing (in a sequence, a call out of order is
    // an unmatched one, explained below)
    const same = refs.some((r) => r.tool === e.tool);
    return same ? `${e.tool} was called fewer times than expected` : `${e.tool} was never called`;
  }
  const ref = refs[best] as CallRef;
  const p = matchCall(calls[best] as CallLike, e, tools.get(ref.tool));
  if (p.length === 0 && sequence) return `${showCall(ref.tool, ref.call.args)} is out of the expected order`;
  return `called ${ref.tool} with ${p.join(', ')}`;
}
