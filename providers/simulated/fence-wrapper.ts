import { leadIn } from './answer-writer.js';
import { planTurn } from './oracle-plan.js';
import { pick, speak, turnRandom } from './persona-kit.js';
import { fenceKindsFor } from './reply-writer.js';
import { viewOf } from './request-view.js';
import type { Persona, PersonaRequest } from './types.js';

const NAME = 'fence-wrapper';
/** How often the persona fences a text-protocol call, when fences are allowed / forbidden by the prompt. */
export const FENCE_RATE = { allowed: 0.8, forbidden: 0.25 } as const;

/** Case study 001: right calls, wrapped in markdown fences (less often when the prompt forbids them). */
export const fenceWrapper: Persona = {
  name: NAME,
  description: 'Right calls, but wraps text-protocol calls in ```tool_call / ```json / ```xml fences',
  reply(request: PersonaRequest) {
    const view = viewOf(request);
    const plan = planTurn(view);
    const kinds = fenceKindsFor(view.protocol);
    if (plan.kind !== 'calls' || kinds.length === 0) return speak(view, plan);
    const random = turnRandom(request, NAME, 'fence');
    const rate = view.forbidsFences ? FENCE_RATE.forbidden : FENCE_RATE.allowed;
    if (random() >= rate) return speak(view, plan);
    const fence = pick(kinds, random);
    return speak(view, plan, { write: { fence, preamble: leadIn(view, plan.calls[0]?.name ?? '') } });
  },
};
