// A grader plugin: passes when the case finished within `MAX_TURNS` model turns. Graders are pure functions of the
// transcript and the case; return null for a case the grader does not apply to.
import type { Grader } from 'toolgauge';

const MAX_TURNS = 3;

export const grader: Grader = {
  name: 'few-turns',
  description: `The model answered within ${MAX_TURNS} turns`,
  grade({ transcript }) {
    const turns = transcript.turns.length;
    const pass = turns <= MAX_TURNS && transcript.stopReason === 'answered';
    return {
      grader: 'few-turns',
      pass,
      score: pass ? 1 : 0,
      reason: `${turns} turn(s), stopped: ${transcript.stopReason}`,
      data: { turns },
    };
  },
};
