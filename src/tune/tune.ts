import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Catalog } from '../contracts/tool.js';
import { ToolgaugeError } from '../errors.js';
import { CASSETTE_FILE, withCassettes } from '../replay/cassettes.js';
import type { CaseRecord } from '../run-log/schema.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFolder } from '../util/output-folder.js';
import { expectedCalls } from './case-cost.js';
import { type Estimate, estimateTune } from './estimate.js';
import { type CaseOutcome, RACE_DEFAULTS, Race, type RaceSettings, type RoundEvidence } from './race.js';
import { type CellCases, runCells } from './run-cells.js';
import {
  newTuneInput,
  resumeTuneInput,
  saveTuneInput,
  TUNE_INPUT_FILE,
  type TuneInput,
  type TuneSettings,
} from './tune-input.js';
import { type TuneResult, tuneResultOf, writeTuneResult } from './tune-result.js';
import { setUpTune, type TuneSetup } from './tune-setup.js';

export interface TuneOptions extends TuneSettings {
  /** The folder tune.md, tune.json, the settings and the cassettes go to (default reports/tune-<time>). */
  out?: string;
  /** Continue the tune in this folder, with its own settings: every call already made is answered from its cassettes. */
  resume?: string;
  /** Start even when the estimate is past the budget (the race then stops when the budget is spent). */
  yes?: boolean;
  /** Where relative paths are read from (default: the current folder). */
  cwd?: string;
  /** No new case starts once it aborts; the cases in flight finish (a first Ctrl-C). */
  stop?: AbortSignal;
  /** Aborts the cases in flight (a second Ctrl-C). */
  signal?: AbortSignal;
  /** Told the estimate before any model is called (and before a refusal). */
  onEstimate?: (estimate: Estimate, input: TuneInput) => void;
  /** Told each provider's rounds as they are judged. */
  onRound?: (provider: string, round: RoundEvidence) => void;
  /** One line for the user: a server slow to start. */
  notify?: (line: string) => void;
}

/**
 * `toolgauge tune` as a library call: races the space's candidate strategies for each provider on the suites' cases
 * and recommends one per provider, with the evidence. Every model call goes through a cassette (replay or record), so
 * a resumed or repeated tune, and a later `eval --replay-or-record --cassettes` of the winner with the same seed, pay
 * for no reply twice. Writes tune-input.json, cassettes.jsonl, tune.json, tune.md and tune.html into the folder.
 */
