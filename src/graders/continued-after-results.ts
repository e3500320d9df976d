import type { Grade, GradeInput, Grader } from '../contracts/grade.js';
import { stripThink } from '../parse/index.js';
import { callKey, showCall } from './transcript-calls.js';

const NAME = 'continued-after-results';

/** Phrases of a reply that stops to wait for a tool instead of answering (case study 002 and the like). */
const DANGLING: RegExp[] = [
  /\bwait(?:ing)? for (?:the )?(?:tool|function|result|response|output|execution)/i,
  /\blet me wait\b/i,
  /\bplease wait\b/i,
  /\b(?:tool|function) (?:call )?(?:is )?(?:running|executing|in progress)\b/i,
  /等待.{0,8}(?:工具|结果|返回|执行)/,
  /稍后(?:将|会)?(?:展示|显示|给出|返回|告诉)/,
  /请稍等|请稍候/,
];
/** "I'll call X now" only dangles at the end of a reply that makes no call. */
const ANNOUNCE =
  /\b(?:I(?:'ll| will| am going to)|let me|now I(?:'ll| will)) (?:now )?(?:call|use|run|invoke|execute|query)\b/i;

export function normaliseText(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

export const continuedAfterResults: Grader = {
  name: NAME,
  description:
    'After tool results were fed back: a final answer followed, with no dangling "waiting for the tool…", no loop on an identical call, and every answer_mentions fact in it.',
  grade(input: GradeInput): Grade | null {
    const { turns } = input.transcript;
    let last = -1;
    turns.forEach((t, i) => {
      if (t.executed.length > 0) last = i;
    });
    if (last < 0) return null;

    const failures: string[] = [];
    const after = turns.slice(last + 1);
    const final = after[after.length - 1];
    const finalText = final ? stripThink(final.response.text).trim() : '';
    const answered = final !== undefined && final.parse.calls.length === 0 && finalText !== '';
    if (!final) failures.push(`no model reply after the last tool result (stop: ${input.transcript.stopReason})`);
    else if (final.parse.calls.length > 0)
      failures.push(`the last reply is another call (${final.parse.calls[0]?.name}), not an answer`);
    else if (finalText === '') failures.push('the reply after the tool result is empty');

    const dangling = answered ? danglingPhrase(finalText) : undefined;
    if (dangling) failures.push(`the answer dangles: "${dangling}" although the result was already fed back`);

    const executed = turns.flatMap((t) => t.executed);
    let loop: string | undefined;
    for (let i = 1; i < executed.length && !loop; i++) {
      const a = executed[i - 1];
      const b = executed[i];
      // Polling (the same call, a changed result: a simulation's status) is progress; a loop learns nothing new.
      if (a && b && callKey(a.tool, a.args) === callKey(b.tool, b.args) && a.result === b.result) {
        loop = showCall(b.tool, b.args);
      }
    }
    if (loop) failures.push(`looped: made the identical call ${loop} twice in a row and got the same result`);

    const mentions = input.case.expect.answer_mentions ?? [];
    const text = normaliseText(finalText);
    const missing = mentions.filter((m) => !text.includes(normaliseText(m)));
    if (missing.length > 0) {
      failures.push(`the answer does not use the result: missing ${missing.map((m) => `'${m}'`).join(', ')}`);
    }

    const checks = [answered && dangling === undefined, loop === undefined];
    if (mentions.length > 0) checks.push(missing.length === 0);
    const pass = failures.length === 0;
    return {
      grader: NAME,
      pass,
      score: checks.filter(Boolean).length / checks.length,
      reason: pass
        ? `answered after ${executed.length} tool result(s)${mentions.length > 0 ? `, using ${mentions.map((m) => `'${m}'`).join(', ')}` : ''}`
        : failures.join('; '),
      data: {
        answered,
        dangling: dangling ?? null,
        loop: loop ?? null,
        missingMentions: missing,
        results: executed.length,
      },
    };
  },
};

function danglingPhrase(text: string): string | undefined {
  for (const re of DANGLING) {
    const m = re.exec(text);
    if (m) return m[0];
  }
  const m = ANNOUNCE.exec(text.slice(-300));
  return m ? m[0] : undefined;
}
