/**
 * `node --import tsx bench/tune-accuracy.ts [--seeds N]`: does `toolgauge tune` find a strategy as good as the full
 * grid's best, for fewer model calls? On the offline personas and the three bundled suites, for each seed: the full
 * grid (every candidate of the default space on every case, for every persona) is run, then tune() races on the same
 * seed (the calls each made are counted). For each persona the tune's recommendation is paired with the grid's best on every case (exact McNemar,
 * Holm-corrected over the persona's comparisons, as report.html's "Which strategy?" does): a recommendation the grid
 * does not find significantly worse is a hit. Once per grader the race can score by (correct-arguments, parseable). Prints a Markdown section and puts it in bench/results.md
 * (the section "Tune accuracy").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCells } from '../src/tune/run-cells.js';
import { outcomeOf, tune } from '../src/tune/tune.js';
import { newTuneInput } from '../src/tune/tune-input.js';
import { setUpTune } from '../src/tune/tune-setup.js';
import { mcnemarExact } from '../src/util/stats.js';
import { ROOT } from './paths.js';

const args = process.argv.slice(2);
const seedsArg = args.indexOf('--seeds');
const SEEDS = seedsArg >= 0 ? Number(args[seedsArg + 1]) : 10;
const SUITES = ['excel', 'economist', 'coder'];
const PROVIDERS = [
  'sim:oracle',
  'sim:guesser',
  'sim:fence-wrapper',
  'sim:stopper',
  'sim:noisy',
  'sim:selector',
  'sim:detour',
];
/** Each grader is a tune of its own: correct-arguments (the right call), parseable (in the protocol asked for). */
const GRADERS = ['correct-arguments', 'parseable'];
const ALPHA = 0.05;

interface GridCell {
  pass: (boolean | null)[];
  tokens: number;
  calls: number;
}

/** Every candidate on every case for every persona; per persona, per strategy, the outcomes. */
async function fullGrid(seed: number, grader: string) {
  const input = newTuneInput({ suites: SUITES, providers: PROVIDERS, seed, grader }, ROOT);
  const setup = await setUpTune(input, ROOT, () => {});
  try {
    const grid = new Map<string, Map<string, GridCell>>();
    // one cell at a time, each record folded into its outcome at once: a grid's records held together would be
    // gigabytes of transcripts
    for (const provider of setup.providers) {
      const byStrategy = new Map<string, GridCell>();
      grid.set(provider.label, byStrategy);
      for (const strategy of setup.strategies) {
        const [records] = await runCells([{ strategy, provider, cases: setup.cases }], {
          pool: setup.pool,
          settings: setup.settings,
          concurrency: 8,
          signal: new AbortController().signal,
        });
        const cell: GridCell = { pass: [], tokens: 0, calls: 0 };
        for (const r of records!) {
          const o = outcomeOf(r!, grader);
          cell.pass.push(o.pass);
          cell.tokens += o.tokens;
          cell.calls += o.calls;
        }
        cell.tokens /= records!.length;
        byStrategy.set(strategy.label, cell);
        if (process.env.TG_BENCH_VERBOSE)
          process.stderr.write(
            `  grid ${provider.label} × ${strategy.label}: ${records!.length} cases, ${(performance.now() / 1000).toFixed(1)} s\n`,
          );
      }
    }
    return { grid, strategies: setup.strategies.map((s) => s.label), cases: setup.cases.length };
  } finally {
    await setup.pool.closeAll();
  }
}

const rateOf = (c: GridCell) => {
  const graded = c.pass.filter((p) => p !== null);
  return graded.length ? graded.filter(Boolean).length / graded.length : 0;
};

