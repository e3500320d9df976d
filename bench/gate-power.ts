/**
 * `npm run gate-power`: the Monte-Carlo behind docs/gate.md. Each simulated run pair is a baseline snapshot and a run
 * snapshot of one cell drawn from tests/helpers/bernoulli-model.ts (the model of the test provider plugin), compared
 * by the gate's own code (compareSnapshots). It prints, as Markdown:
 *  1. A/A false alarms (both runs from the same model) per repeats k, with `maxRegression: 0`: how often a cell is
 *     significant either way, and how often the gate would fail; and the rate of the test used before (net
 *     differences counted as McNemar pairs), for contrast.
 *  2. Power: for n and k, the "detects" figure the run prints (median over the simulated baselines) and the share of
 *     simulated runs with that drop that the gate flags (it should be 80%), then the flagged share at fixed drops
 *     beside the figure's own formula (gatePower).
 *  3. The same when the drop breaks whole cases instead of spreading over them (the figure's model does not hold).
 * Options: --reps N (default 2000 per row), --quick (400), --table false-alarms,power,broken (default: all). Seeds
 * are fixed: the output is the same on every machine.
 */
import { compareSnapshots } from '../src/report/compare.js';
import { gatePower, type NoiseModel } from '../src/report/gate-power.js';
import type { RunSnapshot } from '../src/report/snapshot.js';
import { SNAPSHOT_FORMAT } from '../src/report/snapshot.js';
import { mcnemarExact } from '../src/util/stats.js';
import { type BernoulliOptions, caseProbability, trialsOfCase } from '../tests/helpers/bernoulli-model.js';

const args = process.argv.slice(2);
const repsArg = args.indexOf('--reps');
const REPS = repsArg >= 0 ? Number(args[repsArg + 1]) : args.includes('--quick') ? 400 : 2000;
const GRADER = 'correct-arguments';
/** Run pairs per fixed-drop column (half as many: those columns only sketch the curve). */
const FIXED_REPS = Math.ceil(REPS / 2);

function snapshot(runId: string, o: BernoulliOptions, seed: number, n: number, k: number): RunSnapshot {
  const cases: RunSnapshot['cases'] = {};
  let pass = 0;
  for (let i = 0; i < n; i++) {
    const id = `sim/c${i}`;
    const passes = trialsOfCase(o, seed, id, k).filter(Boolean).length;
    pass += passes;
    cases[`${id}|full-details|plugin`] = { [GRADER]: [passes, k] };
  }
  return {
    format: SNAPSHOT_FORMAT,
    runId,
    configHash: 'sim',
    gitCommit: null,
    repeats: k,
    cells: {
      'full-details|plugin': {
        renderer: 'full-details',
        provider: 'plugin',
        simulated: true,
        cases: n * k,
        errors: 0,
        graders: { [GRADER]: [pass, n * k] },
      },
    },
    cases,
  };
}

interface Pair {
  p: number;
  significant: boolean;
  regression: boolean;
  before: number;
  detect: number | null;
}

/** One simulated baseline and run (seeds unique per scenario and repetition), compared as the gate compares. */
function pair(
  o: BernoulliOptions,
  drop: number | Pick<BernoulliOptions, 'thin' | 'broken'>,
  n: number,
  k: number,
  rep: number,
  gate: GateSettings,
): Pair {
  const seed = 1_000_003 * rep;
  const base = snapshot('base', o, seed + 1, n, k);
  const run = snapshot('run', { ...o, ...(typeof drop === 'number' ? { thin: drop } : drop) }, seed + 2, n, k);
  const c = compareSnapshots(base, run, gate).cells[0];
  if (!c) throw new Error('no cell');
  return {
    p: c.p,
    significant: c.significant,
    regression: c.regression,
    before: mcnemarExact(c.worse, c.better),
    detect: c.detect.drop,
  };
}

interface GateSettings {
  alpha: number;
  maxRegression: number;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const pts = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)} pts`);
/** 95% binomial half-width of a share estimated from REPS runs. */
const err = (x: number) => 1.96 * Math.sqrt((x * (1 - x)) / REPS);

function share(list: Pair[], f: (p: Pair) => boolean): number {
  return list.filter(f).length / list.length;
}

function meanRate(o: BernoulliOptions, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += caseProbability(o, `sim/c${i}`);
  return s / n;
}

function falseAlarms(): string[] {
  const models: [string, BernoulliOptions][] = [
    ['p = 0.8, every case alike', { p: 0.8, stream: 'aa-h' }],
    ['cases differ (pᵢ uniform in 0.3–1)', { p: 0.65, spread: 0.35, stream: 'aa-s' }],
    ['cases differ, half the runs repeat themselves', { p: 0.65, spread: 0.35, sticky: 0.5, stream: 'aa-c' }],
  ];
  const gate = { alpha: 0.05, maxRegression: 0 };
  const lines = [
    `### A/A false alarms (n = 200 cases, alpha 0.05, maxRegression 0; ${REPS} run pairs per row)`,
    '',
    '| model | k | significant (either way) | gate failed | before: net differences as McNemar pairs |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const [label, o] of models) {
    for (const k of [1, 3, 5, 10]) {
      const list = Array.from({ length: REPS }, (_, rep) => pair(o, 0, 200, k, rep, gate));
      const sig = share(list, (x) => x.significant);
      const failed = share(list, (x) => x.regression);
      const before = share(list, (x) => x.before < gate.alpha);
      lines.push(
        `| ${label} | ${k} | ${pct(sig)} ± ${pct(err(sig))} | ${pct(failed)} ± ${pct(err(failed))} | ${pct(before)} |`,
      );
    }
  }
  return lines;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

