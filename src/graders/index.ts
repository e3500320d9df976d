import type { Grader } from '../contracts/grade.js';
import { ToolgaugeError } from '../errors.js';
import { continuedAfterResults } from './continued-after-results.js';
import { correctArguments } from './correct-arguments.js';
import { finalState } from './final-state.js';
import { markdownWrapped } from './markdown-wrapped.js';
import { noCall } from './no-call.js';
import { parseable } from './parseable.js';
import { toolSearchGrader } from './tool-search.js';

export const graders = {
  parseable,
  'correct-arguments': correctArguments,
  'markdown-wrapped': markdownWrapped,
  'continued-after-results': continuedAfterResults,
  'no-call': noCall,
  'tool-search': toolSearchGrader,
  'final-state': finalState,
} satisfies Record<string, Grader>;

export type GraderName = keyof typeof graders;

export function getGrader(name: string): Grader {
  const grader = Object.hasOwn(graders, name) ? (graders as Record<string, Grader>)[name] : undefined;
  if (!grader) {
    throw new ToolgaugeError(
      'UNKNOWN_GRADER',
      `unknown grader '${name}'; valid graders: ${Object.keys(graders).join(', ')}`,
      {
        name,
        valid: Object.keys(graders),
      },
    );
  }
  return grader;
}
