import { guessName, wrongNames } from './name-guesses.js';
import { optionalParams, type PlannedCall, planTurn } from './oracle-plan.js';
import { caseRandom, speak, turnRandom } from './persona-kit.js';
import { type RequestView, viewOf } from './request-view.js';
import type { Persona, PersonaRequest, SimCall } from './types.js';

const NAME = 'guesser';
/** Error rate per call when the parameter names are shown: even a good model slips now and then. */
export const SHOWN_ERROR_RATE = 0.05;

function guessArgs(view: RequestView, call: PlannedCall): Record<string, unknown> {
  const optional = optionalParams(call.expected);
  const args: Record<string, unknown> = {};
  for (const [param, value] of Object.entries(call.args)) {
    if (view.paramRevealed(call.tool, param)) {
      args[param] = value;
      continue;
    }
    // Not shown: optional parameters are left out; required ones get a guessed name, stable within the case.
    if (optional.has(param)) continue;
    args[guessName(param, caseRandom(view.request, NAME, `name:${call.tool}:${param}`))] = value;
  }
  return args;
}

function slip(args: Record<string, unknown>, random: () => number): Record<string, unknown> {
  const keys = Object.keys(args);
  const victim = keys[Math.floor(random() * keys.length)];
  if (victim === undefined) return args;
  const out = { ...args };
  const value = out[victim];
  delete out[victim];
  const renamed = wrongNames(victim)[0];
  if (random() < 0.5 && renamed) out[renamed] = value;
  return out;
}

function guessCall(view: RequestView, call: PlannedCall, index: number): SimCall {
  const args = guessArgs(view, call);
  const random = turnRandom(view.request, NAME, `slip:${index}`);
  return { tool: call.tool, name: call.name, args: random() < SHOWN_ERROR_RATE ? slip(args, random) : args };
}

/** Sees tool names but maybe not parameter names: guesses the names it was not shown; unlisted tool → prose. */
export const guesser: Persona = {
  name: NAME,
  description:
    'Guesses parameter names the prompt did not show (names-only prompts); answers in prose for unlisted tools',
  reply(request: PersonaRequest) {
    const view = viewOf(request);
    const plan = planTurn(view);
    if (plan.kind !== 'calls') return speak(view, plan);
    return speak(view, plan, { calls: plan.calls.map((c, i) => guessCall(view, c, i)) });
  },
};
