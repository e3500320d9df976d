import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotCases } from '../src/report/snapshot.js';
import { compareStrategies } from '../src/report/strategy-comparison.js';
import { RunAggregate } from '../src/run-log/aggregate.js';
import { readRunLog } from '../src/run-log/reader.js';
import type { CaseRecord, RunHeader } from '../src/run-log/schema.js';
import { passHatK } from '../src/util/stats.js';
import { type SyntheticCase, writeSyntheticRun } from './helpers/synthetic-run.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

// The aggregate keeps per-case counts in typed arrays by case ordinal. This checks every output built on them against
// the plain computation they replace: an object per case in a cell, keyed by suite/case|renderer|provider, with a
// record of [pass, n] per grader in the order the records named them.

const RENDERERS = ['full-details', 'names-only'];
const PROVIDERS = ['sim:oracle', 'sim:guesser'];
const GRADERS = ['parseable', 'correct-tool', 'correct-arguments', 'no-extra-calls'];

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function syntheticCases(): SyntheticCase[] {
  const rnd = random(7);
  const cases: SyntheticCase[] = [];
  for (let i = 0; i < 40; i++) {
    // the graders that apply to the case (one grader applies only to some), in config order or, for a few cases,
    // in another order on some repeats
    const applies = GRADERS.filter((_g, j) => j < 2 || (i + j) % 3 !== 0);
    for (const renderer of RENDERERS) {
      for (const provider of PROVIDERS) {
        // some cells leave a case out (a shard, a filter): pairing must skip it
        if (i % 11 === 5 && renderer === 'names-only' && provider === 'sim:guesser') continue;
        for (let repeat = 0; repeat < 3; repeat++) {
          const suite = i % 2 ? 'excel' : 'files';
          const order = i % 7 === 3 && repeat > 0 ? [...applies].reverse() : applies;
          const graded = repeat === 2 && i % 5 === 1 ? order.slice(1) : order;
          const skill = (renderer === 'full-details' ? 0.8 : 0.55) * (provider === 'sim:oracle' ? 1 : 0.7);
          cases.push({
            suite,
            case: `c${i}`,
            renderer,
            provider,
            repeat,
            pass: Object.fromEntries(graded.map((g) => [g, rnd() < skill])),
            ...(rnd() < 0.1 ? { error: { code: 'PROVIDER_ERROR', message: 'boom' } } : {}),
          });
        }
      }
    }
  }
  // Two case identities whose suite/case text is the same ("a/b" + "c" and "a" + "b/c") are one case, as before.
  cases.push({ suite: 'a/b', case: 'c', pass: { parseable: true } });
  cases.push({ suite: 'a', case: 'b/c', pass: { parseable: false } });
  // One case graded 300 times in a cell: counts wider than a byte.
  for (let r = 0; r < 300; r++) {
    cases.push({ suite: 'excel', case: 'many', repeat: r, pass: { parseable: r % 3 !== 0, 'correct-tool': r < 280 } });
  }
  // Finished out of plan order, as concurrent workers do: shuffle within windows.
  for (let w = 0; w < cases.length; w += 16) {
    const end = Math.min(cases.length, w + 16);
    for (let i = end - 1; i > w; i--) {
      const j = w + Math.floor(rnd() * (i - w + 1));
      [cases[i], cases[j]] = [cases[j] as SyntheticCase, cases[i] as SyntheticCase];
    }
  }
  return cases;
}

interface RefTally {
  suite: string;
  case: string;
  renderer: string;
  provider: string;
  graders: Record<string, { pass: number; n: number }>;
}

/** The per-case tallies as a Map of objects, the straightforward way. */
function referenceTallies(records: CaseRecord[]): Map<string, RefTally> {
  const out = new Map<string, RefTally>();
  for (const r of records) {
    const key = `${r.suite}/${r.case}|${r.renderer}|${r.provider}`;
    let t = out.get(key);
    if (!t) {
      t = { suite: r.suite, case: r.case, renderer: r.renderer, provider: r.provider, graders: {} };
      out.set(key, t);
    }
    if (r.error) continue;
    for (const g of r.grades) {
      t.graders[g.grader] ??= { pass: 0, n: 0 };
      const v = t.graders[g.grader] as { pass: number; n: number };
      v.n++;
      if (g.pass) v.pass++;
    }
  }
  return out;
}

