import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { withoutKeys } from '../../providers/shared/env.js';
import type { PoolOptions } from '../catalog/server-pool.js';
import { ConfigSchema } from '../config/config-schema.js';
import { type ConfigOverrides, type LoadedConfig, loadConfig, loadSuites, selectCases } from '../config/load-config.js';
import type { LoadedSuite } from '../config/load-suite.js';
import { configOfRun } from '../config/run-config.js';
import { suiteHashes } from '../config/suite-hash.js';
import type { Grader } from '../contracts/grade.js';
import { ToolgaugeError } from '../errors.js';
import { finishRun } from '../gate/finish-run.js';
import { VariantCheck } from '../plugins/check-variants.js';
import {
  type ProviderSlot,
  resolveGraders,
  resolveProviders,
  resolveStrategies,
  type Strategy,
} from '../plugins/index.js';
import { strategyHeader } from '../plugins/strategy-header.js';
import { CASSETTE_FILE, type CassetteFlags, cassetteMode, withCassettes } from '../replay/cassettes.js';
import { resolveReporters } from '../report/reporter-registry.js';
import { RunReporters } from '../report/run-reporters.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import { readRunLog } from '../run-log/reader.js';
import { runLogOf } from '../run-log/run-folder.js';
import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import { RUN_LOG_FORMAT } from '../run-log/schema.js';
import { type PlanItem, plan, planSize } from '../runner/plan.js';
import { checkListedExpectations } from '../runner/preflight.js';
import type { CaseSettings } from '../runner/run-case.js';
import { runEval } from '../runner/run-eval.js';
import { displayPath } from '../util/display-path.js';
import { makeFolder, prepareOutputFolder } from '../util/output-folder.js';
import { toolgaugeVersion } from '../util/package-root.js';
import { lockRunDir } from '../util/run-lock.js';
import { inShard, parseShard, type Shard } from '../util/shard.js';
import { evalInterruptStages, interruptInStages } from './interrupt.js';
import { printFinished } from './print-finished.js';
import { Progress } from './progress.js';
import { gitCommit, newRunId } from './run-meta.js';

export interface EvalFlags extends ConfigOverrides, CassetteFlags {
  config?: string;
  /** `--filter <glob>` (repeatable): only the case ids matching any. */
  filter?: string[];
  /** `--tag <tag>` (repeatable): only the cases having any. */
  tag?: string[];
  resume?: string;
  quiet?: boolean;
  /** `--shard i/n`: run only the cases whose hash falls in shard i of n. */
  shard?: string;
  /** Re-run a finished run's config (the `replay` command) instead of reading a config file. */
  baseRun?: RunHeader;
  /** Only these plan keys (`replay --failures`). */
  onlyKeys?: ReadonlySet<string>;
  /** Which of the plan's cases onlyKeys are, for the run's first line (`the cases that failed in <run>`). */
  subset?: string;
}

/** What an eval ended with: its exit code, and for a caller that reads on (init), the run's tallies and folder. */
export interface EvalOutcome {
  exitCode: number;
  aggregate: RunAggregate;
  runDir: string;
}

export async function evalCommand(flags: EvalFlags): Promise<number> {
  return (await runEvalCommand(flags)).exitCode;
}

/** `toolgauge eval`: the run, its reports and the gate, printed; returns the outcome (evalCommand: its exit code). */
export async function runEvalCommand(flags: EvalFlags): Promise<EvalOutcome> {
  // the folders the output check makes are removed again if the command fails before it writes anything
  const undo: (() => void)[] = [];
  try {
    return await evalIn(flags, undo);
  } catch (e) {
    for (const u of undo) u();
    throw e;
  }
}

