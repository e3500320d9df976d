import { danglingWait } from './answer-writer.js';
import { planTurn } from './oracle-plan.js';
import { speak } from './persona-kit.js';
import { viewOf } from './request-view.js';
import type { Persona, PersonaRequest } from './types.js';

/**
 * Case study 002: calls correctly, believes the result will show up by itself, and never continues:
 * once results are fed back it replies with the dangling "waiting" line and no answer (and no further call).
 */
export const stopper: Persona = {
  name: 'stopper',
  description: 'Calls correctly, then stops with "(等待工具返回结果...)" instead of answering from the results',
  reply(request: PersonaRequest) {
    const view = viewOf(request);
    if (view.afterResults) {
      const done = view.latest.map((r) => r.name).join(', ');
      const lead = view.chinese ? `我已经调用了 ${done} 工具。` : `I have called ${done}.`;
      return { text: `${lead}\n\n${danglingWait(view)}`, toolCalls: [] };
    }
    const plan = planTurn(view);
    if (plan.kind !== 'calls') return speak(view, plan);
    return speak(view, plan, { write: { trailer: danglingWait(view) } });
  },
};
