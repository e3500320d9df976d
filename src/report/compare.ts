import { DETECT_POWER, detectableDrop, flipRate, type NoiseModel } from './gate-power.js';
import { PairedCases } from './paired-cases.js';
import { signFlipTest } from './sign-flip.js';
import type { RunSnapshot, Tally } from './snapshot.js';

export type Verdict = 'pass' | 'fail' | 'flaky';

export interface Flip {
  /** suite/case|renderer|provider */
  key: string;
  grader: string;
  from: Verdict;
  to: Verdict;
  base: Tally;
  run: Tally;
}

export interface CellDelta {
  renderer: string;
  provider: string;
  grader: string;
  /** Tallies over the cases both runs graded (the paired comparison). */
  base: Tally;
  run: Tally;
  /** run rate − baseline rate, on the paired cases. */
  delta: number;
  /** Trials that went pass→fail and fail→pass, net per case (a case's rates scaled to its smaller trial count). */
  worse: number;
  better: number;
  /** Paired cases whose pass rate fell, and rose. */
  casesWorse: number;
  casesBetter: number;
  /**
   * p-value of the exact paired sign-flip test on per-case differences (the exact McNemar test with one trial per
   * case), and after Holm's correction over all cell × grader comparisons.
   */
  p: number;
  pAdjusted: number;
  significant: boolean;
  /** A significant drop larger than `maxRegression`. */
  regression: boolean;
  /** What the gate can detect in this cell, from the baseline: see Detection. */
  detect: Detection;
}

/** The smallest drop the gate catches in a cell with DETECT_POWER, at this comparison's n, k and settings. */
export interface Detection {
  /** Drop in pass rate (0..1, absolute) caught with `power`; null when no drop can be (too few cases, or none pass). */
  drop: number | null;
  power: number;
  /** Paired cases, and trials per case in the run (k). */
  cases: number;
  repeats: number;
  /** The baseline's pass rate on the paired cases. */
  baseRate: number;
  /** The chance that two trials of a case disagree (from the baseline's repeats; assumed when it had one per case). */
  flipRate: number;
  /** False when the baseline had one trial per case: the flip rate is then the least favourable one, 2p̄(1 − p̄). */
  flipMeasured: boolean;
}

export interface CompareOptions {
  /** Family-wise significance level (Holm-corrected over every cell × grader). */
  alpha: number;
  /** Largest drop in pass rate tolerated even when significant (0.05 = five points). */
  maxRegression: number;
}

export interface CompareResult {
  baseRunId: string;
  runId: string;
  configChanged: boolean;
  options: CompareOptions;
  cells: CellDelta[];
  flips: Flip[];
  /** Case keys (suite/case|renderer|provider) only in the run, or only in the baseline. */
  added: string[];
  removed: string[];
}

export const DEFAULT_COMPARE: CompareOptions = { alpha: 0.05, maxRegression: 0.05 };

function verdict([pass, n]: Tally): Verdict {
  return pass === n ? 'pass' : pass === 0 ? 'fail' : 'flaky';
}

function cellOf(key: string): string {
  return key.slice(key.indexOf('|') + 1);
}

/**
 * Pairs two runs case by case. Per cell and grader, each case's difference in pass rate (baseline − run) is one
 * observation, whatever its repeats: the exact paired sign-flip test on those differences (docs/gate.md) holds its
 * false-alarm rate for any number of repeats and any correlation between the repeats of a case, and is the exact
 * McNemar test with one trial per case. p-values are Holm-corrected over every comparison so that a wide matrix of
 * noisy cells does not produce a false regression by chance. Each cell also gets what the gate can detect there
 * (Detection), from the baseline's pass rate and flip rate. Pure.
 */