async function evalIn(flags: EvalFlags, undo: (() => void)[]): Promise<EvalOutcome> {
  checkRanges(flags);
  // A run folder that cannot be written is one line before anything runs (exit 2), not a failure half-way.
  if (flags.resume) {
    runLogOf(flags.resume, '--resume');
    prepareOutputFolder(flags.resume, `--resume ${flags.resume}`);
  }
  // held from before the log is read until the reports are written: a second writer is refused before it touches
  // either (runEval's own lock on the folder nests in this one)
  const resumeLock = flags.resume ? lockRunDir(flags.resume, 'eval --resume') : undefined;
  const resumed = flags.resume ? await readResume(flags.resume) : undefined;
  const mode = cassetteMode(flags);
  const shard = flags.shard ? parseShard(flags.shard) : resumed?.header.shard;
  const fromHeader = resumed?.header ?? flags.baseRun;
  const loaded = loadRunConfig(flags, fromHeader);
  const { config } = loaded;
  if (!resumed)
    undo.push(
      prepareOutputFolder(
        resolve(loaded.dir, config.out),
        flags.out ? `--out ${flags.out}` : `${displayPath(loaded.file)}: out ${config.out}`,
      ),
    );
  // A resumed run keeps the cases it was narrowed to, unless the command line narrows it anew.
  const narrowed = (flags.filter?.length ?? 0) + (flags.tag?.length ?? 0) > 0;
  const caseFilter = narrowed ? { globs: flags.filter ?? [], tags: flags.tag ?? [] } : resumed?.header.caseFilter;
  const allSuites = loadSuites(loaded);
  const suites = selectCases(allSuites, caseFilter ?? { globs: [], tags: [] });
  const strategies = await resolveStrategies(config.renderers, loaded.dir, loaded.origin.renderers, {
    list: config.variants ?? [],
    where: loaded.origin.variants ?? ((i) => `${displayPath(loaded.file)}: variants[${i}]`),
  });
  // A replayed run answers every request from cassettes and calls no provider, so it needs no API key; every other
  // mode may call one, and a missing key stays an error before anything runs.
  const makeProviders = () => resolveProviders(config.providers, loaded.dir, loaded.origin.providers);
  let providers = await (mode === 'replay' ? withoutKeys(makeProviders) : makeProviders());
  const graders = await resolveGraders(config.graders, loaded.dir, loaded.origin.graders);
  const reporters = await resolveReporters(
    config.reporters,
    loaded.dir,
    (i) => `${displayPath(loaded.file)}: reporters[${i}]`,
    { hostname: hostname() },
  );

  // Before any model is called or anything written: expected calls against the tools the servers list. A server
  // that does not start in time there is not started again by the run (its cases become infrastructure errors at
  // once), and a slow start is announced on stderr rather than waited for in silence.
  const starts: PoolOptions = { stalled: new Map(), notify: (line) => process.stderr.write(`${line}\n`) };
  const variants = new VariantCheck(strategies);
  await checkListedExpectations(suites, {
    waitMs: config.timeouts.serverStartMs,
    pool: starts,
    onListed: (s, tools) => variants.suite(s, tools),
  });
  variants.done(suites.length);

  const runId = resumed?.header.runId ?? newRunId();
  const runDir = resumed ? resolve(flags.resume!) : resolve(loaded.dir, config.out, runId);
  makeFolder(runDir);
  if (mode) providers = withCassettes(providers, mode, flags.cassettes ?? join(runDir, CASSETTE_FILE)).providers;
  const { include, total } = planned(flags.onlyKeys, shard, suites, strategies, providers, config.repeats);
  const header = runHeaderOf({
    runId,
    runDir,
    loaded,
    strategies,
    providers,
    suites,
    allSuites,
    plannedCases: total,
    resumed,
    shard,
    caseFilter,
  });

  // Ctrl-C: first no new case starts (those in flight finish and are saved), then those in flight are aborted.
  const stop = new AbortController();
  const controller = new AbortController();
  const stopListening = interruptInStages(evalInterruptStages(stop, controller));

  const progress = new Progress(total, process.stderr, flags.quiet);
  const matrix = `${suites.length} suite(s) × ${strategies.length} renderer(s) × ${providers.length} provider(s) × ${config.repeats} repeat(s)`;
  const full = planSize(suites, strategies, providers, config.repeats);
  // a shard or a replay runs part of the plan: the count says which part, the matrix what it is part of
  const part = [shard ? `shard ${shard.index}/${shard.count}` : '', flags.subset ?? ''].filter(Boolean).join(', ');
  const what =
    total === full && !part
      ? `${total} cases (${matrix})`
      : `${total} of the ${full} cases of ${matrix}${part ? ` (${part})` : ''}`;
  process.stderr.write(`toolgauge: ${what} → ${displayPath(runDir)}\n`);
  // Every per-case report is written as cases finish (one pass, nothing read back from run.jsonl).
  const sink = new RunReporters(runDir, header, reporters);
  let outcome: Awaited<ReturnType<typeof runEval>>;
  try {
    outcome = await runEval({
      header,
      runDir,
      suites,
      strategies,
      providers,
      repeats: config.repeats,
      concurrency: config.concurrency,
      settings: caseSettingsOf(loaded, graders),
      // the finished records are streamed from the old log as runEval rewrites it: into the reports before any new case
      ...(resumed ? { resume: { runLog: resumed.runLog, onKept: (r: CaseRecord) => sink.add(r) } } : {}),
      ...(include ? { include } : {}),
      signal: controller.signal,
      pool: starts,
      stop: stop.signal,
      onCase: (record, done) => {
        sink.add(record);
        progress.update(record, done);
      },
    });
  } catch (e) {
    sink.discard();
    throw e;
  } finally {
    stopListening();
  }
  // Reports and gate: compare with the committed baseline (when there is one), write every report, exit code.
  const finished = await finishRun({
    aggregate: outcome.aggregate,
    runDir,
    displayDir: displayPath(runDir),
    interrupted: outcome.interrupted,
    cancelled: outcome.interrupted,
    gate: config.gate,
    configDir: loaded.dir,
    reports: sink,
  });
  printFinished(finished, { quiet: flags.quiet === true });
  if (outcome.interrupted) {
    process.stderr.write(
      `Run interrupted: ${outcome.aggregate.total} finished cases are saved in ${displayPath(outcome.runLog)}.\nResume with: toolgauge eval --resume ${displayPath(runDir)}\n`,
    );
  }
  resumeLock?.release();
  return { exitCode: finished.exitCode, aggregate: outcome.aggregate, runDir };
}

