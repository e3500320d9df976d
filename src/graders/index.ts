import type { Grader } from '../contracts/grade.js';
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
