import type { ProviderEntry } from '../config/config-schema.js';
import { caseRecords } from '../run-log/reader.js';
import type { RunHeader } from '../run-log/schema.js';
import { cassetteKey, cassetteRequest, cassetteSlot, type KeyedProvider } from './cassette-key.js';
import type { CassetteStore } from './cassette-store.js';

/** The providers of a run by report label, with what their cassette keys need (id, options, simulated). */
export function keyedProviders(header: RunHeader): Map<string, KeyedProvider> {
  const out = new Map<string, KeyedProvider>();
  const simulated = new Map(header.providers.map((p) => [p.label, p.simulated]));
  for (const entry of (header.config.providers ?? []) as ProviderEntry[]) {
    const { id, options = {}, label } = typeof entry === 'string' ? { id: entry } : entry;
    out.set(label ?? id, { id, options, simulated: simulated.get(label ?? id) ?? id.startsWith('sim:') });
  }
  return out;
}

/**
 * Every exchange a run log already holds (each turn's request and response), appended to a cassette store: a run
 * made without --record can still be replayed offline. Returns how many entries were added.
 */
export async function cassettesFromRunLog(runLog: string, header: RunHeader, store: CassetteStore): Promise<number> {
  const providers = keyedProviders(header);
  let n = 0;
  for await (const record of caseRecords(runLog)) {
    const provider = providers.get(record.provider);
    if (!provider) continue;
    for (const turn of record.transcript.turns) {
      const request = cassetteRequest(provider, turn.request);
      store.append({
        key: cassetteKey(request),
        provider: provider.id,
        slot: cassetteSlot(turn.request),
        request,
        response: turn.response,
      });
      n++;
    }
  }
  return n;
}
