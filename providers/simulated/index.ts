import type { ModelRequest, Oracle, Provider, ProviderFactory } from '../../src/contracts/index.js';
import { ToolgaugeError } from '../../src/errors.js';
import { detour } from './detour.js';
import { fenceWrapper } from './fence-wrapper.js';
import { guesser } from './guesser.js';
import { noisy } from './noisy.js';
import { oracle } from './oracle.js';
import { toResponse } from './reply-writer.js';
import { selector } from './selector.js';
import { stopper } from './stopper.js';
import type { Persona } from './types.js';

export type { Persona, SimCall, SimReply } from './types.js';

/** The simulated personas, by the name used after `sim:`. */
export const personas = {
  oracle,
  guesser,
  'fence-wrapper': fenceWrapper,
  stopper,
  noisy,
  selector,
  detour,
} satisfies Record<string, Persona>;

export type PersonaName = keyof typeof personas;

function isPersonaName(name: string): name is PersonaName {
  return Object.hasOwn(personas, name);
}

/** The persona a name designates, written with or without its `sim:` prefix (`guesser` or `sim:guesser`). */
function personaNameOf(name: string): string {
  return name.startsWith('sim:') ? name.slice('sim:'.length) : name;
}

/**
 * `sim:<persona>`: deterministic offline providers. Option `honorStop: true` cuts replies at the request's
 * stop sequences the way real APIs do (off by default, so simulated replies keep their closing tags).
 * Option `latencyMs: N` waits N ms per reply (abortable), to rehearse concurrency, progress and Ctrl-C.
 */
export const simFactory: ProviderFactory = {
  prefix: 'sim',
  description: `Simulated personas, no keys and no network: ${Object.keys(personas).join(', ')}`,
  create(spec, options) {
    // `serve llm --persona` hands the name as the user typed it, prefixed or not.
    const model = personaNameOf(spec);
    if (!isPersonaName(model)) {
      throw new ToolgaugeError(
        'UNKNOWN_PROVIDER',
        `unknown simulated persona "sim:${model}"; valid: ${Object.keys(personas)
          .map((p) => `sim:${p}`)
          .join(', ')}`,
        { persona: model, valid: Object.keys(personas) },
      );
    }
    const persona = personas[model];
    const honorStop = options.honorStop === true;
    const latencyMs = typeof options.latencyMs === 'number' && options.latencyMs > 0 ? options.latencyMs : 0;
    const provider: Provider = {
      id: `sim:${model}`,
      kind: 'sim',
      simulated: true,
      async generate(request: ModelRequest, signal?: AbortSignal, oracle?: Oracle) {
        if (signal?.aborted) throw new ToolgaugeError('ABORTED', `sim:${model} request aborted`);
        if (latencyMs) await sleep(latencyMs, signal);
        return toResponse(request, persona.reply(oracle ? { ...request, oracle } : request), { honorStop });
      },
    };
    return provider;
  },
};

/** Waits `ms`, or rejects at once when the case is aborted; the listener goes with the timer (turns share a signal). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ToolgaugeError('ABORTED', 'simulated request aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
