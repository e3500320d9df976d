import { resolve } from 'node:path';
import { ToolgaugeError } from '../errors.js';
import type { ProviderSlot } from '../plugins/index.js';
import { type CassetteMode, cassetteProvider } from './cassette-provider.js';
import { CassetteStore } from './cassette-store.js';

export const CASSETTE_FILE = 'cassettes.jsonl';

export interface CassetteFlags {
  record?: boolean;
  replay?: boolean;
  replayOrRecord?: boolean;
  cassettes?: string;
}

/** The mode the flags ask for (at most one), or undefined when cassettes are off. */
export function cassetteMode(flags: CassetteFlags): CassetteMode | undefined {
  const given = (
    [
      ['record', flags.record],
      ['replay', flags.replay],
      ['replay-or-record', flags.replayOrRecord],
    ] as const
  ).filter(([, on]) => on);
  if (given.length > 1) {
    throw new ToolgaugeError(
      'USAGE',
      `--${given.map(([m]) => m).join(' and --')}: pick one cassette mode (--record, --replay or --replay-or-record)`,
    );
  }
  if (flags.cassettes && given.length === 0) {
    throw new ToolgaugeError(
      'USAGE',
      `--cassettes ${flags.cassettes}: also pass --record, --replay or --replay-or-record to say how to use it`,
    );
  }
  return given[0]?.[0];
}

/** Opens the cassette file (the run dir's cassettes.jsonl unless --cassettes names one) and wraps every provider. */
export function withCassettes(
  providers: ProviderSlot[],
  mode: CassetteMode,
  file: string,
): { providers: ProviderSlot[]; store: CassetteStore } {
  const store = CassetteStore.load(resolve(file), mode === 'replay');
  return {
    store,
    providers: providers.map((slot) => ({
      ...slot,
      provider: cassetteProvider(
        slot.provider,
        { id: slot.id, simulated: slot.provider.simulated, options: slot.options },
        store,
        mode,
      ),
    })),
  };
}