function power(): string[] {
  const gate = { alpha: 0.05, maxRegression: 0.05 };
  const drops = [0.05, 0.1, 0.15, 0.2];
  const lines = [
    `### Power of the default gate (alpha 0.05, maxRegression 5 pts, one cell; ${REPS} run pairs for "flagged at it", ${FIXED_REPS} per fixed drop)`,
    '',
    'A drop of d points: every passing trial fails with probability d / p̄. "detects" is the figure a run prints (median over the simulated baselines, 10th–90th percentile in brackets); "flagged at it" is the share of simulated runs with exactly that drop that the gate fails (the figure promises 80%). The fixed-drop columns give the simulated share flagged, then the formula\'s.',
    '',
    `| model | n | k | detects (80% power) | flagged at it | ${drops.map((d) => `${pts(d)} drop`).join(' | ')} |`,
    `|---|---:|---:|---:|---:|${drops.map(() => '---:').join('|')}|`,
  ];
  const models: [string, BernoulliOptions][] = [
    ['p = 0.8, every case alike', { p: 0.8, stream: 'pw-h' }],
    ['cases differ (pᵢ uniform in 0.3–1)', { p: 0.65, spread: 0.35, stream: 'pw-s' }],
  ];
  for (const [label, o] of models) {
    for (const n of [100, 200]) {
      const rate = meanRate(o, n);
      for (const k of [1, 3, 5, 10]) {
        const figures = Array.from({ length: Math.min(REPS, 400) }, (_, rep) => pair(o, 0, n, k, rep, gate).detect);
        const known = figures.filter((x): x is number => x !== null);
        const figure = known.length ? median(known) : null;
        const at =
          figure === null
            ? '–'
            : pct(
                share(
                  Array.from({ length: REPS }, (_, rep) => pair(o, figure / rate, n, k, rep, gate)),
                  (x) => x.regression,
                ),
              );
        const spread = known.length ? ` [${pts(quantile(known, 0.1))}–${pts(quantile(known, 0.9))}]` : '';
        const model = expectedModel(o, n, k);
        const cols = drops.map((d) => {
          const sim = share(
            Array.from({ length: FIXED_REPS }, (_, rep) => pair(o, d / rate, n, k, rep, gate)),
            (x) => x.regression,
          );
          return `${pct(sim)} (${pct(gatePower(model, { ...gate, comparisons: 1 }, d))})`;
        });
        lines.push(`| ${label} | ${n} | ${k} | ${pts(figure)}${spread} | ${at} | ${cols.join(' | ')} |`);
      }
    }
  }
  return lines;
}

/** The noise model of the true case probabilities (what an infinitely repeated baseline would measure). */
function expectedModel(o: BernoulliOptions, n: number, k: number): NoiseModel {
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    const p = caseProbability(o, `sim/c${i}`);
    s1 += p;
    s2 += p * p;
  }
  return {
    cases: n,
    rate: s1 / n,
    square: s2 / n,
    invRepeatsBase: 1 / k,
    invRepeatsRun: 1 / k,
    scale: k,
    flipMeasured: true,
  };
}

/**
 * The same figures when the drop breaks whole cases instead (a share of cases fails every repeat): repeats then add
 * nothing for the broken cases, so the figure, computed for a drop spread over the cases, is optimistic at k > 1.
 */
function broken(): string[] {
  const gate = { alpha: 0.05, maxRegression: 0.05 };
  const o: BernoulliOptions = { p: 0.8, stream: 'pw-b' };
  const lines = [
    `### When the drop breaks whole cases (p = 0.8, every case alike, default gate; ${REPS} run pairs per figure)`,
    '',
    'The run loses d points by a share d / p̄ of its cases failing every repeat. "detects" is the figure the run prints (it assumes a drop spread over the cases); "flagged at it" is the share of such runs the gate fails.',
    '',
    '| n | k | detects (80% power) | flagged at it | 10.0 pts drop | 20.0 pts drop |',
    '|---:|---:|---:|---:|---:|---:|',
  ];
  for (const n of [100, 200]) {
    const rate = meanRate(o, n);
    for (const k of [1, 3, 5, 10]) {
      const figures = Array.from({ length: Math.min(REPS, 400) }, (_, rep) => pair(o, 0, n, k, rep, gate).detect);
      const known = figures.filter((x): x is number => x !== null);
      const figure = known.length ? median(known) : null;
      const flagged = (d: number, reps: number) =>
        pct(
          share(
            Array.from({ length: reps }, (_, rep) => pair(o, { broken: d / rate }, n, k, rep, gate)),
            (x) => x.regression,
          ),
        );
      lines.push(
        `| ${n} | ${k} | ${pts(figure)} | ${figure === null ? '–' : flagged(figure, REPS)} | ${flagged(0.1, FIXED_REPS)} | ${flagged(0.2, FIXED_REPS)} |`,
      );
    }
  }
  return lines;
}

const tables: Record<string, () => string[]> = { 'false-alarms': falseAlarms, power, broken };
const tableArg = args.indexOf('--table');
const chosen = tableArg >= 0 ? (args[tableArg + 1] ?? '').split(',') : Object.keys(tables);
const t0 = Date.now();
const out: string[] = [];
for (const name of chosen) {
  const table = tables[name];
  if (!table) throw new Error(`--table ${name}: one of ${Object.keys(tables).join(', ')}`);
  out.push(...table(), '');
}
process.stdout.write(`${out.join('\n')}\n`);
process.stderr.write(`gate-power: ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
