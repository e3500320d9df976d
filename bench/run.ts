/**
 * `npm run bench`: builds the CLI, runs every benchmark one after another (never in parallel: they measure the
 * machine) and writes bench/results.md with the machine description and a figure/target/met table.
 * BENCH_QUICK=1 shrinks the sizes for a smoke run (its results are labelled as such); BENCH_NO_BUILD=1 skips the build;
 * BENCH_ONLY=<file,…> runs only those benchmarks; BENCH_NOTE=<text> is printed under the machine table.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths.js';
import { describeMachine, renderResults } from './results-md.js';
import type { BenchResult } from './types.js';

const quick = process.env.BENCH_QUICK === '1';
/** BENCH_ONLY=suite-load.ts,mcnemar.ts runs only those files (a partial run never overwrites bench/results.md). */
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);

interface Entry {
  file: string;
  exportName: string;
  label: string;
  args?: unknown[];
}

const ENTRIES: Entry[] = [
  { file: 'offline-grading.ts', exportName: 'benchOfflineGrading', label: '(a) offline grading throughput' },
  {
    file: 'schema-subset.ts',
    exportName: 'benchSchemaSubset',
    label: 'offline grading without the schema subset',
    ...(quick ? { args: [1] } : {}),
  },
  { file: 'parser-adversarial.ts', exportName: 'benchParserAdversarial', label: 'parser on adversarial replies' },
  {
    file: 'suite-load.ts',
    exportName: 'benchSuiteLoad',
    label: 'suite loading, YAML',
    ...(quick ? { args: [2_000, 1, 10_000] } : {}),
  },
  { file: 'mcnemar.ts', exportName: 'benchMcnemar', label: 'exact McNemar test' },
  { file: 'mcnemar.ts', exportName: 'benchSignFlip', label: 'paired sign-flip test' },
  {
    file: 'eval-matrix.ts',
    exportName: 'benchEvalMatrix',
    label: '(b, e) eval matrix vs promptfoo',
    ...(quick ? { args: [{ sizes: [200], big: 2_000, rounds: 1 }] } : {}),
  },
  { file: 'provider-overhead.ts', exportName: 'benchProviderOverhead', label: '(c) live loop vs wire mock' },
  { file: 'startup.ts', exportName: 'benchStartup', label: '(d) start-up', ...(quick ? { args: [2] } : {}) },
  { file: 'stdio-roundtrip.ts', exportName: 'benchStdioRoundtrip', label: 'MCP stdio round trip' },
  {
    file: 'soak.ts',
    exportName: 'benchSoak',
    label: 'soak under faults and kills',
    ...(quick ? { args: [{ cases: 1_000, minutes: 1 }] } : {}),
  },
];

function asResults(value: unknown): BenchResult[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((r): r is BenchResult => typeof r === 'object' && r !== null && 'name' in r);
}

async function runEntry(e: Entry): Promise<BenchResult[]> {
  const path = join(ROOT, 'bench', e.file);
  const unavailable = (why: string): BenchResult[] => [
    { name: e.label, value: null, unit: '', target: '', met: null, detail: why },
  ];
  if (!existsSync(path)) return unavailable(`not available (bench/${e.file} missing)`);
  const mod = (await import(path)) as Record<string, unknown>;
  const fn = mod[e.exportName];
  if (typeof fn !== 'function') return unavailable(`not available (bench/${e.file} does not export ${e.exportName})`);
  const t0 = performance.now();
  process.stderr.write(`bench: ${e.label}…\n`);
  try {
    const results = asResults(await (fn as (...a: unknown[]) => unknown)(...(e.args ?? [])));
    process.stderr.write(`bench: ${e.label} done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    return results.length ? results : unavailable('the benchmark returned no result');
  } catch (err) {
    return unavailable(`failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_NO_BUILD !== '1') {
    process.stderr.write('bench: building dist/ (npm run build)…\n');
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
        cwd: ROOT,
        stdio: 'inherit',
      });
    } catch {
      // tsc still wrote dist/src; the command line measured is the esbuild bundle, built from the sources below.
      process.stderr.write('bench: tsc reported type errors (see above); dist/src was written anyway\n');
    }
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle-cli.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
  const machine = describeMachine();
  const results: BenchResult[] = [];
  for (const e of ENTRIES) if (!only || only.includes(e.file)) results.push(...(await runEntry(e)));
  const loadAverageEnd = loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
  const md = renderResults(machine, results, { quick, loadAverageEnd, note: process.env.BENCH_NOTE });
  // A quick smoke run or a partial one never overwrites the reported figures.
  const file = quick || only ? join(tmpdir(), 'toolgauge-bench-results.partial.md') : join(ROOT, 'bench', 'results.md');
  writeFileSync(file, md);
  process.stdout.write(md);
  process.stderr.write(`bench: wrote ${file}\n`);
}

await main();
