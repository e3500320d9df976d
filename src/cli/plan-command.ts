import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ToolgaugeError } from '../errors.js';
import { compareSettings } from '../gate/config-gate.js';
import { type Plan, type PlanCell, planGate } from '../gate/plan-gate.js';
import { DETECT_POWER } from '../report/gate-power.js';
import { loadSnapshot } from '../report/load-snapshot.js';
import { type RunSnapshot, snapshotOf } from '../report/snapshot.js';
import { RunAggregate } from '../run-log/aggregate.js';
import { readRunLog } from '../run-log/reader.js';
import { runLogPath } from '../run-log/run-folder.js';
import { displayPath } from '../util/display-path.js';

export interface PlanFlags {
  config?: string;
  alpha?: number;
  maxRegression?: number;
  /** The drop to detect, absolute (0.1 = 10 points). */
  drop?: number;
  power?: number;
  /** Repeats to plan for, e.g. "1,2,3,5,10". */
  repeats?: string;
  grader?: string[];
}

const pts = (x: number) => `${(x * 100).toFixed(1)} pts`;
const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;
const int = (x: number) => Math.round(x).toLocaleString('en-US');

/** The run log behind an argument, when it names a run (a folder with run.jsonl, or the run.jsonl itself). */
function runLogOfArg(arg: string): string | null {
  const p = resolve(arg);
  if (!existsSync(p)) return null;
  if (statSync(p).isDirectory()) return existsSync(runLogPath(p)) ? runLogPath(p) : null;
  return p.endsWith('.jsonl') ? p : null;
}

/** A run's snapshot and its mean model calls per trial (turns per case record), from one pass over its run log. */
async function readRun(runLog: string): Promise<{ snapshot: RunSnapshot; callsPerTrial: number }> {
  let agg: RunAggregate | undefined;
  let records = 0;
  let turns = 0;
  for await (const r of readRunLog(runLog)) {
    if (r.type === 'header') agg ??= new RunAggregate(r);
    else if (r.type === 'case') {
      agg?.add(r);
      records++;
      turns += r.transcript?.turns?.length ?? 0;
    }
  }
  if (!agg) throw new ToolgaugeError('USAGE', `${runLog}: no header record; not a toolgauge run log`);
  return { snapshot: snapshotOf(agg), callsPerTrial: records ? turns / records : 0 };
}

function parseRepeats(text: string | undefined): number[] {
  const list = (text ?? '1,2,3,5,10').split(',').map((x) => Number(x.trim()));
  if (!list.length || list.some((k) => !Number.isInteger(k) || k < 1 || k > 1000))
    throw new ToolgaugeError('USAGE', `plan --repeats ${text}: a comma-separated list of whole numbers from 1 to 1000`);
  return [...new Set(list)].sort((a, b) => a - b);
}

function detectsText(worst: number | null, nothing: number): string {
  if (worst === null) return 'nothing';
  return nothing ? `≥ ${pts(worst)}; ${nothing} cell(s): nothing` : `≥ ${pts(worst)}`;
}

function cellName(c: PlanCell): string {
  return `${c.grader} in ${c.renderer} × ${c.provider}`;
}

/**
 * `toolgauge plan <baseline>`: the cases per cell and repeats with which the gate catches a given drop with a given
 * power, and what each costs in model calls, from a baseline's (or a run's) pass rates and flip rates, under the
 * config's gate settings. Prints a table; writes nothing.
 */
export async function planCommand(baselineArg: string, flags: PlanFlags = {}): Promise<number> {
  const settings = compareSettings(flags);
  const drop = flags.drop ?? 0.1;
  const power = flags.power ?? DETECT_POWER;
  if (!(drop > 0 && drop <= 1))
    throw new ToolgaugeError('USAGE', `plan --drop ${drop}: a drop between 0 and 1 (0.1 = 10 points)`);
  if (!(power > 0 && power < 1))
    throw new ToolgaugeError('USAGE', `plan --power ${power}: a probability between 0 and 1`);
  const repeats = parseRepeats(flags.repeats);
  const runLog = runLogOfArg(baselineArg);
  const fromRun = runLog ? await readRun(runLog) : null;
  const snapshot = fromRun?.snapshot ?? (await loadSnapshot(baselineArg, 'baseline'));
  const plan = planGate({
    baseline: snapshot,
    options: settings.options,
    drop,
    power,
    repeats,
    ...(flags.grader?.length ? { graders: flags.grader } : {}),
  });
  if (flags.grader?.length && !plan.cells.length && !plan.tooLow.length)
    throw new ToolgaugeError('USAGE', `plan --grader ${flags.grader.join(', ')}: no such grader in the baseline`);
  process.stdout.write(
    renderPlan(plan, {
      snapshot,
      source: settings.source,
      drop,
      power,
      callsPerTrial: fromRun?.callsPerTrial ?? null,
      what: displayPath(resolve(baselineArg)),
    }),
  );
  return 0;
}