function referencePassHatK(
  tallies: Map<string, RefTally>,
  renderer: string,
  provider: string,
  grader: string,
  k: number,
) {
  let sum = 0;
  let count = 0;
  for (const t of tallies.values()) {
    if (t.renderer !== renderer || t.provider !== provider) continue;
    const g = t.graders[grader];
    if (!g || g.n < k) continue;
    sum += passHatK(g.pass, g.n, k);
    count++;
  }
  return count ? sum / count : null;
}

function referencePairs(tallies: Map<string, RefTally>, mine: string, best: string, provider: string, grader: string) {
  const of = (renderer: string) => {
    const m = new Map<string, [number, number]>();
    for (const t of tallies.values()) {
      if (t.renderer !== renderer || t.provider !== provider) continue;
      const g = t.graders[grader];
      if (g && g.n > 0) m.set(`${t.suite}/${t.case}`, [g.pass, g.n]);
    }
    return m;
  };
  const bestTallies = of(best);
  let [a, b, c, d] = [0, 0, 0, 0];
  for (const [k, [mp, mn]] of of(mine)) {
    const o = bestTallies.get(k);
    if (!o) continue;
    const [bp, bn] = o;
    const m = Math.min(mn, bn);
    const x = Math.round((mp / mn) * m);
    const y = Math.round((bp / bn) * m);
    a += Math.min(x, y);
    b += Math.max(0, x - y);
    c += Math.max(0, y - x);
    d += m - Math.max(x, y);
  }
  return { pairs: a + b + c + d, onlyThis: b, onlyBest: c, both: a };
}

async function load() {
  const runDir = writeSyntheticRun(tempDir('tg-case-counts-'), 'run', syntheticCases(), {
    repeats: 3,
  });
  let header: RunHeader | undefined;
  const records: CaseRecord[] = [];
  for await (const r of readRunLog(join(runDir, 'run.jsonl'))) {
    if (r.type === 'header') header = r;
    else if (r.type === 'case') records.push(r);
  }
  const agg = new RunAggregate(header as RunHeader);
  for (const r of records) agg.add(r);
  return { agg, records, tallies: referenceTallies(records) };
}

describe('RunAggregate per-case counts', () => {
  it('give the same pass^k as a Map of per-case objects, for every cell, grader and k', async () => {
    const { agg, records, tallies } = await load();
    expect(records.length).toBeGreaterThan(500);
    expect(records.some((r) => r.error)).toBe(true);
    for (const renderer of RENDERERS) {
      for (const provider of PROVIDERS) {
        for (const grader of [...GRADERS, 'unknown']) {
          for (const k of [1, 2, 3, 4]) {
            expect(agg.passHatK(renderer, provider, grader, k)).toBe(
              referencePassHatK(tallies, renderer, provider, grader, k),
            );
          }
        }
      }
    }
    expect(agg.passHatK('nope', 'sim:oracle', 'parseable')).toBeNull();
  });

  it('give the same snapshot entries, in the same order with graders in the same order', async () => {
    const { agg, tallies } = await load();
    const expected: [string, Record<string, [number, number]>][] = [];
    for (const [key, t] of tallies) {
      const graders = Object.fromEntries(Object.entries(t.graders).map(([g, v]) => [g, [v.pass, v.n]]));
      if (Object.keys(graders).length) expected.push([key, graders as Record<string, [number, number]>]);
    }
    const actual = [...snapshotCases(agg)];
    // JSON text: key order matters (run.json is written in this order)
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
    expect(actual.find(([k]) => k === 'excel/many|full-details|sim:oracle')?.[1]).toEqual({
      parseable: [200, 300],
      'correct-tool': [280, 300],
    });
  });

  it('pair strategies case by case as the per-case Maps did', async () => {
    const { agg, tallies } = await load();
    const all = compareStrategies(agg);
    expect(all.length).toBe(PROVIDERS.length * GRADERS.length);
    let compared = 0;
    for (const cmp of all) {
      for (const row of cmp.rows) {
        if (row.reference) continue;
        const ref = referencePairs(tallies, row.renderer, cmp.reference, cmp.provider, cmp.grader);
        if (ref.pairs === 0) {
          expect(row.vsBest).toBeNull();
          continue;
        }
        compared++;
        expect(row.vsBest).toMatchObject({
          pairs: ref.pairs,
          onlyThis: ref.onlyThis,
          onlyBest: ref.onlyBest,
          rate: (ref.both + ref.onlyThis) / ref.pairs,
          bestRate: (ref.both + ref.onlyBest) / ref.pairs,
        });
      }
    }
    expect(compared).toBeGreaterThan(4);
  });
});
