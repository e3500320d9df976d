import { wilson } from '../report/wilson.js';
import { seededRandom } from '../util/rng.js';
import { type PairedTest, roundTests, type Tally, tiedWithCheaper, withinMargin } from './round-tests.js';
import { nextSampleSize } from './sample-sizes.js';

/** What the race recommends among the candidates it could not tell apart. */
export type Objective = 'pass-rate' | 'pass-per-token';

export interface RaceSettings {
  /** Family-wise significance level of each round's eliminations (Holm). */
  alpha: number;
  /**
   * The race stops once every remaining candidate is, with 95% confidence, at most this far below the leader's pass
   * rate (paired interval): further cases could not separate them by more.
   */
  margin: number;
  /** Cases in the first round's sample. */
  firstRound: number;
  /** Each round's sample is this many times the one before (at least one case more). */
  growth: number;
  /**
   * From this many cases on, a candidate that agrees with a cheaper one on every case of the sample (no discordant
   * pair: the same pass rate) is set aside for it: 0 of n discordant cases bounds their rate of disagreement by about
   * 3/n (95%), and of two candidates that measure the same the objective would pick the cheaper.
   */
  minTie: number;
  objective: Objective;
}

export const RACE_DEFAULTS: RaceSettings = {
  alpha: 0.05,
  margin: 0.1,
  firstRound: 10,
  growth: 1.5,
  minTie: 15,
  objective: 'pass-rate',
};

/** How one candidate did on one case: pass or fail (null: the grader did not grade it, or an error), its cost. */
export interface CaseOutcome {
  pass: boolean | null;
  /** Prompt tokens the case cost (over all its turns). */
  tokens: number;
  /** Model calls the case made. */
  calls: number;
}

export interface Elimination {
  candidate: string;
  /** The candidate it lost to: the round's leader, a cheaper one ahead of it, or a cheaper one it tied with. */
  by: string;
  reason: PairedTest['reason'] | 'tied';
  /** Cases only this candidate passed / only the other passed, of the sample's cases both graded. */
  onlyThis: number;
  onlyOther: number;
  p: number;
  pAdjusted: number;
}

export interface RoundEvidence {
  round: number;
  /** Cases in the sample (the first `cases` of the race's order). */
  cases: number;
  /** Cases new in this round (run by every candidate still in the race). */
  newCases: number;
  /** Candidates raced this round. */
  candidates: number;
  leader: string;
  eliminated: Elimination[];
  /** Model calls this round's cases made. */
  calls: number;
}

export type StopReason = 'one-left' | 'indistinguishable' | 'all-cases' | 'budget' | 'interrupted';

export interface Standing {
  label: string;
  status: 'recommended' | 'indistinguishable' | 'eliminated';
  /** Cases it ran, and of them the cases graded and passed. */
  cases: number;
  graded: number;
  pass: number;
  rate: number;
  wilson95: [number, number];
  /** Mean prompt tokens per case. */
  tokens: number;
  calls: number;
  /** The round that eliminated it, and how. */
  eliminated?: { round: number } & Elimination;
  /** On the Pareto front of pass rate against prompt tokens (no other candidate better on one, as good on both). */
  pareto: boolean;
}

/**
 * A race of candidate strategies for one provider over a suite's cases (pure: the caller runs the cases). Every
 * candidate runs on a sample of the cases, the first ones of a seeded order; after each round the candidates
 * significantly worse than the leader (or than a cheaper candidate ahead of them) on the same cases are dropped
 * (exact McNemar, Holm-corrected); the sample grows and the survivors run only the new cases. It ends with one
 * candidate, with candidates it cannot tell apart (within `margin`), with every case run, or when stopped.
 */
export class Race {
  /** The order cases join the sample in: a permutation of 0…caseCount-1, fixed by the seed. */
  readonly order: number[];
  readonly rounds: RoundEvidence[] = [];
  stopReason: StopReason | undefined;
  private size = 0;
  private readonly alive: boolean[];
  private readonly outcomes: Map<number, CaseOutcome>[];
  private readonly eliminations = new Map<number, { round: number } & Elimination>();
  private pending: { round: number; size: number; newCases: number; candidates: number[] } | undefined;

