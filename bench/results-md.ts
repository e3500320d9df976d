import { execFileSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import type { BenchResult } from './types.js';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  freeGiB: number;
  node: string;
  os: string;
  date: string;
  loadAverage: string;
  gitCommit: string;
}

export function describeMachine(): Machine {
  let gitCommit = 'unknown';
  try {
    gitCommit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: totalmem() / 2 ** 30,
    freeGiB: freemem() / 2 ** 30,
    node: process.version,
    os: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
    loadAverage: loadavg()
      .map((l) => l.toFixed(2))
      .join(' / '),
    gitCommit,
  };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function value(r: BenchResult): string {
  if (r.value === null) return '—';
  const v = Math.abs(r.value) >= 100 ? r.value.toLocaleString('en-US', { maximumFractionDigits: 0 }) : String(r.value);
  return `${v} ${r.unit}`.trim();
}

const verdict = (met: boolean | null) => (met === null ? '—' : met ? 'yes' : '**no**');

/** bench/results.md: the machine, then one row per figure. Pure. */
export function renderResults(
  m: Machine,
  results: BenchResult[],
  opts: { quick: boolean; loadAverageEnd?: string; note?: string },
): string {
  const lines = [
    '# toolgauge benchmarks',
    '',
    opts.quick ? '> BENCH_QUICK=1: reduced sizes, a smoke run — not the reported figures.\n' : '',
    `Produced by \`npm run bench\` on ${m.date} (commit ${m.gitCommit}).`,
    '',
    '| machine | |',
    '|---|---|',
    `| CPU | ${cell(m.cpu)} × ${m.cores} |`,
    `| memory | ${m.memoryGiB.toFixed(1)} GiB (${m.freeGiB.toFixed(1)} GiB free at start) |`,
    `| Node.js | ${m.node} (${m.os}) |`,
    `| load average at start (1/5/15 min) | ${m.loadAverage} |`,
    ...(opts.loadAverageEnd ? [`| load average at end (1/5/15 min) | ${opts.loadAverageEnd} |`] : []),
    '',
    ...(opts.note ? [opts.note, ''] : []),
    '| figure | measured | target | met | detail |',
    '|---|---:|---|:-:|---|',
    ...results.map(
      (r) =>
        `| ${cell(r.name)} | ${cell(value(r))} | ${cell(r.target || '—')} | ${verdict(r.met)} | ${cell(r.detail ?? '')} |`,
    ),
    '',
    'The machine is shared: figures vary with its load (see the load average). Throughput is wall-clock, peak RSS is',
    "GNU time's maximum resident set size of the measured process.",
    '',
    ...results.flatMap((r) => (r.section ? [`## ${r.section.title}`, '', r.section.markdown, ''] : [])),
  ];
  return lines.filter((l, i) => l !== '' || lines[i - 1] !== '').join('\n');
}
