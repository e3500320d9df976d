import type { LoadedConfig } from '../config/load-config.js';
import type { Grader } from '../contracts/grade.js';
import type { CaseSettings } from './run-case.js';

/** What every case of the run needs from the config: seed, limits, graders, and where the schema cache is. */
export function caseSettingsOf(loaded: LoadedConfig, graders: Grader[]): CaseSettings {
  const { config } = loaded;
  return {
    seed: config.seed,
    maxTurns: config.maxTurns,
    turnMs: config.timeouts.turnMs,
    caseMs: config.timeouts.caseMs,
    toolMs: config.timeouts.toolMs,
    serverStartMs: config.timeouts.serverStartMs,
    graders,
    schemaDir: loaded.dir,
  };
}
