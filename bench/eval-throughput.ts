import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCases } from './fixtures/gen-cases.js';
import { type Measured, measure, median } from './measure.js';
import { CLI, havePromptfoo, PROMPTFOO_BIN, promptfooEnv } from './paths.js';
import type { BenchResult } from './types.js';

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** Cold: no token-count cache (the same prompts run in every round would otherwise skip the tokenizer). */
function runToolgauge(config: string, cwd: string): Promise<Measured> {
  return measure(process.execPath, [CLI, 'eval', '-c', config, '-q'], {
    cwd,
    env: { ...process.env, TOOLGAUGE_CACHE_DIR: 'off' },
  });
}

function runPromptfoo(config: string, cwd: string, home: string): Promise<Measured> {
  const args = ['eval', '-c', config, '--no-cache', '--no-write', '--no-share', '--no-table', '--no-progress-bar'];
  return measure(PROMPTFOO_BIN, args, { cwd, env: promptfooEnv(home) });
}

function check(m: Measured, what: string): Measured {
  if (m.code !== 0) throw new Error(`${what} exited ${m.code}: ${m.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  return m;
}

interface Side {
  wallS: number;
  rssMiB: number | null;
  casesPerS: number;
}

function summarise(runs: Measured[], n: number): Side {
  const wallS = median(runs.map((r) => r.wallS));
  const rss = runs.map((r) => r.peakRssMiB).filter((x): x is number => x !== null);
  return { wallS, rssMiB: rss.length ? Math.max(...rss) : null, casesPerS: n / wallS };
}

/**
 * (b) Eval throughput: the built CLI with a zero-latency scripted provider, one renderer and one grader over N
 * generated cases (inline tool, one model turn), against `promptfoo eval` on the same N prompts with a file
 * provider giving the same reply and an equivalent JavaScript assertion. Runs alternate (tg, pf, tg, pf…) so load
 * drift on a shared machine hits both sides; medians of wall time, max of peak RSS.
 */
export async function benchEvalThroughput(sizes = [2_000, 20_000], rounds = 2): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const pf = havePromptfoo();
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `tg-bench-${n}-`));
    try {
      const { toolgaugeConfig, promptfooConfig } = writeCases(dir, n);
      const tgRuns: Measured[] = [];
      const pfRuns: Measured[] = [];
      for (let i = 0; i < rounds; i++) {
        tgRuns.push(check(await runToolgauge(toolgaugeConfig, dir), `toolgauge eval (N=${n})`));
        if (pf)
          pfRuns.push(check(await runPromptfoo(promptfooConfig, dir, join(dir, 'pf-home')), `promptfoo eval (N=${n})`));
      }
      const tg = summarise(tgRuns, n);
      const detailTg = `toolgauge ${fmt(tg.casesPerS)} cases/s (median wall ${tg.wallS.toFixed(2)} s, peak RSS ${tg.rssMiB?.toFixed(0) ?? '?'} MiB)`;
      if (!pf) {
        out.push({
          name: `(b) eval throughput, N=${fmt(n)}`,
          value: tg.casesPerS,
          unit: 'cases/s',
          target: n >= 20_000 ? '≥ 20× promptfoo' : 'report (start-up dominates)',
          met: null,
          detail: `${detailTg}; promptfoo not installed (npm ci --prefix integrations/promptfoo), no ratio`,
        });
        continue;
      }
      const p = summarise(pfRuns, n);
      const ratio = tg.casesPerS / p.casesPerS;
      const rssRatio = tg.rssMiB !== null && p.rssMiB !== null ? tg.rssMiB / p.rssMiB : null;
      const detail = `${detailTg}; promptfoo ${fmt(p.casesPerS)} cases/s (median wall ${p.wallS.toFixed(2)} s, peak RSS ${p.rssMiB?.toFixed(0) ?? '?'} MiB); ${rounds} alternating rounds`;
      const large = n >= 20_000;
      out.push({
        name: `(b) eval throughput vs promptfoo, N=${fmt(n)}`,
        value: Number(ratio.toFixed(2)),
        unit: '× promptfoo',
        target: large ? '≥ 20×' : 'report (start-up dominates)',
        met: large ? ratio >= 20 : null,
        detail,
      });
      out.push({
        name: `(b) peak RSS vs promptfoo, N=${fmt(n)}`,
        value: rssRatio === null ? null : Number(rssRatio.toFixed(3)),
        unit: '× promptfoo',
        target: large ? '≤ 0.2×' : 'report',
        met: large && rssRatio !== null ? rssRatio <= 0.2 : null,
        detail: `toolgauge ${tg.rssMiB?.toFixed(0) ?? '?'} MiB, promptfoo ${p.rssMiB?.toFixed(0) ?? '?'} MiB`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

/** (e) Peak RSS of `toolgauge eval` over 100,000 cases (same generated suite as (b)). */
export async function benchPeakRss(n = 100_000): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), `tg-bench-${n}-`));
  try {
    const { toolgaugeConfig } = writeCases(dir, n);
    const m = check(await runToolgauge(toolgaugeConfig, dir), `toolgauge eval (N=${n})`);
    return {
      name: `(e) peak RSS at ${fmt(n)} cases`,
      value: m.peakRssMiB === null ? null : Math.round(m.peakRssMiB),
      unit: 'MiB',
      target: '≤ 200 MB',
      met: m.peakRssMiB === null ? null : m.peakRssMiB * 1.048576 <= 200,
      detail: `wall ${m.wallS.toFixed(1)} s (${fmt(n / m.wallS)} cases/s), no token-count cache`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
