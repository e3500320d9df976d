import { pairedDiffInterval } from '../report/strategy-comparison.js';
import { mcnemarExact } from '../util/stats.js';

/** One candidate's tally on the cases of a round's sample, as the round's tests need it. */
export interface Tally {
  /** Cases the grader graded. */
  graded: number;
  pass: number;
  rate: number;
  /** Mean prompt tokens per case (every case run, graded or not). */
  tokens: number;
}

/** A paired test of `candidate` against `other` on the cases both graded. */
export interface PairedTest {
  candidate: number;
  other: number;
  /** `other` is the round's leader (`worse`), or a cheaper candidate with a higher rate (`dominated`). */
  reason: 'worse' | 'dominated';
  /** Cases only the candidate passed / only the other passed. */
  onlyCandidate: number;
  onlyOther: number;
  /** Both passed / neither passed: with the discordant counts, the 2×2 table of the pair. */
  both: number;
  neither: number;
  /** Exact McNemar p-value (two-sided), and Holm-adjusted over every test of the round. */
  p: number;
  pAdjusted: number;
}

/** The pass (true), fail (false) or ungraded/not run (undefined or null) outcome of a candidate on a case. */
export type PassOf = (candidate: number, caseIndex: number) => boolean | null | undefined;

/** The 2×2 table of two candidates over `cases` (only the cases both graded). */
export function pairTable(passOf: PassOf, a: number, b: number, cases: readonly number[]) {
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  let neither = 0;
  for (const i of cases) {
    const x = passOf(a, i);
    const y = passOf(b, i);
    if (x === null || x === undefined || y === null || y === undefined) continue;
    if (x && y) both++;
    else if (x) onlyA++;
    else if (y) onlyB++;
    else neither++;
  }
  return { both, onlyA, onlyB, neither };
}

/**
 * Every test of one round: each candidate against the leader, and against each candidate that is cheaper (no more
 * prompt tokens) and ahead of it on pass rate (a domination test). p-values are Holm-adjusted over all of them, so
 * the chance of eliminating any candidate that is in truth as good stays at or under alpha within the round.
 */
export function roundTests(
  alive: readonly number[],
  leader: number,
  tallies: ReadonlyMap<number, Tally>,
  passOf: PassOf,
  cases: readonly number[],
): PairedTest[] {
  const tests: PairedTest[] = [];
  const add = (candidate: number, other: number, reason: PairedTest['reason']) => {
    const t = pairTable(passOf, candidate, other, cases);
    const p = mcnemarExact(t.onlyB, t.onlyA);
    tests.push({
      candidate,
      other,
      reason,
      onlyCandidate: t.onlyA,
      onlyOther: t.onlyB,
      both: t.both,
      neither: t.neither,
      p,
      pAdjusted: p,
    });
  };
  for (const c of alive) {
    if (c === leader) continue;
    add(c, leader, 'worse');
    const mine = tallies.get(c)!;
    for (const d of alive) {
      if (d === c || d === leader) continue;
      const theirs = tallies.get(d)!;
      if (theirs.tokens <= mine.tokens && theirs.rate > mine.rate) add(c, d, 'dominated');
    }
  }
  holm(tests);
  return tests;
}

/** Holm's step-down adjustment, in place (monotone in the sorted order, capped at 1). */
export function holm(tests: PairedTest[]): void {
  const order = [...tests].sort((x, y) => x.p - y.p);
  let running = 0;
  order.forEach((t, i) => {
    running = Math.max(running, Math.min(1, (order.length - i) * t.p));
    t.pAdjusted = running;
  });
}

/**
 * Survivors that agree on every case of the sample with a cheaper survivor (fewer prompt tokens, then listed first),
 * each with the one it is set aside for; none before the sample holds `minTie` cases.
 */
export function tiedWithCheaper(
  left: readonly number[],
  tallies: ReadonlyMap<number, Tally>,
  passOf: PassOf,
  sample: readonly number[],
  minTie: number,
): [number, number][] {
  if (sample.length < minTie) return [];
  const byCost = [...left].sort((a, b) => tallies.get(a)!.tokens - tallies.get(b)!.tokens || a - b);
  const kept: number[] = [];
  const out: [number, number][] = [];
  for (const c of byCost) {
    const graded = tallies.get(c)!.graded;
    const twin = kept.find((d) => {
      const t = pairTable(passOf, c, d, sample);
      const paired = t.both + t.onlyA + t.onlyB + t.neither;
      return paired >= minTie && t.onlyA + t.onlyB === 0 && paired === graded && paired === tallies.get(d)!.graded;
    });
    if (twin === undefined) kept.push(c);
    else out.push([c, twin]);
  }
  return out;
}

/** Every survivor at most `margin` below the leader with 95% confidence (Newcombe's paired interval). */
export function withinMargin(
  left: readonly number[],
  leader: number,
  passOf: PassOf,
  sample: readonly number[],
  margin: number,
): boolean {
  return left.every((c) => {
    if (c === leader) return true;
    const t = pairTable(passOf, c, leader, sample);
    if (t.both + t.onlyA + t.onlyB + t.neither === 0) return false;
    const [low] = pairedDiffInterval(t.both, t.onlyA, t.onlyB, t.neither);
    return low > -margin;
  });
}
