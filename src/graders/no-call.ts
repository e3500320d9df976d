import type { Grade, GradeInput, Grader } from '../contracts/grade.js';
import { allCalls, malformedAttempts } from './transcript-calls.js';

const NAME = 'no-call';

export const noCall: Grader = {
  name: NAME,
  description:
    'For irrelevance cases: passes only when no call was attempted at all; a malformed or fenced call is an attempt (unlike BFCL, which credits decode failures as abstention).',
  grade(input: GradeInput): Grade | null {
    if (!input.case.expect.no_call) return null;
    const calls = allCalls(input.transcript, input.tools);
    // malformed call attempts the parser could not turn into calls still count as attempts
    const malformed = malformedAttempts(input.transcript);
    const inThink = input.transcript.turns.reduce(
      (n, t) => n + t.parse.diagnostics.filter((d) => d.code === 'call-in-think').length,
      0,
    );
    if (calls.length === 0 && malformed.length === 0) {
      const note = inThink > 0 ? ` (${inThink} call(s) only inside reasoning, not counted)` : '';
      return {
        grader: NAME,
        pass: true,
        score: 1,
        reason: `no call attempted${note}`,
        data: { attempts: 0, callsInThink: inThink },
      };
    }
    const parts = [
      ...calls.map((r) => `${r.tool} (${r.call.via}${r.call.fence !== undefined ? ` ${r.call.fence}` : ''})`),
      ...malformed.map((d) => `malformed attempt: ${d.message}`),
    ];
    return {
      grader: NAME,
      pass: false,
      score: 0,
      reason: `expected no tool call, but the model attempted ${parts.length}: ${parts.join('; ')}`,
      data: {
        attempts: parts.length,
        calls: calls.map((r) => r.tool),
        malformed: malformed.length,
        callsInThink: inThink,
      },
    };
  },
};
