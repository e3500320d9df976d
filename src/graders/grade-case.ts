import type { Grade, GradeInput, Grader } from '../contracts/grade.js';
import type { Transcript, Turn } from '../contracts/transcript.js';
import { caseOfTurn, userMessagesOf } from '../util/user-turns.js';

/**
 * Every grade of one case. A one-message case is graded as it always was: each grader once, on the whole transcript.
 * In a scripted conversation, a grader of scope `turn` grades each user message on its own (the message's
 * expectation, the model turns that answered it) and the case gets one grade per grader that combines them (see
 * combineTurns); a grader of scope `conversation` grades the whole case once. Pure.
 */
export function gradeCase(graders: readonly Grader[], input: GradeInput): Grade[] {
  const out: Grade[] = [];
  if (!input.case.turns) {
    for (const g of graders) {
      const grade = g.grade(input);
      if (grade !== null) out.push(grade);
    }
    return out;
  }
  const turns = turnInputs(input);
  for (const g of graders) {
    const grade = g.scope === 'conversation' ? g.grade(input) : combineTurns(g, turns, input.transcript);
    if (grade !== null) out.push(grade);
  }
  return out;
}

/** One user message as a turn-scoped grader sees it; `reached` false when the conversation stopped before it. */
interface TurnInput {
  input: GradeInput;
  reached: boolean;
}

/** The grading input of each user message: its case view and its slice of the transcript. */
function turnInputs(input: GradeInput): TurnInput[] {
  const { transcript } = input;
  const messages = userMessagesOf(input.case);
  const byTurn: Turn[][] = messages.map(() => []);
  for (const t of transcript.turns) byTurn[t.userTurn ?? 0]?.push(t);
  // the last message the conversation reached is the one its last model turn answered
  const last = transcript.turns.at(-1)?.userTurn ?? 0;
  return messages.map((_, u) => {
    const turns = byTurn[u] ?? [];
    const ended = u < last;
    const part: Transcript = {
      turns,
      finalText: turns.at(-1)?.response.text ?? '',
      // a message before the last was answered (the next one was only sent after an answer)
      stopReason: ended ? 'answered' : transcript.stopReason,
    };
    return {
      input: { ...input, case: caseOfTurn(input.case, u), transcript: part },
      reached: turns.length > 0,
    };
  });
}

/**
 * One grader's grade of a conversation from its grades per user message: it passes when every message it applies to
 * passes; its score is their mean; its reason names each message's outcome (`turn 2: …`), `data.failedTurn` the
 * first message that failed (1-based), and `data.turns` each message's pass, score and data. A message the conversation never reached fails every grader that would have
 * judged it. Null when the grader applies to no message.
 */
function combineTurns(grader: Grader, turns: readonly TurnInput[], whole: Transcript): Grade | null {
  const per: { turn: number; grade: Grade }[] = [];
  const reachedLast = whole.turns.at(-1)?.userTurn ?? 0;
  for (const [u, t] of turns.entries()) {
    const grade = grader.grade(t.input);
    if (grade === null) continue;
    if (t.reached) per.push({ turn: u + 1, grade });
    else
      per.push({
        turn: u + 1,
        grade: {
          grader: grade.grader,
          pass: false,
          score: 0,
          reason: `never reached: the conversation stopped at turn ${reachedLast + 1} (${whole.stopReason})`,
        },
      });
  }
  const first = per[0];
  if (!first) return null;
  const failed = per.filter((p) => !p.grade.pass);
  const shown = failed.length > 0 ? failed : per;
  return {
    grader: first.grade.grader,
    pass: failed.length === 0,
    score: per.reduce((sum, p) => sum + p.grade.score, 0) / per.length,
    reason: shown.map((p) => `turn ${p.turn}: ${p.grade.reason}`).join('; '),
    data: {
      ...(failed[0] ? { failedTurn: failed[0].turn } : {}),
      // each message's own data kept (correct-arguments' selections feed the why-it-fails tally)
      turns: per.map((p) => ({
        turn: p.turn,
        pass: p.grade.pass,
        score: p.grade.score,
        ...(p.grade.data ? { data: p.grade.data } : {}),
      })),
    },
  };
}
