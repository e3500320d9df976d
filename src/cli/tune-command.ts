import { ToolgaugeError } from '../errors.js';
import type { Estimate } from '../tune/estimate.js';
import type { RoundEvidence } from '../tune/race.js';
import { type TuneOptions, tune } from '../tune/tune.js';
import type { TuneInput } from '../tune/tune-input.js';
import { displayPath } from '../util/display-path.js';
import { visibleInline } from '../util/visible-text.js';
import { EXIT_INTERRUPTED, evalInterruptStages, interruptInStages } from './interrupt.js';

export interface TuneFlags {
  suite?: string[];
  provider?: string[];
  providerOption?: string[];
  space?: string;
  grader?: string;
  objective?: string;
  budgetCalls?: number;
  budgetTokens?: number;
  seed?: number;
  margin?: number;
  tieAfter?: number;
  concurrency?: number;
  cassettes?: string;
  out?: string;
  resume?: string;
  yes?: boolean;
  quiet?: boolean;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** `toolgauge tune`: the estimate, a line per round, the recommendation per provider and the config snippet. */
export async function tuneCommand(flags: TuneFlags): Promise<number> {
  if (flags.objective !== undefined && flags.objective !== 'pass-rate' && flags.objective !== 'pass-per-token') {
    throw new ToolgaugeError('USAGE', `--objective ${flags.objective}: must be pass-rate or pass-per-token`);
  }
  if (flags.margin !== undefined && !(flags.margin > 0 && flags.margin < 1)) {
    throw new ToolgaugeError('USAGE', `--margin ${flags.margin}: must be a share between 0 and 1, e.g. 0.1`);
  }
  if (flags.resume && (flags.suite?.length || flags.provider?.length || flags.space || flags.seed !== undefined)) {
    throw new ToolgaugeError(
      'USAGE',
      '--resume: the tune goes on with the settings it was started with; drop --suite, --provider, --space and --seed (only --provider-option and --concurrency may be given again)',
    );
  }
  const stop = new AbortController();
  const abort = new AbortController();
  const stopListening = interruptInStages(evalInterruptStages(stop, abort));
  const say = (line: string) => {
    if (!flags.quiet) process.stderr.write(`${line}\n`);
  };
  const options: TuneOptions = {
    ...(flags.suite ? { suites: flags.suite } : {}),
    ...(flags.provider ? { providers: flags.provider } : {}),
    ...(flags.providerOption ? { providerOptions: flags.providerOption } : {}),
    ...(flags.space ? { space: flags.space } : {}),
    ...(flags.grader ? { grader: flags.grader } : {}),
    ...(flags.objective ? { objective: flags.objective as 'pass-rate' | 'pass-per-token' } : {}),
    ...(flags.budgetCalls !== undefined ? { budgetCalls: flags.budgetCalls } : {}),
    ...(flags.budgetTokens !== undefined ? { budgetTokens: flags.budgetTokens } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.margin !== undefined ? { margin: flags.margin } : {}),
    ...(flags.tieAfter !== undefined ? { tieAfter: flags.tieAfter } : {}),
    ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    ...(flags.cassettes ? { cassettes: flags.cassettes } : {}),
    ...(flags.out ? { out: flags.out } : {}),
    ...(flags.resume ? { resume: flags.resume } : {}),
    ...(flags.yes ? { yes: true } : {}),
    stop: stop.signal,
    signal: abort.signal,
    notify: (line) => process.stderr.write(`${line}\n`),
    onEstimate: (e, input) => process.stderr.write(estimateLines(e, input)),
    onRound: (provider, round) => say(roundLine(provider, round)),
  };
  let result: Awaited<ReturnType<typeof tune>>;
  try {
    result = await tune(options);
  } finally {
    stopListening();
  }
  const lines: string[] = [];
  for (const p of result.providers) {
    const rec = p.recommended;
    lines.push(
      rec
        ? `${visibleInline(p.provider)}: ${visibleInline(rec.label)} — ${pct(rec.rate)} [${pct(rec.wilson95[0])}–${pct(rec.wilson95[1])}] on ${rec.graded} cases, ${Math.round(rec.tokens)} prompt tokens per case; ${p.calls} calls of the grid's ${p.gridCalls}`
        : `${visibleInline(p.provider)}: no recommendation (no round was judged)`,
    );
  }
  lines.push(
    `calls: ${result.calls.spent} (${result.calls.paid} made now, ${result.calls.reused} from the cassettes) against about ${result.calls.grid} for the full grid`,
  );
  if (result.snippet) lines.push('', '# config snippet (toolgauge.config.yaml):', result.snippet.trimEnd());
  lines.push('', `tune.md, tune.html and tune.json → ${displayPath(result.out)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (result.interrupted) {
    process.stderr.write(`Tune interrupted. Resume with: toolgauge tune --resume ${displayPath(result.out)}\n`);
    return EXIT_INTERRUPTED;
  }
  return 0;
}

function estimateLines(e: Estimate, input: TuneInput): string {
  const budget = [
    input.budgetCalls !== undefined ? `${input.budgetCalls} calls` : '',
    input.budgetTokens !== undefined ? `${input.budgetTokens} tokens` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return [
    `tune: ${e.candidates} candidates × ${e.providers} provider(s) on ${e.cases} cases (seed ${input.seed}, grader ${visibleInline(input.grader)})`,
    `tune: estimate: first round ${e.firstRound.calls} calls; the race ≈ ${e.race.calls} calls, ${e.race.tokens} tokens if no candidate is dropped before ${e.raceCases} cases; the full grid ≈ ${e.grid.calls} calls, ${e.grid.tokens} tokens`,
    `tune: budget: ${budget || 'none'}`,
    '',
  ].join('\n');
}

function roundLine(provider: string, r: RoundEvidence): string {
  const gone = r.eliminated.map((e) => `${visibleInline(e.candidate)} (p ${e.pAdjusted.toPrecision(2)})`).join(', ');
  return `tune: ${visibleInline(provider)} round ${r.round}: ${r.cases} cases × ${r.candidates} candidates, leader ${visibleInline(r.leader)}${gone ? `; out: ${gone}` : ''}`;
}
