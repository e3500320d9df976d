import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { withoutKeys } from '../../providers/shared/env.js';
import type { PoolOptions } from '../catalog/server-pool.js';
import { type LoadedConfig, loadSuites, selectCases } from '../config/load-config.js';
import { configOfRun } from '../config/run-config.js';
import { errorMessage, isToolgaugeError, ToolgaugeError } from '../errors.js';
import { finishRun } from '../gate/finish-run.js';
import { VariantCheck } from '../plugins/check-variants.js';
import { resolveGraders, resolveProviders, resolveStrategies } from '../plugins/index.js';
import { CASSETTE_FILE, cassetteMode, withCassettes } from '../replay/cassettes.js';
import { resolveReporters } from '../report/reporter-registry.js';
import { RunReporters } from '../report/run-reporters.js';
import { runLogOf } from '../run-log/run-folder.js';
import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import { caseSettingsOf } from '../runner/case-settings.js';
import { planSize } from '../runner/plan.js';
import { checkListedExpectations } from '../runner/preflight.js';
import { runEval } from '../runner/run-eval.js';
import { displayPath } from '../util/display-path.js';
import { makeFolder, prepareOutputFolder } from '../util/output-folder.js';
import { redactSecrets } from '../util/redact.js';
import { lockRunDir } from '../util/run-lock.js';
import { parseShard } from '../util/shard.js';
import { loadConfigInput } from './config-input.js';
import type { EvaluateControl, EvaluateOptions, EvaluateResult } from './evaluate-types.js';
import { newRunId } from './run-meta.js';
import { checkRanges, planned, readResume, runHeaderOf } from './run-plan.js';
import { runResultOf } from './run-result.js';

export type * from './evaluate-types.js';

/**
 * Runs an eval: the config's suites × strategies × providers × repeats, every case graded and written to
 * `<out>/<run-id>/run.jsonl` as it finishes, every report written, the gate judged. What `toolgauge eval` does, with
 * nothing printed: the caller follows the run through `control`'s hooks and reads the result.
 *
 * Rejects with a ToolgaugeError (its `code` says which; `exitCodeOf(e)` is the CLI's exit code) when the run cannot
 * be carried out: a bad config or suite, an unknown plugin, a folder that cannot be written, a failed write. A model's
 * mistakes are data in the records, never a rejection; an interruption resolves (exit code 130), keeping every
 * finished record.
 */
export async function evaluate(options: EvaluateOptions = {}, control: EvaluateControl = {}): Promise<EvaluateResult> {
  // the folders the output check makes are removed again if the run fails before it writes anything
  const undo: (() => void)[] = [];
  try {
    return await evaluateIn(options, control, undo);
  } catch (e) {
    for (const u of undo) u();
    throw e;
  }
}

async function evaluateIn(
  options: EvaluateOptions,
  control: EvaluateControl,
  undo: (() => void)[],
): Promise<EvaluateResult> {
  checkRanges(options);
  const note = (line: string) => control.onNote?.(line);
  // A run folder that cannot be written is one error before anything runs (exit 2), not a failure half-way.
  if (options.resume) {
    runLogOf(options.resume, '--resume');
    prepareOutputFolder(options.resume, `--resume ${options.resume}`);
  }
  // held from before the log is read until the reports are written: a second writer is refused before it touches
  // either (runEval's own lock on the folder nests in this one)
  const resumeLock = options.resume ? lockRunDir(options.resume, 'eval --resume', { onNote: note }) : undefined;
  try {
    return await evaluateLocked(options, control, undo, note);
  } finally {
    resumeLock?.release();
  }
}

