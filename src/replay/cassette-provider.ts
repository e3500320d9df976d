import type { ModelResponse } from '../contracts/model.js';
import type { Provider } from '../contracts/provider.js';
import { ToolgaugeError } from '../errors.js';
import { redactSecrets } from '../util/redact.js';
import { cassetteKey, cassetteRequest, cassetteSlot, type KeyedProvider } from './cassette-key.js';
import type { CassetteStore } from './cassette-store.js';
import { describeDifferences, diffJson } from './request-diff.js';

/** `record`: call the provider, append every exchange; `replay`: only the cassette (never the provider); both: hit or record. */
export type CassetteMode = 'record' | 'replay' | 'replay-or-record';

/**
 * Wraps a provider so every exchange goes through the cassette store. In `replay` mode the inner provider is never
 * called, so no network connection is made; a miss is a REPLAY_MISS error naming the case and what differs.
 */
export function cassetteProvider(
  inner: Provider,
  keyed: KeyedProvider,
  store: CassetteStore,
  mode: CassetteMode,
): Provider {
  return {
    id: inner.id,
    kind: inner.kind,
    simulated: inner.simulated,
    async generate(request, signal, oracle) {
      const canonical = cassetteRequest(keyed, request);
      const key = cassetteKey(canonical);
      const slot = cassetteSlot(request);
      if (mode !== 'record') {
        const hit = store.find(key, slot);
        if (hit) return structuredClone(hit.response);
        if (mode === 'replay') throw replayMiss(store, keyed.id, canonical, slot, key);
      }
      const response: ModelResponse = redactSecrets(await inner.generate(request, signal, oracle));
      store.append({ key, provider: keyed.id, slot, request: canonical, response });
      return response;
    },
    ...(inner.close ? { close: () => inner.close!() } : {}),
  };
}

function replayMiss(
  store: CassetteStore,
  provider: string,
  request: ReturnType<typeof cassetteRequest>,
  slot: ReturnType<typeof cassetteSlot>,
  key: string,
): ToolgaugeError {
  const where = `${slot.caseId} turn ${slot.turn + 1} (renderer ${slot.renderer}, provider ${provider}, repeat ${slot.repeat})`;
  const near = store.nearest(provider, slot);
  const why = near
    ? `nearest recorded request (${near.slot.caseId} turn ${near.slot.turn + 1}) differs in ${describeDifferences(diffJson(near.request, request))}`
    : `${store.file} has no exchange for provider ${provider} (${store.size} entries in all)`;
  return new ToolgaugeError(
    'REPLAY_MISS',
    `replay miss for ${where}: no cassette entry with key ${key.slice(0, 12)}; ${why}. Re-record with --record or --replay-or-record`,
    { key, caseId: slot.caseId, provider },
  );
}