  constructor(
    readonly candidates: readonly string[],
    readonly caseCount: number,
    seed: number | string,
    readonly settings: RaceSettings = RACE_DEFAULTS,
  ) {
    this.order = shuffled(caseCount, seededRandom('tune', seed));
    this.alive = candidates.map(() => true);
    this.outcomes = candidates.map(() => new Map());
    if (candidates.length === 0 || caseCount === 0) this.stopReason = 'all-cases';
    else if (candidates.length === 1) this.stopReason = 'one-left';
  }

  get done(): boolean {
    return this.stopReason !== undefined;
  }

  /** Indices of the candidates still in the race. */
  get survivors(): number[] {
    return this.candidates.map((_, i) => i).filter((i) => this.alive[i]);
  }

  /** Cases in the sample so far. */
  get sampleSize(): number {
    return this.size;
  }

  /** The next round's work (new cases × surviving candidates), or undefined when the race is over. */
  next(): { round: number; cases: number[]; candidates: number[] } | undefined {
    if (this.done) return undefined;
    const size = nextSampleSize(this.size, this.caseCount, this.settings);
    const candidates = this.survivors;
    this.pending = { round: this.rounds.length + 1, size, newCases: size - this.size, candidates };
    return { round: this.pending.round, cases: this.order.slice(this.size, size), candidates };
  }

  record(candidate: number, caseIndex: number, outcome: CaseOutcome): void {
    this.outcomes[candidate]!.set(caseIndex, outcome);
  }

  outcome(candidate: number, caseIndex: number): CaseOutcome | undefined {
    return this.outcomes[candidate]!.get(caseIndex);
  }

  /** Ends the race before its next round (the budget is spent, or the run was interrupted). */
  stop(reason: StopReason): void {
    this.stopReason ??= reason;
    this.pending = undefined;
  }

  /** Judges the round `next()` handed out, once every one of its cases was recorded. */
  judge(): RoundEvidence {
    const pending = this.pending;
    if (!pending) throw new Error('judge() without a round: call next() first');
    this.pending = undefined;
    this.size = pending.size;
    const sample = this.order.slice(0, this.size);
    const alive = pending.candidates;
    const tallies = new Map(alive.map((c) => [c, this.tally(c, sample)]));
    const leader = this.leaderOf(alive, tallies);
    const passOf = (c: number, i: number) => this.outcomes[c]!.get(i)?.pass;
    const tests = roundTests(alive, leader, tallies, passOf, sample);
    const eliminated: Elimination[] = [];
    for (const c of alive) {
      const lost = tests
        .filter((t) => t.candidate === c && t.onlyOther > t.onlyCandidate && t.pAdjusted < this.settings.alpha)
        .sort((x, y) => x.pAdjusted - y.pAdjusted || x.other - y.other)[0];
      if (!lost) continue;
      const e: Elimination = {
        candidate: this.candidates[c]!,
        by: this.candidates[lost.other]!,
        reason: lost.reason,
        onlyThis: lost.onlyCandidate,
        onlyOther: lost.onlyOther,
        p: lost.p,
        pAdjusted: lost.pAdjusted,
      };
      eliminated.push(e);
      this.eliminations.set(c, { round: pending.round, ...e });
      this.alive[c] = false;
    }
    const left = alive.filter((c) => this.alive[c]);
    for (const [c, twin] of tiedWithCheaper(left, tallies, passOf, sample, this.settings.minTie)) {
      const e: Elimination = {
        candidate: this.candidates[c]!,
        by: this.candidates[twin]!,
        reason: 'tied',
        onlyThis: 0,
        onlyOther: 0,
        p: 1,
        pAdjusted: 1,
      };
      eliminated.push(e);
      this.eliminations.set(c, { round: pending.round, ...e });
      this.alive[c] = false;
    }
    let calls = 0;
    for (const c of alive)
      for (const i of this.order.slice(this.size - pending.newCases, this.size)) {
        calls += this.outcomes[c]!.get(i)?.calls ?? 0;
      }
    const evidence: RoundEvidence = {
      round: pending.round,
      cases: this.size,
      newCases: pending.newCases,
      candidates: alive.length,
      leader: this.candidates[leader]!,
      eliminated,
      calls,
    };
    this.rounds.push(evidence);
    const survivors = this.survivors;
    if (survivors.length <= 1) this.stopReason = 'one-left';
    else if (withinMargin(survivors, leader, passOf, sample, this.settings.margin))
      this.stopReason = 'indistinguishable';
    else if (this.size >= this.caseCount) this.stopReason = 'all-cases';
    return evidence;
  }