export function compareSnapshots(
  base: RunSnapshot,
  run: RunSnapshot,
  options: CompareOptions = DEFAULT_COMPARE,
): CompareResult {
  const flips: Flip[] = [];
  const acc = new Map<string, { base: Tally; run: Tally; pairs: PairedCases }>();
  const added = Object.keys(run.cases)
    .filter((k) => !(k in base.cases))
    .sort();
  const removed = Object.keys(base.cases)
    .filter((k) => !(k in run.cases))
    .sort();
  for (const key of Object.keys(run.cases).sort()) {
    const b = base.cases[key];
    const r = run.cases[key];
    if (!b || !r) continue;
    for (const grader of Object.keys(r).sort()) {
      const bt = b[grader];
      const rt = r[grader];
      if (!bt || !rt || bt[1] === 0 || rt[1] === 0) continue;
      const from = verdict(bt);
      const to = verdict(rt);
      if (from !== to) flips.push({ key, grader, from, to, base: bt, run: rt });
      const id = `${cellOf(key)}\u0000${grader}`;
      let a = acc.get(id);
      if (!a) {
        a = { base: [0, 0], run: [0, 0], pairs: new PairedCases() };
        acc.set(id, a);
      }
      a.base = [a.base[0] + bt[0], a.base[1] + bt[1]];
      a.run = [a.run[0] + rt[0], a.run[1] + rt[1]];
      a.pairs.add(bt, rt);
    }
  }
  const cells: CellDelta[] = [];
  const noise: NoiseModel[] = [];
  for (const [id, a] of acc) {
    const [cell = '', grader = ''] = id.split('\u0000');
    const meta = run.cells[cell] ?? base.cells[cell];
    const paired = a.pairs.summary();
    const p = signFlipTest(paired.scores);
    let casesWorse = 0;
    let casesBetter = 0;
    for (const [score, count] of paired.scores) {
      if (score > 0) casesWorse += count;
      else if (score < 0) casesBetter += count;
    }
    noise.push(paired.noise);
    cells.push({
      renderer: meta?.renderer ?? cell.split('|')[0] ?? cell,
      provider: meta?.provider ?? cell.split('|').slice(1).join('|'),
      grader,
      base: a.base,
      run: a.run,
      delta: a.run[0] / a.run[1] - a.base[0] / a.base[1],
      worse: paired.worse,
      better: paired.better,
      casesWorse,
      casesBetter,
      p,
      pAdjusted: p,
      significant: false,
      regression: false,
      detect: {
        drop: null,
        power: DETECT_POWER,
        cases: paired.cases,
        repeats: Math.round(1 / paired.noise.invRepeatsRun),
        baseRate: paired.noise.rate,
        flipRate: flipRate(paired.noise),
        flipMeasured: paired.noise.flipMeasured,
      },
    });
  }
  const rule = { alpha: options.alpha, comparisons: cells.length, maxRegression: options.maxRegression };
  cells.forEach((c, i) => {
    c.detect.drop = detectableDrop(noise[i] as NoiseModel, rule);
  });
  holm(cells, options.alpha);
  for (const c of cells) c.regression = c.significant && c.delta < 0 && -c.delta > options.maxRegression + 1e-9;
  cells.sort(
    (x, y) =>
      x.delta - y.delta ||
      x.renderer.localeCompare(y.renderer) ||
      x.provider.localeCompare(y.provider) ||
      x.grader.localeCompare(y.grader),
  );
  return {
    baseRunId: base.runId,
    runId: run.runId,
    configChanged: base.configHash !== run.configHash,
    options,
    cells,
    flips,
    added,
    removed,
  };
}

/** Holm–Bonferroni step-down: sets pAdjusted (monotone) and significant at family-wise level alpha. */
function holm(cells: CellDelta[], alpha: number): void {
  const order = [...cells].sort((a, b) => a.p - b.p);
  const m = order.length;
  let running = 0;
  order.forEach((c, i) => {
    running = Math.max(running, Math.min(1, (m - i) * c.p));
    c.pAdjusted = running;
    c.significant = running < alpha;
  });
}
