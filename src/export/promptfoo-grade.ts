import type { Grade } from '../contracts/grade.js';
import { gradeCase } from '../graders/grade-case.js';
import { resolveGrader } from '../plugins/index.js';
import type { PromptfooGradeContext } from './promptfoo-case.js';

/** promptfoo's GradingResult. */
export interface PromptfooGradingResult {
  pass: boolean;
  score: number;
  reason: string;
  namedScores?: Record<string, number>;
}

/**
 * Runs one toolgauge grader on the transcript the toolgauge promptfoo provider left in `metadata.toolgauge`.
 * A grader that does not apply to the case passes with a reason saying so (toolgauge does not count it at all).
 * The grader is found as a config's are (the one grader registry): a built-in name, or a path to a module exporting
 * `grader`, relative to the working folder.
 */
export async function gradeForPromptfoo(graderName: string, metadata: unknown): Promise<PromptfooGradingResult> {
  const grader = await resolveGrader(graderName, process.cwd(), () => `promptfoo assertion '${graderName}'`);
  const ctx = (metadata as { toolgauge?: PromptfooGradeContext } | undefined)?.toolgauge;
  if (!ctx?.transcript) {
    return {
      pass: false,
      score: 0,
      reason: `${graderName}: no toolgauge transcript in the provider response; use the toolgauge promptfoo provider (integrations/promptfoo/toolgauge-provider.mjs)`,
    };
  }
  if (ctx.error)
    return { pass: false, score: 0, reason: `${graderName}: case errored (${ctx.error.code}: ${ctx.error.message})` };
  const grade: Grade | null =
    gradeCase([grader], { case: ctx.case, transcript: ctx.transcript, protocol: ctx.protocol, tools: ctx.tools })[0] ??
    null;
  if (!grade) return { pass: true, score: 1, reason: `${graderName}: does not apply to this case` };
  return {
    pass: grade.pass,
    score: grade.score,
    reason: `${graderName}: ${grade.reason}`,
    namedScores: { [graderName]: grade.score },
  };
}
