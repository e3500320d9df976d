import type { Grade, GradeInput, Grader } from '../contracts/grade.js';
import { allCalls, fenceLabel, isWrapped } from './transcript-calls.js';

const NAME = 'markdown-wrapped';

export const markdownWrapped: Grader = {
  name: NAME,
  description: 'Passes when no call is inside a code fence (```, ```json, ```xml, ```tool_call) or inline backticks.',
  grade(input: GradeInput): Grade | null {
    const refs = allCalls(input.transcript, input.tools);
    if (refs.length === 0) return null;
    const wrapped = refs.filter((r) => isWrapped(r.call));
    if (wrapped.length === 0) {
      return {
        grader: NAME,
        pass: true,
        score: 1,
        reason: `${refs.length} call(s), none inside a code fence`,
        data: { fence: null },
      };
    }
    const first = wrapped[0]?.call;
    const fence = first ? fenceLabel(first) : null;
    const where = first?.via === 'inline-code' ? 'inline code (`…`)' : `a ${fence} code fence`;
    return {
      grader: NAME,
      pass: false,
      score: 1 - wrapped.length / refs.length,
      reason: `${wrapped.length} of ${refs.length} call(s) wrapped in markdown: ${wrapped[0]?.tool} inside ${where}; a <tool_call> detector does not see it`,
      data: {
        fence,
        wrapped: wrapped.length,
        calls: refs.length,
        fences: [...new Set(wrapped.map((r) => fenceLabel(r.call)))],
      },
    };
  },
};