  /** Every candidate's standing: on the cases it ran, with the recommendation and the Pareto front. */
  standings(): Standing[] {
    const all = this.candidates.map((_, c) => c);
    const ran = all.map((c) => [...this.outcomes[c]!.keys()]);
    const tallies = all.map((c) => this.tally(c, ran[c]!));
    const best = this.recommended(tallies);
    return all.map((c) => {
      const t = tallies[c]!;
      const eliminated = this.eliminations.get(c);
      let calls = 0;
      for (const o of this.outcomes[c]!.values()) calls += o.calls;
      return {
        label: this.candidates[c]!,
        status: eliminated ? 'eliminated' : c === best ? 'recommended' : 'indistinguishable',
        cases: ran[c]!.length,
        graded: t.graded,
        pass: t.pass,
        rate: t.rate,
        wilson95: wilson(t.pass, t.graded),
        tokens: t.tokens,
        calls,
        ...(eliminated ? { eliminated } : {}),
        pareto: t.graded > 0 && !tallies.some((o, d) => d !== c && o.graded > 0 && dominates(o, t)),
      };
    });
  }

  /** The survivor the objective prefers: the leader, or for pass-per-token the most passes per prompt token. */
  private recommended(tallies: Tally[]): number {
    const left = this.survivors;
    if (this.settings.objective === 'pass-rate') {
      return this.leaderOf(left, new Map(left.map((c) => [c, tallies[c]!])));
    }
    const value = (c: number) => tallies[c]!.rate / Math.max(1, tallies[c]!.tokens);
    return [...left].sort((a, b) => value(b) - value(a) || tallies[b]!.rate - tallies[a]!.rate || a - b)[0] ?? 0;
  }

  /** Highest pass rate; fewer prompt tokens break a tie, then the order the candidates were listed in. */
  private leaderOf(alive: readonly number[], tallies: ReadonlyMap<number, Tally>): number {
    return [...alive].sort((a, b) => {
      const x = tallies.get(a)!;
      const y = tallies.get(b)!;
      return y.rate - x.rate || x.tokens - y.tokens || a - b;
    })[0]!;
  }

  private tally(c: number, cases: readonly number[]): Tally {
    let graded = 0;
    let pass = 0;
    let tokens = 0;
    let run = 0;
    for (const i of cases) {
      const o = this.outcomes[c]!.get(i);
      if (!o) continue;
      run++;
      tokens += o.tokens;
      if (o.pass === null) continue;
      graded++;
      if (o.pass) pass++;
    }
    return { graded, pass, rate: graded ? pass / graded : 0, tokens: run ? tokens / run : 0 };
  }
}

/** `a` is at least as good as `b` on pass rate and prompt tokens, and better on one. */
function dominates(a: Tally, b: Tally): boolean {
  return a.rate >= b.rate && a.tokens <= b.tokens && (a.rate > b.rate || a.tokens < b.tokens);
}

/** 0…n-1 in a seeded order (Fisher–Yates). */
function shuffled(n: number, random: () => number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