interface RenderContext {
  snapshot: RunSnapshot;
  source: string;
  drop: number;
  power: number;
  /** Mean model calls per case and repeat in the run read; null when only a baseline file was given. */
  callsPerTrial: number | null;
  what: string;
}

function renderPlan(plan: Plan, ctx: RenderContext): string {
  const p = Math.round(ctx.power * 100);
  const measured = plan.cells.every((c) => c.noise.flipMeasured);
  const lines = [
    `toolgauge plan: ${ctx.what} (run ${ctx.snapshot.runId}): ${plan.cellCount} renderer × provider cell(s), ${plan.comparisons} cell × grader comparison(s), ${plan.casesNow} case(s) per cell, ${ctx.snapshot.repeats} repeat(s)`,
    `gate: alpha ${plan.rule.alpha} (Holm over ${plan.comparisons}), maxRegression ${pts(plan.rule.maxRegression)} (from ${ctx.source})`,
    `target: a drop of ${pts(ctx.drop)} in any planned cell, caught with ${p}% power`,
    '',
  ];
  if (ctx.drop <= plan.rule.maxRegression + 1e-9) {
    lines.push(
      `A drop of ${pts(ctx.drop)} is never flagged: the gate tolerates drops up to maxRegression (${pts(plan.rule.maxRegression)}). Lower gate.maxRegression below the drop you need to catch.`,
    );
    return `${lines.join('\n')}\n`;
  }
  if (!plan.cells.length) {
    lines.push(`No planned cell passes ${pts(ctx.drop)} of its cases in the baseline: there is no such drop to catch.`);
    return `${lines.join('\n')}\n`;
  }
  const calls = ctx.callsPerTrial;
  lines.push(
    `| repeats k | cases per cell | trials per run | model calls per run${calls === null ? '' : ` (${calls.toFixed(2)} per trial)`} | detects at ${plan.casesNow} cases (least sensitive cell) | cell needing the most cases |`,
    '|---:|---:|---:|---:|---:|---|',
  );
  for (const r of plan.rows) {
    const trials = r.cases === null ? null : r.cases * r.repeats * plan.cellCount;
    const callText = trials === null ? '–' : calls === null ? `≥ ${int(trials)}` : `≈ ${int(trials * calls)}`;
    lines.push(
      `| ${r.repeats} | ${r.cases === null ? 'never' : int(r.cases)} | ${trials === null ? '–' : int(trials)} | ${callText} | ${detectsText(r.detectsNow, r.detectsNothing)} | ${r.binding ? cellName(r.binding) : '–'} |`,
    );
  }
  lines.push(
    '',
    `A run is the eval that is gated; the baseline it is compared with needs the same once. Trials = cases × repeats × ${plan.cellCount} cell(s).${calls === null ? ' Model calls: at least one per trial (pass a run folder to count the turns of its cases).' : ''}`,
    measured
      ? "Flip rates measured from the baseline's repeats."
      : 'Flip rates assumed at their worst where the baseline has one trial per case: a baseline made with --repeat 3 measures them, and usually needs fewer cases.',
    'Model: a drop spreads over the cases as extra failures of passing answers (docs/gate.md); a drop confined to a few cases that break outright gains less from repeats.',
  );
  if (plan.tooLow.length)
    lines.push(
      `Left out (baseline pass rate below the drop): ${plan.tooLow.map((c) => `${cellName(c)} ${pct1(c.noise.rate)}`).join('; ')}.`,
    );
  return `${lines.join('\n')}\n`;
}
