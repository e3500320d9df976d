import { danglingWait, proseAnswer } from './answer-writer.js';
import { type PlannedCall, planTurn } from './oracle-plan.js';
import { pick, speak, turnRandom } from './persona-kit.js';
import { fenceKindsFor } from './reply-writer.js';
import { viewOf } from './request-view.js';
import type { Persona, PersonaRequest, SimReply } from './types.js';

const NAME = 'noisy';
/** Chance that a turn carries one fault. */
export const FAULT_RATE = 0.12;

export type NoisyFault =
  | 'wrong-value'
  | 'missing-argument'
  | 'fenced'
  | 'malformed-json'
  | 'prose-instead'
  | 'stop-without-answer';

/** A plausible wrong value of the same type: next number, flipped boolean, edited string, shorter list. */
export function perturb(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') {
    const digits = /(\d+)(?!.*\d)/.exec(value);
    if (digits) return value.replace(/(\d+)(?!.*\d)/, String(Number(digits[1]) + 1));
    return value ? `${value}_old` : 'x';
  }
  if (Array.isArray(value)) return value.slice(0, -1);
  if (value && typeof value === 'object') return {};
  return 'null';
}

function withOneArg(
  calls: PlannedCall[],
  random: () => number,
  edit: (args: Record<string, unknown>, key: string) => void,
) {
  const index = Math.floor(random() * calls.length);
  return calls.map((c, i) => {
    const keys = Object.keys(c.args);
    const key = keys[Math.floor(random() * keys.length)];
    if (i !== index || key === undefined) return c;
    const args = { ...c.args };
    edit(args, key);
    return { ...c, args };
  });
}

/** Mostly right; each turn has a small seeded chance of one fault from every documented failure. */
export const noisy: Persona = {
  name: NAME,
  description: 'Mostly right, with a small seeded mix of all faults (wrong value, missing argument, fence, stop…)',
  reply(request: PersonaRequest): SimReply {
    const view = viewOf(request);
    const plan = planTurn(view);
    const random = turnRandom(request, NAME, 'fault');
    if (random() >= FAULT_RATE) return speak(view, plan);
    if (plan.kind === 'answer') return { text: danglingWait(view), toolCalls: [] };
    if (plan.kind !== 'calls') return speak(view, plan);
    const faults: NoisyFault[] = ['wrong-value', 'missing-argument', 'malformed-json', 'prose-instead'];
    if (fenceKindsFor(view.protocol).length > 0) faults.push('fenced');
    const fault = pick(faults, random);
    switch (fault) {
      case 'wrong-value':
        return speak(view, plan, { calls: withOneArg(plan.calls, random, (a, k) => (a[k] = perturb(a[k]))) });
      case 'missing-argument':
        return speak(view, plan, { calls: withOneArg(plan.calls, random, (a, k) => delete a[k]) });
      case 'malformed-json':
        return speak(view, plan, { write: { malformed: true } });
      case 'fenced':
        return speak(view, plan, { write: { fence: pick(fenceKindsFor(view.protocol), random) } });
      case 'prose-instead':
        return { text: proseAnswer(view, 'not-revealed'), toolCalls: [] };
      case 'stop-without-answer':
        return { text: danglingWait(view), toolCalls: [] };
    }
  },
};
