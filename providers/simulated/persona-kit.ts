import { seededRandom } from '../../src/util/rng.js';
import { finalAnswer, proseAnswer } from './answer-writer.js';
import type { TurnPlan } from './oracle-plan.js';
import { nativeCallsSoFar, type WriteOptions, writeCalls } from './reply-writer.js';
import type { RequestView } from './request-view.js';
import type { PersonaRequest, SimCall, SimReply } from './types.js';

/** A PRNG for one decision of one persona on one turn: deterministic for (seed, case, repeat, turn). */
export function turnRandom(request: PersonaRequest, persona: string, purpose: string): () => number {
  const { seed, caseId, repeat, turn } = request.meta;
  return seededRandom('sim', persona, seed, caseId, repeat, turn, purpose);
}

/** A PRNG that does not depend on the turn (a persona's stable habits within one case run). */
export function caseRandom(request: PersonaRequest, persona: string, purpose: string): () => number {
  const { seed, caseId, repeat } = request.meta;
  return seededRandom('sim', persona, seed, caseId, repeat, purpose);
}

export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/**
 * Says what a plan means, the way the oracle does. Personas pass their own calls (guessed arguments)
 * or writing options (fence, malformed, trailer) to vary the delivery, not the decision.
 */
export function speak(
  view: RequestView,
  plan: TurnPlan,
  opts: { calls?: SimCall[]; write?: WriteOptions } = {},
): SimReply {
  const mentions = view.request.oracle?.answerMentions ?? [];
  switch (plan.kind) {
    case 'calls':
      return writeCalls(opts.calls ?? plan.calls, view.protocol, {
        idOffset: nativeCallsSoFar(view.request),
        ...opts.write,
      });
    case 'answer':
      return { text: finalAnswer(view, mentions), toolCalls: [] };
    case 'no-call':
      return { text: proseAnswer(view, 'no-call', mentions), toolCalls: [] };
    case 'not-revealed':
      return { text: proseAnswer(view, 'not-revealed'), toolCalls: [] };
    case 'search':
      return writeCalls([plan.call], view.protocol, { idOffset: nativeCallsSoFar(view.request), ...opts.write });
  }
}
