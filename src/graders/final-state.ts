import type { Grade, GradeInput, Grader } from '../contracts/grade.js';
import type { ObservedState } from '../contracts/state.js';
import type { StateFact } from '../contracts/suite.js';
import { canonicalJson } from '../util/canonical-json.js';
import { samePath, showPath, valueAt } from '../util/state-path.js';
import { mismatch, shortValue } from './state-match.js';

const NAME = 'final-state';

/** Whether one fact held, and how it reads in a reason. */
interface FactOutcome {
  held: boolean;
  text: string;
}

export const finalState: Grader = {
  name: NAME,
  description:
    "The state the tools left behind: each expect.state fact (a server's state view, or a probe's result) holds after the conversation, whatever calls got there. Exact, subset or within a numeric tolerance.",
  scope: 'conversation',
  grade(input: GradeInput): Grade | null {
    const facts = input.case.expect.state;
    // not observed (recorded replies graded offline, a record made before state was read): nothing to judge
    if (!facts?.length || !input.transcript.state) return null;
    const outcomes = facts.map((f) => judgeFact(f, input.transcript.state as ObservedState));
    const failed = outcomes.filter((o) => !o.held);
    const held = outcomes.length - failed.length;
    return {
      grader: NAME,
      pass: failed.length === 0,
      score: held / outcomes.length,
      reason:
        failed.length === 0
          ? `all ${outcomes.length} expected fact(s) held: ${outcomes.map((o) => o.text).join('; ')}`
          : `${held} of ${outcomes.length} expected fact(s) held; not held: ${failed.map((o) => o.text).join('; ')}`,
      data: { held, facts: outcomes.length, notHeld: failed.map((o) => o.text) },
    };
  },
};

/** One fact against what was observed. */
function judgeFact(fact: StateFact, state: ObservedState): FactOutcome {
  const path = fact.path ?? [];
  let where: string;
  let read: { found: boolean; value?: unknown };
  if (fact.probe) {
    const { probe } = fact;
    const args = canonicalJson(probe.args ?? {});
    const reading = state.probes.find(
      (p) =>
        p.tool === probe.tool &&
        (probe.server === undefined || p.server === probe.server) &&
        canonicalJson(p.args) === args,
    );
    where = `${probe.tool}(${shortValue(probe.args ?? {})})${path.length > 0 ? ` → ${showPath(path)}` : ''}`;
    if (!reading) return { held: false, text: `${where}: not probed in this run` };
    if (reading.isError) return { held: false, text: `${where}: the probe failed: ${shortValue(reading.result)}` };
    read = valueAt(resultValue(reading.result), path);
  } else {
    const reading = state.views.find(
      (v) => (fact.server === undefined || v.server === fact.server) && samePath(v.path, path),
    );
    where = `${fact.server ?? reading?.server ?? ''} ${showPath(path)}`.trim();
    if (!reading) return { held: false, text: `${where}: not observed in this run` };
    if (reading.error) return { held: false, text: `${where}: ${reading.error}` };
    read = reading.found ? { found: true, value: reading.value } : { found: false };
  }
  if (fact.absent) {
    return read.found
      ? { held: false, text: `${where} is ${shortValue(read.value)}, expected nothing there` }
      : { held: true, text: `${where} is absent` };
  }
  const mode = Object.hasOwn(fact, 'subset') ? 'subset' : 'equals';
  const expected = mode === 'subset' ? fact.subset : fact.equals;
  if (!read.found) return { held: false, text: `${where} is missing, expected ${shortValue(expected)}` };
  const diff = mismatch(expected, read.value, mode, fact.tolerance ?? 0);
  if (diff) return { held: false, text: `${where}: ${diff}` };
  return { held: true, text: `${where} ${mode === 'subset' ? 'includes' : '='} ${shortValue(expected)}` };
}

/** A probe's result as a value: its JSON when it is JSON, else its text. */
function resultValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