export async function tune(options: TuneOptions = {}): Promise<TuneResult> {
  const cwd = options.cwd ?? process.cwd();
  const input = options.resume ? resumeTuneInput(resolve(cwd, options.resume), options) : newTuneInput(options, cwd);
  const dir = resolve(cwd, options.resume ?? options.out ?? join('reports', `tune-${stamp(new Date())}`));
  if (!options.resume && existsSync(join(dir, TUNE_INPUT_FILE))) {
    throw new ToolgaugeError(
      'USAGE',
      `--out ${displayPath(dir)}: a tune was already started there; continue it with --resume ${displayPath(dir)} or pick another folder`,
    );
  }
  // a folder that cannot be written is one line before anything runs (exit 2); made here, it is removed again if the
  // tune stops before writing anything in it (a refusal, a bad space)
  const undo = prepareOutputFolder(dir, options.resume ? `--resume ${options.resume}` : `--out ${displayPath(dir)}`);
  let setup: TuneSetup;
  try {
    setup = await setUpTune(input, cwd, options.notify ?? (() => {}), options.stop);
  } catch (e) {
    undo();
    throw e;
  }
  const settings: RaceSettings = { ...RACE_DEFAULTS, ...pick(input) };
  const races = setup.providers.map(
    () =>
      new Race(
        setup.strategies.map((s) => s.label),
        setup.cases.length,
        input.seed,
        settings,
      ),
  );
  try {
    const probes = await probeCatalogs(setup, races[0]?.order ?? []);
    const estimate = estimateTune(setup, races[0]?.order ?? [], settings, probes);
    options.onEstimate?.(estimate, input);
    if (!options.resume && !options.yes) {
      try {
        refuseOverBudget(input, estimate, setup);
      } catch (e) {
        undo();
        throw e;
      }
    }
    if (!options.resume) saveTuneInput(dir, input);
    const startedAt = new Date().toISOString();
    const cassette = withCassettes(setup.providers, 'replay-or-record', input.cassettes ?? join(dir, CASSETTE_FILE));
    const recordedBefore = cassette.store.size;
    const providers = cassette.providers;
    const spent = { calls: 0, tokens: 0 };
    let budgetSpent = false;
    let interrupted = false;
    const stopped = () => options.stop?.aborted === true || options.signal?.aborted === true;
    while (races.some((r) => !r.done)) {
      if (stopped()) {
        interrupted = true;
        break;
      }
      const rounds = races.map((race) => ({ race, next: race.next() }));
      const predicted = predictRound(rounds, setup, estimate);
      if (overBudget(input, spent.calls + predicted.calls, spent.tokens + predicted.tokens)) {
        for (const r of races) r.stop('budget');
        budgetSpent = true;
        break;
      }
      const cells: CellCases[] = [];
      const where: { race: Race; candidate: number; cases: number[] }[] = [];
      rounds.forEach(({ race, next }, p) => {
        if (!next) return;
        for (const candidate of next.candidates) {
          cells.push({
            strategy: setup.strategies[candidate]!,
            provider: providers[p]!,
            cases: next.cases.map((i) => setup.cases[i]!),
          });
          where.push({ race, candidate, cases: next.cases });
        }
      });
      const records = await runCells(cells, {
        pool: setup.pool,
        settings: setup.settings,
        concurrency: input.concurrency,
        signal: options.signal ?? new AbortController().signal,
        ...(options.stop ? { stop: options.stop } : {}),
      });
      // the calls of every finished case count, those of a round cut short too (they are in the cassette)
      for (const r of records.flat()) {
        if (!r) continue;
        const o = outcomeOf(r, input.grader);
        spent.calls += o.calls;
        spent.tokens += o.tokens;
      }
      if (records.some((list) => list.some((r) => r === undefined))) {
        interrupted = true;
        break;
      }
      checkErrors(records.flat() as CaseRecord[]);
      records.forEach((list, k) => {
        const { race, candidate, cases } = where[k]!;
        list.forEach((r, j) => {
          race.record(candidate, cases[j]!, outcomeOf(r!, input.grader));
        });
      });
      rounds.forEach(({ race, next }, p) => {
        if (!next) return;
        const evidence = race.judge();
        options.onRound?.(setup.providers[p]!.label, evidence);
      });
    }
    if (interrupted) for (const r of races) r.stop('interrupted');
    const result = tuneResultOf({
      dir,
      input,
      setup,
      races,
      estimate,
      spent,
      paid: cassette.store.size - recordedBefore,
      budgetSpent,
      interrupted,
      startedAt,
    });
    writeTuneResult(dir, result);
    return result;
  } finally {
    await setup.pool.closeAll();
    await Promise.all(setup.providers.map((p) => p.provider.close?.()));
    setup.context.prompts.save();
  }
}

function pick(input: TuneInput): Partial<RaceSettings> {
  return {
    alpha: input.alpha,
    margin: input.margin,
    firstRound: input.firstRound,
    objective: input.objective,
    // 0 turns the tie rule off: no sample is ever that large
    ...(input.tieAfter !== undefined
      ? { minTie: input.tieAfter === 0 ? Number.POSITIVE_INFINITY : input.tieAfter }
      : {}),
  };
}

/** How a case record counts in the race: pass or fail by the grader (null when ungraded or errored), its cost. */
export function outcomeOf(record: CaseRecord, grader: string): CaseOutcome {
  const grade = record.error ? undefined : record.grades.find((g) => g.grader === grader);
  const calls = record.transcript.turns.length;
  const tokens = record.usage.input > 0 ? record.usage.input : record.promptTokens * Math.max(1, calls);
  return { pass: grade ? grade.pass : null, tokens, calls };
}