async function evaluateLocked(
  options: EvaluateOptions,
  control: EvaluateControl,
  undo: (() => void)[],
  note: (line: string) => void,
): Promise<EvaluateResult> {
  const resumed = options.resume ? await readResume(options.resume) : undefined;
  const mode = cassetteMode(options);
  const shard = options.shard ? parseShard(options.shard) : resumed?.header.shard;
  const loaded = loadRunConfig(options, resumed?.header ?? options.baseRun);
  const { config } = loaded;
  if (!resumed)
    undo.push(
      prepareOutputFolder(
        resolve(loaded.dir, config.out),
        options.out ? `--out ${options.out}` : `${displayPath(loaded.file)}: out ${config.out}`,
      ),
    );
  // A resumed run keeps the cases it was narrowed to, unless the options narrow it anew.
  const narrowed = (options.filter?.length ?? 0) + (options.tag?.length ?? 0) > 0;
  const caseFilter = narrowed ? { globs: options.filter ?? [], tags: options.tag ?? [] } : resumed?.header.caseFilter;
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
  const resolved = await resolveReporters(
    config.reporters,
    loaded.dir,
    (i) => `${displayPath(loaded.file)}: reporters[${i}]`,
    { hostname: hostname() },
  );
  for (const [i, reporter] of (control.reporters ?? []).entries())
    resolved.custom.push({ name: reporter.name ?? `reporters[${i}]`, reporter });

  // Before any model is called or anything written: expected calls against the tools the servers list. A server
  // that does not start in time there is not started again by the run (its cases become infrastructure errors at
  // once), and a slow start is announced rather than waited for in silence.
  const starts: PoolOptions = { stalled: new Map(), notify: note };
  const variants = new VariantCheck(strategies);
  await checkListedExpectations(suites, {
    waitMs: config.timeouts.serverStartMs,
    pool: starts,
    onListed: (s, tools) => variants.suite(s, tools),
  });
  variants.done(suites.length);

  const runId = resumed?.header.runId ?? newRunId();
  const runDir = resumed ? resolve(options.resume!) : resolve(loaded.dir, config.out, runId);
  makeFolder(runDir);
  if (mode) providers = withCassettes(providers, mode, options.cassettes ?? join(runDir, CASSETTE_FILE)).providers;
  const { include, total } = planned(options.onlyKeys, shard, suites, strategies, providers, config.repeats);
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
  const part = [shard ? `shard ${shard.index}/${shard.count}` : '', options.subset ?? ''].filter(Boolean).join(', ');
  hook(
    'onStart',
    control.onStart?.bind(control),
  )?.({
    runId,
    runDir,
    header,
    total,
    full: planSize(suites, strategies, providers, config.repeats),
    suites: suites.length,
    strategies: strategies.length,
    providers: providers.length,
    repeats: config.repeats,
    ...(part ? { part } : {}),
  });

  // Every per-case report is written as cases finish (one pass, nothing read back from run.jsonl).
  const sink = new RunReporters(runDir, header, resolved);
  const onRecord = hook('onRecord', control.onRecord?.bind(control));
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
      signal: control.abortSignal ?? new AbortController().signal,
      pool: starts,
      ...(control.signal ? { stop: control.signal } : {}),
      onCase: (record, done) => {
        sink.add(record);
        onRecord?.(record, { done, total });
      },
    });
  } catch (e) {
    sink.discard();
    throw e;
  }
  // Reports and gate: compare with the baseline (when there is one), write every report, the exit code.
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
  // the header as the run log holds it: credentials redacted
  return { ...runResultOf({ runDir, header: redactSecrets(header), ...outcome }, finished), planned: total };
}

/**
 * The config a run uses: the config with the options' overrides; or, for a resumed or replayed run, the run's own
 * (configOfRun), which may run with another concurrency.
 */
function loadRunConfig(options: EvaluateOptions, fromHeader: RunHeader | undefined): LoadedConfig {
  if (!fromHeader) return loadConfigInput(options.config, options, options.baseDir);
  const loaded = configOfRun(fromHeader, options.providerOptions);
  if (options.concurrency !== undefined) loaded.config.concurrency = options.concurrency;
  return loaded;
}

/** A caller's hook, whose failure stops the run as a reporter's does (REPORTER_FAILED), its own error kept as cause. */
function hook<A extends unknown[]>(name: string, fn: ((...args: A) => void) | undefined) {
  if (!fn) return undefined;
  return (...args: A) => {
    try {
      fn(...args);
    } catch (e) {
      if (isToolgaugeError(e)) throw e;
      throw new ToolgaugeError('REPORTER_FAILED', `${name} failed: ${errorMessage(e)}`, { hook: name }, { cause: e });
    }
  };
}