/**
 * The config a run uses: the config file with the command line's overrides; or, for a resumed or replayed run, the
 * run's own (configOfRun), which may run with another concurrency.
 */
function loadRunConfig(flags: EvalFlags, fromHeader: RunHeader | undefined): LoadedConfig {
  if (!fromHeader) return loadConfig(flags.config, flags);
  const loaded = configOfRun(fromHeader, flags.providerOptions);
  if (flags.concurrency !== undefined) loaded.config.concurrency = flags.concurrency;
  return loaded;
}

/** Which planned items run (a shard, the keys `replay` re-runs; undefined: all) and how many they are. */
function planned(
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
function runHeaderOf(input: {
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

/** What every case of the run needs from the config: seed, limits, graders, and where the schema cache is. */
function caseSettingsOf(loaded: LoadedConfig, graders: Grader[]): CaseSettings {
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

/** The flags that override a bounded number of the config, with the config field that sets its bounds. */
const BOUNDED_FLAGS = [
  ['repeat', 'repeats', '--repeat'],
  ['concurrency', 'concurrency', '--concurrency'],
  ['maxTurns', 'maxTurns', '--max-turns'],
] as const;

/**
 * A flag's value obeys the bounds the config file's field has (one source: the config schema), so the command line
 * cannot run what a config file may not: `--concurrency 0` would start no case, `--max-turns 0` would ask nothing.
 */
function checkRanges(flags: EvalFlags): void {
  for (const [flag, field, name] of BOUNDED_FLAGS) {
    const value = flags[flag];
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
async function readResume(dir: string): Promise<{ header: RunHeader; runLog: string }> {
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
