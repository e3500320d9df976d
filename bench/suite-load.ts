import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REALISTIC, writeSuites } from './fixtures/gen-cases.js';
import { median } from './measure.js';
import { ROOT } from './paths.js';
import type { BenchResult } from './types.js';

const CHILD = join(ROOT, 'bench/suite-load-child.mjs');
/** Runs toolgauge with some of its modules replaced by stubs (bench/variants/register.mjs). */
const WITHOUT = join(ROOT, 'bench/variants/register.mjs');

interface Load {
  ok: boolean;
  ms: number;
  cpuMs: number;
  /** The most heap in use at any time: the largest heap before a garbage collection, or at the end. */
  peakHeapMiB: number;
  heapBeforeMiB: number;
  cases: number;
  error?: string;
}

/**
 * Loads a suite in a fresh process (`--trace-gc`, optionally a heap cap). `without: 'plain-yaml'` runs loadSuite with
 * the plain-subset parser stepping aside for every batch (js-yaml parses them all).
 */
function load(mode: 'before' | 'after', file: string, heapCapMb?: number, without?: 'plain-yaml'): Load {
  const args = [
    '--trace-gc',
    ...(heapCapMb ? [`--max-old-space-size=${heapCapMb}`] : []),
    ...(without ? ['--import', WITHOUT] : []),
  ];
  const r = spawnSync(process.execPath, [...args, CHILD, mode, file], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
    env: { ...process.env, TG_BENCH_WITHOUT: without ?? '' },
  });
  let peak = 0;
  let result: { ms: number; cpuMs: number; heapBeforeMiB: number; heapAfterMiB: number; cases: number } | undefined;
  for (const line of r.stdout.split('\n')) {
    const gc = /: (?:Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Sweep)[^\d]*([\d.]+) \(/.exec(line);
    if (gc) peak = Math.max(peak, Number(gc[1]));
    if (line.startsWith('RESULT ')) result = JSON.parse(line.slice(7));
  }
  if (r.status !== 0 || !result) {
    const why = (r.stderr || '').trim().split('\n').filter(Boolean).slice(-1)[0] ?? `exit ${r.status ?? r.signal}`;
    return {
      ok: false,
      ms: Number.NaN,
      cpuMs: Number.NaN,
      peakHeapMiB: peak,
      heapBeforeMiB: 0,
      cases: 0,
      error: why.slice(0, 160),
    };
  }
  return {
    ok: true,
    ms: result.ms,
    cpuMs: result.cpuMs,
    peakHeapMiB: Math.max(peak, result.heapAfterMiB),
    heapBeforeMiB: result.heapBeforeMiB,
    cases: result.cases,
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/**
 * Loading a YAML suite of N cases (the realistic workload's suite, block style): before (the located parser on the
 * whole file, then zod), after (loadSuite: the fast parser in batches, zod, the semantic checks) and loadSuite
 * without the plain-subset parser (js-yaml for every batch), in alternating fresh processes; the load's own CPU time
 * (median) and the peak heap in use during the process (max). Then under a 160 MB heap cap, and the loader at
 * 100,000 cases under it.
 */
export async function benchSuiteLoad(n = 20_000, rounds = 5, capBig = 100_000): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-suite-load-'));
  try {
    writeSuites(dir, n);
    const file = join(dir, REALISTIC.format === 'yaml' ? 'suite.yaml' : 'suite.json');
    const before: Load[] = [];
    const after: Load[] = [];
    const noPlain: Load[] = [];
    for (let i = 0; i < rounds; i++) {
      before.push(load('before', file));
      after.push(load('after', file));
      noPlain.push(load('after', file, undefined, 'plain-yaml'));
    }
    const failed = [...before, ...after, ...noPlain].find((l) => !l.ok);
    if (failed) throw new Error(`a load failed: ${failed.error}`);
    const side = (loads: Load[]) => ({
      ms: median(loads.map((l) => l.ms)),
      cpuMs: median(loads.map((l) => l.cpuMs)),
      heap: Math.max(...loads.map((l) => l.peakHeapMiB)),
    });
    const b = side(before);
    const a = side(after);
    const j = side(noPlain);
    const range = (loads: Load[]) =>
      `${fmt(Math.min(...loads.map((l) => l.cpuMs)))}–${fmt(Math.max(...loads.map((l) => l.cpuMs)))}`;
    const base = Math.min(...after.map((l) => l.heapBeforeMiB));
    const timeRatio = a.cpuMs / b.cpuMs;
    const heapRatio = (a.heap - base) / (b.heap - base);
    const capBefore = load('before', file, 160);
    const capAfter = load('after', file, 160);
    const bigDir = join(dir, 'big');
    writeSuites(bigDir, capBig);
    const capAfterBig = load('after', join(bigDir, 'suite.yaml'), 160);
    const cap256AfterBig = load('after', join(bigDir, 'suite.yaml'), 256);
    const cap256NoPlainBig = load('after', join(bigDir, 'suite.yaml'), 256, 'plain-yaml');
    const capText = (l: Load) =>
      l.ok ? `loads (${fmt(l.ms)} ms, peak heap ${fmt(l.peakHeapMiB)} MiB)` : `dies (${l.error})`;
    const detail = `${fmt(n)}-case YAML suite (${rounds} alternating fresh processes each; CPU time of the process during the load, median, wall time in brackets): before (yaml located parse + zod) ${fmt(b.cpuMs)} ms (${fmt(b.ms)} ms), peak heap ${fmt(b.heap)} MiB; after (loadSuite: plain-subset parser in batches + zod + checks) ${fmt(a.cpuMs)} ms (${fmt(a.ms)} ms), peak heap ${fmt(a.heap)} MiB; heap of a process before loading ~${fmt(base)} MiB`;
    return [
      {
        name: `suite loading CPU time, YAML, N=${fmt(n)}, after ÷ before`,
        value: Number(timeRatio.toFixed(3)),
        unit: '×',
        target: '≤ 0.1×',
        met: timeRatio <= 0.1,
        detail,
      },
      {
        name: `suite loading peak heap (above start-up), YAML, N=${fmt(n)}, after ÷ before`,
        value: Number(heapRatio.toFixed(3)),
        unit: '×',
        target: '≤ 0.1×',
        met: heapRatio <= 0.1,
        detail: `${fmt(b.heap - base)} MiB → ${fmt(a.heap - base)} MiB above the ~${fmt(base)} MiB a process holds before loading (the loaded suite itself included)`,
      },
      {
        name: 'suite loading under a 160 MB heap cap (--max-old-space-size=160)',
        value: capAfterBig.ok ? capBig : null,
        unit: 'cases',
        target: `${fmt(capBig)} cases load`,
        met: capAfterBig.ok,
        detail: `N=${fmt(n)}: before ${capText(capBefore)}; after ${capText(capAfter)}; N=${fmt(capBig)} after: ${capText(capAfterBig)}; with a 256 MB cap ${capText(cap256AfterBig)}`,
      },
      {
        name: `suite loading CPU time, YAML, N=${fmt(n)}, without the plain-subset parser ÷ with it`,
        value: Number((j.cpuMs / a.cpuMs).toFixed(3)),
        unit: '×',
        target: 'report',
        met: null,
        detail: `loadSuite with src/config/plain-yaml.ts stubbed out (bench/variants/: js-yaml parses every batch) ${fmt(j.cpuMs)} ms (${range(noPlain)}), peak heap ${fmt(j.heap)} MiB; with it ${fmt(a.cpuMs)} ms (${range(after)}); CPU time, median (min–max) of ${rounds} alternating fresh processes each; N=${fmt(capBig)} without it under a 256 MB cap: ${capText(cap256NoPlainBig)}. The hand-written parser stays while this is above 1.2× (docs/performance.md)`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
