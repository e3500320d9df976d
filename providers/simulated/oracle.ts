import { planTurn } from './oracle-plan.js';
import { speak } from './persona-kit.js';
import { viewOf } from './request-view.js';
import type { Persona, PersonaRequest } from './types.js';

/** Does everything right with what the request reveals: exact calls, in order, then an answer citing the results. */
export const oracle: Persona = {
  name: 'oracle',
  description: 'Calls exactly the expected tools with the expected arguments, then answers from the results',
  reply(request: PersonaRequest) {
    const view = viewOf(request);
    return speak(view, planTurn(view));
  },
};
