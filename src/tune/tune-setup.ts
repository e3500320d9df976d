import { type PoolOptions, ServerPool } from '../catalog/server-pool.js';
import { type Config, ConfigSchema } from '../config/config-schema.js';
import { type LoadedConfig, loadSuites } from '../config/load-config.js';
import type { Grader } from '../contracts/grade.js';
import { VariantCheck } from '../plugins/check-variants.js';
import {
  type ProviderSlot,
  resolveGraders,
  resolveProviders,
  resolveStrategies,
  type Strategy,
} from '../plugins/index.js';
import { RunContext } from '../render/run-context.js';
import { caseSettingsOf } from '../runner/case-settings.js';
import { checkListedExpectations } from '../runner/preflight.js';
import type { CaseSettings } from '../runner/run-case.js';
import { gradable } from './case-cost.js';
import type { TuneCase } from './run-cells.js';
import { type LoadedSpace, loadSpace } from './space.js';
import type { TuneInput } from './tune-input.js';

/** Everything a tune races with, resolved and checked before any model is called. */
export interface TuneSetup {
  space: LoadedSpace;
  strategies: Strategy[];
  providers: ProviderSlot[];
  grader: Grader;
  /** The cases the grader can grade, in suite order (the race's case indices). */
  cases: TuneCase[];
  /** Every case of the suites, gradable or not. */
  allCases: number;
  suites: { name: string; cases: number; gradable: number }[];
  settings: CaseSettings;
  pool: ServerPool;
  context: RunContext;
}

/**
 * Resolves a tune's settings as eval resolves a config: the suites (paths relative to where the command was typed),
 * the space's strategies (paths relative to the space file), the providers and the grader; then the preflight eval
 * runs (expected calls against the tools the servers list, the variants' distractor sources).
 */
export async function setUpTune(
  input: TuneInput,
  cwd: string,
  notify: (line: string) => void,
  signal?: AbortSignal,
): Promise<TuneSetup> {
  const space = loadSpace(input.space ?? undefined, cwd);
  const config: Config = ConfigSchema.parse({
    suites: input.suites,
    providers: input.providers,
    graders: [input.grader],
    seed: input.seed,
    concurrency: input.concurrency,
    maxTurns: input.maxTurns,
  });
  const loaded: LoadedConfig = {
    file: `${cwd}/(tune)`,
    dir: cwd,
    config,
    origin: {
      renderers: space.where,
      providers: (i) =>
        `--provider ${typeof input.providers[i] === 'string' ? input.providers[i] : (input.providers[i]?.id ?? '')}`,
      graders: () => `--grader ${input.grader}`,
    },
  };
  const suites = loadSuites(loaded);
  const strategies = await resolveStrategies(space.entries, space.dir, space.where, {
    list: space.variants,
    where: space.whereVariant,
  });
  const providers = await resolveProviders(config.providers, cwd, loaded.origin.providers);
  const [grader] = await resolveGraders(config.graders, cwd, loaded.origin.graders);
  const pool: PoolOptions = { stalled: new Map(), notify };
  const variants = new VariantCheck(strategies);
  await checkListedExpectations(suites, {
    waitMs: config.timeouts.serverStartMs,
    pool,
    ...(signal ? { signal } : {}),
    onListed: (s, tools) => variants.suite(s, tools),
  });
  variants.done(suites.length);
  const cases: TuneCase[] = [];
  const counts: TuneSetup['suites'] = [];
  let allCases = 0;
  for (const suite of suites) {
    let n = 0;
    let g = 0;
    for (const c of suite.cases) {
      n++;
      if (!gradable(input.grader, c)) continue;
      g++;
      cases.push({ suite, case: c });
    }
    allCases += n;
    counts.push({ name: suite.suite.name, cases: n, gradable: g });
  }
  const context = new RunContext();
  return {
    space,
    strategies,
    providers,
    grader: grader!,
    cases,
    allCases,
    suites: counts,
    // the schema cache sits beside the space file
    settings: { ...caseSettingsOf(loaded, [grader!]), schemaDir: space.dir, context },
    pool: new ServerPool(pool),
    context,
  };
}
