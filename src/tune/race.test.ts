import { describe, expect, it } from 'vitest';
import { RACE_DEFAULTS, Race, type RaceSettings } from './race.js';
import { holm, type PairedTest } from './round-tests.js';

/** Runs a race to its end with outcomes from `pass` (a candidate's tokens per case from `tokens`). */
function race(
  pass: (candidate: number, caseIndex: number) => boolean,
  tokens: number[],
  cases = 60,
  seed = 1,
  settings: Partial<RaceSettings> = {},
) {
  const r = new Race(
    tokens.map((_, i) => `c${i}`),
    cases,
    seed,
    { ...RACE_DEFAULTS, ...settings },
  );
  let runs = 0;
  for (let next = r.next(); next; next = r.next()) {
    for (const c of next.candidates) {
      for (const i of next.cases) {
        r.record(c, i, { pass: pass(c, i), tokens: tokens[c]!, calls: 2 });
        runs++;
      }
    }
    r.judge();
  }
  return { r, runs };
}

describe('the race', () => {
  it('samples the cases in a seeded order: the same for a seed, another for another seed', () => {
    const a = new Race(['x', 'y'], 50, 7);
    const b = new Race(['x', 'y'], 50, 7);
    const c = new Race(['x', 'y'], 50, 8);
    expect(a.order).toEqual(b.order);
    expect(a.order).not.toEqual(c.order);
    expect([...a.order].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(a.next()?.cases).toEqual(a.order.slice(0, 10));
  });

  it('drops a candidate significantly worse than the leader, with its round and Holm-adjusted p-value', () => {
    // c0 passes every case, c1 one case in five, c2 fails one case in ten (the cases c0 passes too)
    const { r } = race((c, i) => (c === 0 ? true : c === 1 ? i % 5 === 0 : i % 10 !== 3), [100, 100, 100]);
    const first = r.rounds[0]!;
    expect(first.leader).toBe('c0');
    const out = r.rounds.flatMap((x) => x.eliminated.map((e) => ({ ...e, round: x.round })));
    const worse = out.find((e) => e.candidate === 'c1');
    expect(worse).toMatchObject({ by: 'c0', reason: 'worse' });
    expect(worse!.pAdjusted).toBeLessThan(0.05);
    expect(worse!.pAdjusted).toBeGreaterThanOrEqual(worse!.p);
    expect(worse!.onlyOther).toBeGreaterThan(worse!.onlyThis);
    const standings = r.standings();
    expect(standings.find((s) => s.label === 'c0')?.status).toBe('recommended');
    expect(standings.find((s) => s.label === 'c1')?.eliminated?.round).toBe(worse!.round);
    // the loser ran only the rounds it was in: fewer cases than the winner
    expect(standings.find((s) => s.label === 'c1')!.cases).toBeLessThan(standings.find((s) => s.label === 'c0')!.cases);
  });

  it('never drops a candidate on a difference that is not significant (a few discordant cases)', () => {
    const misses = new Set([5, 17]);
    const { r } = race((c, i) => c === 0 || !misses.has(i), [100, 100], 40, 1, { margin: 0.01 });
    expect(r.rounds.every((x) => x.eliminated.length === 0)).toBe(true);
    expect(r.stopReason).toBe('all-cases');
    expect(r.standings().filter((s) => s.status !== 'eliminated')).toHaveLength(2);
  });

  it('sets aside a candidate tied with a cheaper one on every case, from minTie cases on', () => {
    const { r, runs } = race((_c, i) => i % 4 !== 0, [300, 100, 200]);
    const tied = r.rounds.flatMap((x) => x.eliminated);
    expect(tied.map((e) => [e.candidate, e.by, e.reason])).toEqual([
      ['c2', 'c1', 'tied'],
      ['c0', 'c1', 'tied'],
    ]);
    // not in the first round (10 cases < minTie 15): the second round (15 cases) sets them aside
    expect(r.rounds[0]!.eliminated).toHaveLength(0);
    expect(r.rounds).toHaveLength(2);
    expect(r.stopReason).toBe('one-left');
    expect(runs).toBe(3 * 15);
    expect(r.standings().find((s) => s.status === 'recommended')?.label).toBe('c1');
  });

  it('drops a candidate dominated by a cheaper one ahead of it, even when the leader costs more', () => {
    // c0: the leader (all pass, dear); c1: cheap, passes all but every 10th; c2: dearer than c1, passes every 3rd
    const { r } = race((c, i) => (c === 0 ? true : c === 1 ? i % 10 !== 9 : i % 3 === 0), [1000, 100, 200], 60, 3);
    const e = r.rounds.flatMap((x) => x.eliminated).find((x) => x.candidate === 'c2');
    expect(e?.reason === 'worse' || e?.reason === 'dominated').toBe(true);
    expect(e!.pAdjusted).toBeLessThan(0.05);
  });

  it('stops once every candidate left is within the margin of the leader', () => {
    // two candidates that differ on one case in thirty: not significant, and soon within a 10-point margin
    const { r } = race((c, i) => (c === 0 ? true : i % 30 !== 7), [100, 100], 200);
    expect(r.stopReason).toBe('indistinguishable');
    expect(r.sampleSize).toBeLessThan(200);
  });

  it('with pass-per-token, recommends the survivor with the most passes per prompt token', () => {
    const pass = (c: number, i: number) => (c === 0 ? true : i % 30 !== 7);
    const rate = race(pass, [1000, 100], 200).r.standings();
    const perToken = race(pass, [1000, 100], 200, 1, { objective: 'pass-per-token' }).r.standings();
    expect(rate.find((s) => s.status === 'recommended')?.label).toBe('c0');
    expect(perToken.find((s) => s.status === 'recommended')?.label).toBe('c1');
  });

  it('marks the Pareto front of pass rate against prompt tokens', () => {
    const { r } = race((c, i) => (c === 0 ? true : c === 1 ? i % 2 === 0 : i % 2 === 1), [500, 100, 600], 20, 1, {
      minTie: 1000,
    });
    const front = Object.fromEntries(r.standings().map((s) => [s.label, s.pareto]));
    expect(front).toEqual({ c0: true, c1: true, c2: false });
  });

  it('is deterministic for a seed: the same rounds, eliminations and recommendation', () => {
    const pass = (c: number, i: number) => (c * 7 + i * 13) % 10 < 8 - c;
    const a = race(pass, [100, 200, 300, 400], 80, 5).r;
    const b = race(pass, [100, 200, 300, 400], 80, 5).r;
    expect(b.rounds).toEqual(a.rounds);
    expect(b.standings()).toEqual(a.standings());
  });

  it('ends at once with one candidate or no case', () => {
    expect(new Race(['only'], 10, 1).next()).toBeUndefined();
    expect(new Race(['a', 'b'], 0, 1).next()).toBeUndefined();
  });
});

describe('holm', () => {
  it('adjusts step-down, monotone in the order of the raw p-values, capped at 1', () => {
    const t = (p: number) => ({ p, pAdjusted: p }) as PairedTest;
    const tests = [t(0.01), t(0.04), t(0.03), t(0.5)];
    holm(tests);
    expect(tests.map((x) => Number(x.pAdjusted.toFixed(4)))).toEqual([0.04, 0.09, 0.09, 0.5]);
  });
});