/** The grid's verdict on `chosen` for one persona: is it significantly worse than the best (Holm over the persona)? */
function judge(cells: Map<string, GridCell>, chosen: string) {
  const ranked = [...cells.entries()].sort((a, b) => rateOf(b[1]) - rateOf(a[1]) || a[1].tokens - b[1].tokens);
  const [bestLabel, best] = ranked[0]!;
  const tests = ranked.slice(1).map(([label, cell]) => {
    let worse = 0;
    let better = 0;
    cell.pass.forEach((p, i) => {
      const q = best.pass[i];
      if (p === null || q === null || p === undefined || q === undefined) return;
      if (q && !p) worse++;
      if (p && !q) better++;
    });
    return { label, p: mcnemarExact(worse, better), worse, better, adjusted: 1 };
  });
  const order = [...tests].sort((a, b) => a.p - b.p);
  let running = 0;
  order.forEach((t, i) => {
    running = Math.max(running, Math.min(1, (order.length - i) * t.p));
    t.adjusted = running;
  });
  const mine = tests.find((t) => t.label === chosen);
  const ok = chosen === bestLabel || !mine || mine.adjusted >= ALPHA || mine.worse <= mine.better;
  return {
    ok,
    /** The grid itself tells some strategy apart from the best: a race whose answer was not a given. */
    separates: tests.some((t) => t.adjusted < ALPHA && t.worse > t.better),
    best: bestLabel,
    bestRate: rateOf(best),
    rate: rateOf(cells.get(chosen)!),
    adjusted: mine?.adjusted ?? 1,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

interface GraderFigures {
  grader: string;
  rows: string[];
  hits: number;
  judged: number;
  seedsMet: number;
  shares: number[];
  misses: string[];
  /** Persona × seed races where the grid finds some strategy significantly worse than its best, and of them the hits. */
  separating: number;
  separatingHits: number;
}

async function raceFor(grader: string): Promise<GraderFigures> {
  const f: GraderFigures = {
    grader,
    rows: [],
    hits: 0,
    judged: 0,
    seedsMet: 0,
    shares: [],
    misses: [],
    separating: 0,
    separatingHits: 0,
  };
  for (let seed = 1; seed <= SEEDS; seed++) {
    const dir = mkdtempSync(join(tmpdir(), 'tg-tune-bench-'));
    try {
      const t0 = Date.now();
      const { grid, strategies, cases } = await fullGrid(seed, grader);
      const t1 = Date.now();
      const result = await tune({
        suites: SUITES,
        providers: PROVIDERS,
        seed,
        grader,
        out: join(dir, 'tune'),
        cwd: ROOT,
        ...(process.env.TG_BENCH_VERBOSE
          ? { onRound: (p: string, r: { round: number }) => process.stderr.write(`  tune ${p} round ${r.round}\n`) }
          : {}),
      });
      let gridCalls = 0;
      for (const byStrategy of grid.values()) for (const c of byStrategy.values()) gridCalls += c.calls;
      const share = result.calls.spent / gridCalls;
      f.shares.push(share);
      let seedHits = 0;
      for (const p of result.providers) {
        const chosen = p.recommended?.label;
        if (!chosen) continue;
        const verdict = judge(grid.get(p.provider)!, chosen);
        f.judged++;
        if (verdict.separates) {
          f.separating++;
          if (verdict.ok) f.separatingHits++;
        }
        if (verdict.ok) {
          f.hits++;
          seedHits++;
        } else {
          f.misses.push(
            `${grader}, seed ${seed}, ${p.provider}: ${chosen} (${pct(verdict.rate)}) against the grid's best ${verdict.best} (${pct(verdict.bestRate)}), Holm-adjusted p ${verdict.adjusted.toFixed(4)}`,
          );
        }
      }
      if (seedHits === result.providers.length) f.seedsMet++;
      f.rows.push(
        `| ${seed} | ${seedHits}/${result.providers.length} | ${result.calls.spent.toLocaleString('en-US')} | ${gridCalls.toLocaleString('en-US')} | ${pct(share)} |`,
      );
      process.stderr.write(
        `${grader} seed ${seed}: ${seedHits}/${result.providers.length} personas, ${result.calls.spent} of ${gridCalls} calls (${pct(share)}), ${strategies.length} candidates × ${cases} cases (grid ${((t1 - t0) / 1000).toFixed(0)} s, tune ${((Date.now() - t1) / 1000).toFixed(0)} s)\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return f;
}

async function main() {
  const started = Date.now();
  const figures: GraderFigures[] = [];
  for (const grader of GRADERS) figures.push(await raceFor(grader));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const section = [
    '## Tune accuracy',
    '',
    `Produced by \`node --import tsx bench/tune-accuracy.ts\` on ${new Date().toISOString()} (${((Date.now() - started) / 1000).toFixed(0)} s): ` +
      `the default space (12 candidates) on ${SUITES.join(', ')} (the cases the grader grades), ${PROVIDERS.length} offline personas, ${SEEDS} seeds (each seeds the race's sample and the personas), once per grader the race scores by. ` +
      'A seed meets the target when, for every persona, the full grid does not find the recommendation significantly worse than its best ' +
      "(exact McNemar, Holm over the persona's comparisons, alpha 0.05); the calls are the race's against the full grid's, all personas together.",
    '',
    '| figure | measured | target | met |',
    '|---|---:|---|:-:|',
    ...figures.flatMap((f) => [
      `| ${f.grader}: seeds where every persona's recommendation holds against the grid | ${f.seedsMet} of ${SEEDS} | ≥ 9 of 10 | ${f.seedsMet >= Math.ceil(SEEDS * 0.9) ? 'yes' : '**no**'} |`,
      `| ${f.grader}: recommendations that hold, over all personas and seeds | ${f.hits} of ${f.judged} | report | — |`,
      `| ${f.grader}: of them, races where the grid itself finds some strategy significantly worse than its best | ${f.separatingHits} of ${f.separating} hold | report | — |`,
      `| ${f.grader}: the race's model calls against the full grid's, mean (largest) | ${pct(mean(f.shares))} (${pct(Math.max(...f.shares))}) | ≤ 40% | ${Math.max(...f.shares) <= 0.4 ? 'yes' : '**no**'} |`,
    ]),
    '',
    ...figures.flatMap((f) => [
      `${f.grader}:`,
      '',
      '| seed | personas that hold | race calls | grid calls | share |',
      '|---:|---:|---:|---:|---:|',
      ...f.rows,
      '',
      ...(f.misses.length ? ['Misses:', '', ...f.misses.map((m) => `- ${m}`), ''] : []),
    ]),
  ].join('\n');
  process.stdout.write(`${section}\n`);
  const file = join(ROOT, 'bench', 'results.md');
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('\n## Tune accuracy');
  const before = at >= 0 ? text.slice(0, at) : text.replace(/\n+$/, '');
  const afterStart = at >= 0 ? text.indexOf('\n## ', at + 1) : -1;
  const after = afterStart >= 0 ? text.slice(afterStart) : '';
  writeFileSync(file, `${before}\n\n${section}${after}`.replace(/\n*$/, '\n'));
}

await main();