/** The tools the probe cases' servers list (the first three of the race's order), for the estimate's renders. */
async function probeCatalogs(setup: TuneSetup, order: readonly number[]) {
  const probes: { tc: TuneSetup['cases'][number]; live: Catalog }[] = [];
  for (const i of order.slice(0, 3)) {
    const tc = setup.cases[i]!;
    const session = await setup.pool.openCase(tc.suite, tc.case);
    try {
      probes.push({ tc, live: session.catalog });
    } finally {
      await session.release();
    }
  }
  return probes;
}

/** The next round's calls and tokens: each candidate's measured cost per case so far, else the estimate's. */
function predictRound(
  rounds: { race: Race; next: ReturnType<Race['next']> }[],
  setup: TuneSetup,
  estimate: Estimate,
): { calls: number; tokens: number } {
  let calls = 0;
  let tokens = 0;
  rounds.forEach(({ race, next }, p) => {
    if (!next) return;
    for (const c of next.candidates) {
      const seen = race.order
        .slice(0, race.sampleSize)
        .map((i) => race.outcome(c, i))
        .filter((o) => o !== undefined);
      const strategy = setup.strategies[c]!;
      const cell = estimate.perCell.find(
        (e) => e.strategy === strategy.label && e.provider === setup.providers[p]!.label,
      );
      for (const i of next.cases) {
        if (seen.length) {
          calls += seen.reduce((n, o) => n + o.calls, 0) / seen.length;
          tokens += seen.reduce((n, o) => n + o.tokens, 0) / seen.length;
        } else {
          const n = expectedCalls(setup.cases[i]!.case, strategy.name === 'tool-search');
          calls += n;
          tokens += n * (cell?.tokensPerCall ?? 0);
        }
      }
    }
  });
  return { calls: Math.round(calls), tokens: Math.round(tokens) };
}

function overBudget(input: TuneInput, calls: number, tokens: number): boolean {
  return (
    (input.budgetCalls !== undefined && calls > input.budgetCalls) ||
    (input.budgetTokens !== undefined && tokens > input.budgetTokens)
  );
}

/**
 * Before anything is spent: a race estimated past a budget, or a paid model with no budget at all, is refused (exit 2)
 * unless the caller said yes.
 */
function refuseOverBudget(input: TuneInput, e: Estimate, setup: TuneSetup): void {
  const figures = `the race is estimated at ${e.race.calls} calls and ${e.race.tokens} tokens (the first round ${e.firstRound.calls} calls; the full grid ${e.grid.calls} calls and ${e.grid.tokens} tokens)`;
  if (input.budgetCalls !== undefined && e.race.calls > input.budgetCalls) {
    throw new ToolgaugeError(
      'USAGE',
      `tune refused: ${figures}, over --budget-calls ${input.budgetCalls}; raise the budget, or pass --yes to race until it is spent`,
    );
  }
  if (input.budgetTokens !== undefined && e.race.tokens > input.budgetTokens) {
    throw new ToolgaugeError(
      'USAGE',
      `tune refused: ${figures}, over --budget-tokens ${input.budgetTokens}; raise the budget, or pass --yes to race until it is spent`,
    );
  }
  const paid = setup.providers.filter((p) => !p.provider.simulated).map((p) => p.label);
  if (paid.length && input.budgetCalls === undefined && input.budgetTokens === undefined) {
    throw new ToolgaugeError(
      'USAGE',
      `tune refused: ${paid.join(', ')} may cost money and no budget was given; ${figures}. Pass --budget-calls N (or --budget-tokens N), or --yes`,
    );
  }
}

/** A round whose cases mostly failed with infrastructure errors measures nothing: stop with the first error. */
function checkErrors(records: readonly CaseRecord[]): void {
  const errors = records.filter((r) => r.error);
  if (errors.length === 0 || errors.length * 2 <= records.length) return;
  const first = errors[0]!;
  throw new ToolgaugeError(
    'INTERNAL',
    `tune stopped: ${errors.length} of ${records.length} cases of the round failed with infrastructure errors; the first (${first.case}, ${first.renderer} × ${first.provider}): ${first.error!.code}: ${first.error!.message}`,
  );
}

/** A folder-safe timestamp: 20260101-120000. */
function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}
