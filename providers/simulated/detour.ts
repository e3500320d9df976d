import { planTurn } from './oracle-plan.js';
import { speak } from './persona-kit.js';
import { viewOf } from './request-view.js';
import type { Persona, PersonaRequest } from './types.js';

/**
 * Reaches the same result as the oracle by another valid path: where the case names other valid paths
 * (`expect.alternatives`), it takes the first (one batch call for several single ones, a read before the write, …);
 * elsewhere it does what the oracle does. Its calls fail a call-list grader that holds the model to `calls`, while
 * the state it leaves passes `final-state`: the difference between the two graders, shown offline.
 */
export const detour: Persona = {
  name: 'detour',
  description:
    "Takes the case's first alternative valid path (expect.alternatives) where it has one, else the oracle's",
  reply(request: PersonaRequest) {
    const alternative = request.oracle?.alternatives?.[0];
    const taken: PersonaRequest =
      alternative && request.oracle ? { ...request, oracle: { ...request.oracle, calls: alternative } } : request;
    const view = viewOf(taken);
    return speak(view, planTurn(view));
  },
};
