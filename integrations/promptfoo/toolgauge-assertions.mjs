// promptfoo assertions, one per toolgauge grader:
//   assert: [{ type: javascript, value: file://…/toolgauge-assertions.mjs:parseable }]
// Functions: parseable, correctArguments, markdownWrapped, continuedAfterResults, noCall (and grade(name) for any).
// Each runs the toolgauge grader on the transcript the toolgauge provider put in `metadata.toolgauge`.
import { loadToolgauge } from './load-toolgauge.mjs';

const tg = await loadToolgauge();

const metadataOf = (context) => context?.providerResponse?.metadata ?? context?.metadata;

export function grade(graderName) {
  return (_output, context) => tg.gradeForPromptfoo(graderName, metadataOf(context));
}

export const parseable = grade('parseable');
export const correctArguments = grade('correct-arguments');
export const markdownWrapped = grade('markdown-wrapped');
export const continuedAfterResults = grade('continued-after-results');
export const noCall = grade('no-call');
