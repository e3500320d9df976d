import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigSchema } from '../config/config-schema.js';
import type { LoadedConfig } from '../config/load-config.js';
import type { LoadedSuite } from '../config/load-suite.js';
import { suiteHashes } from '../config/suite-hash.js';
import { ToolgaugeError } from '../errors.js';
import type { ProviderSlot, Strategy } from '../plugins/index.js';
import { strategyHeader } from '../plugins/strategy-header.js';
import { readRunLog } from '../run-log/reader.js';
import type { RunHeader } from '../run-log/schema.js';
import { RUN_LOG_FORMAT } from '../run-log/schema.js';
import { type PlanItem, plan, planSize } from '../runner/plan.js';
import { displayPath } from '../util/display-path.js';
import { toolgaugeVersion } from '../util/package-root.js';
import { inShard, type Shard } from '../util/shard.js';
import type { EvaluateOptions } from './evaluate-types.js';
import { gitCommit } from './run-meta.js';

/** Which planned items run (a shard, the keys `replay` re-runs; undefined: all) and how many they are. */
export function planned(
  onlyKeys: ReadonlySet<string> | undefined,
  shard: Shard | undefined,
  suites: LoadedSuite[],
  strategies: Strategy[],
  providers: ProviderSlot[],
  repeats: number,
): { include: ((item: PlanItem) => boolean) | undefined; total: number } {
  if (!shard && !onlyKeys) return { include: undefined, total: planSize(suites, strategies, providers, repeats) };
  const include = (item: PlanItem) =>
    (!shard || inShard(shard, item.suite.suite.name, item.case.id)) && (onlyKeys?.has(item.key) ?? true);
  let total = 0;
  for (const item of plan(suites, strategies, providers, repeats)) if (include(item)) total++;
  return { include, total };
}

/** The run log's header: the effective config, and what reports need to label the strategies and providers. */
export function runHeaderOf(input: {
  runId: string;
  runDir: string;
  loaded: LoadedConfig;
  strategies: Strategy[];
  providers: ProviderSlot[];
  suites: LoadedSuite[];
  /** Every suite of the config, before --filter/--tag narrowed the run. */
  allSuites: LoadedSuite[];
  plannedCases: number;
  resumed: { header: RunHeader } | undefined;
  shard: Shard | undefined;
  caseFilter: RunHeader['caseFilter'];
}): RunHeader {
  const { loaded, resumed, shard } = input;
  return {
    type: 'header',
    format: RUN_LOG_FORMAT,
    runId: input.runId,
    toolgaugeVersion: toolgaugeVersion(),
    startedAt: resumed?.header.startedAt ?? new Date().toISOString(),
    gitCommit: gitCommit(loaded.dir),
    configFile: loaded.file,
    config: loaded.config as unknown as Record<string, unknown>,
    strategies: input.strategies.map(strategyHeader),
    providers: input.providers.map((p) => ({ label: p.label, id: p.id, simulated: p.provider.simulated })),
    suites: input.suites.map((s) => ({ name: s.suite.name, file: displayPath(s.file), cases: s.cases.count })),
    suiteHashes: suiteHashes(input.allSuites),
    plannedCases: input.plannedCases,
    ...(resumed ? { resumedFrom: input.runDir } : {}),
    ...(shard ? { shard } : {}),
    ...(input.caseFilter ? { caseFilter: input.caseFilter } : {}),
  };
}

/** The options that override a bounded number of the config, with the config field that sets its bounds. */
const BOUNDED_FLAGS = [
  ['repeat', 'repeats', '--repeat'],
  ['concurrency', 'concurrency', '--concurrency'],
  ['maxTurns', 'maxTurns', '--max-turns'],
] as const;

/**
 * An override obeys the bounds the config file's field has (one source: the config schema), so the command line
 * cannot run what a config file may not: `--concurrency 0` would start no case, `--max-turns 0` would ask nothing.
 */
export function checkRanges(options: EvaluateOptions): void {
  for (const [flag, field, name] of BOUNDED_FLAGS) {
    const value = options[flag];
    if (value === undefined) continue;
    const bounds = ConfigSchema.shape[field].unwrap();
    if (!bounds.safeParse(value).success) {
      throw new ToolgaugeError(
        'USAGE',
        `${name} ${value}: must be a whole number from ${bounds.minValue} to ${bounds.maxValue}`,
      );
    }
  }
}

/**
 * The interrupted run's header (only: its records are streamed later, as runEval rewrites the log, so a resumed run
 * of any size never holds them all).
 */
export async function readResume(dir: string): Promise<{ header: RunHeader; runLog: string }> {
  const file = join(resolve(dir), 'run.jsonl');
  if (!existsSync(file))
    throw new ToolgaugeError('USAGE', `--resume ${dir}: no run.jsonl there (pass a reports/<run-id> folder)`);
  let header: RunHeader | undefined;
  // the reader requires the first record to be a header: nothing past it need be read here
  for await (const r of readRunLog(file)) {
    if (r.type === 'header') header = r;
    break;
  }
  if (!header) throw new ToolgaugeError('USAGE', `--resume ${dir}: run.jsonl has no header record`);
  return { header, runLog: file };
}
