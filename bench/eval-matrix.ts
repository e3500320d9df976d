import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REALISTIC,
  type Workload,
  workloadName,
  writePromptfooConfig,
  writeSuites,
  writeWorkloadConfig,
} from './fixtures/gen-cases.js';
import { type Measured, measure, median } from './measure.js';
import { CLI, havePromptfoo, PROMPTFOO_BIN, promptfooEnv, ROOT } from './paths.js';
import type { BenchResult } from './types.js';

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** Every workload of the matrix, the realistic one first. */
export const WORKLOADS: Workload[] = (() => {
  const all: Workload[] = [];
  for (const format of ['yaml', 'json'] as const)
    for (const graders of ['all', 'one'] as const)
      for (const turns of [2, 1] as const)
        for (const provider of ['oracle', 'scripted'] as const) all.push({ format, graders, turns, provider });
  return all;
})();

const isRealistic = (w: Workload) =>
  w.format === REALISTIC.format &&
  w.graders === REALISTIC.graders &&
  w.turns === REALISTIC.turns &&
  w.provider === REALISTIC.provider;

export interface MatrixRow {
  what: string;
  n: number;
  runs: number;
  wallS: number;
  rssMiB: number | null;
  /** Bytes of run.jsonl per case (toolgauge only). */
  logBytesPerCase: number | null;
}

function check(m: Measured, what: string): Measured {
  if (m.code !== 0) throw new Error(`${what} exited ${m.code}: ${m.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  return m;
}

/** The size of the run.jsonl the run wrote under `out`, which is then removed (100k-case runs write ~0.5 GB). */
function takeRunLogBytes(out: string): number | null {
  let bytes: number | null = null;
  try {
    for (const run of readdirSync(out)) {
      const log = join(out, run, 'run.jsonl');
      try {
        bytes = (bytes ?? 0) + statSync(log).size;
      } catch {
        // not a run folder
      }
    }
  } catch {
    // no run written
  }
  rmSync(out, { recursive: true, force: true });
  return bytes;
}

/** Cold: no token-count cache (the same prompts run in every round would otherwise skip the tokenizer). */
async function runToolgauge(dir: string, w: Workload, n: number): Promise<{ m: Measured; logBytes: number | null }> {
  const out = join(dir, 'reports');
  const config = writeWorkloadConfig(dir, w, 'reports');
  const m = check(
    await measure(process.execPath, [CLI, 'eval', '-c', config, '-q'], {
      cwd: dir,
      env: { ...process.env, TOOLGAUGE_CACHE_DIR: 'off' },
    }),
    `toolgauge eval, ${workloadName(w)} (N=${n})`,
  );
  return { m, logBytes: takeRunLogBytes(out) };
}

/** promptfoo in its fastest honest configuration: no cache, nothing written, no table, no progress bar. */
async function runPromptfoo(dir: string, n: number, assertion: 'contains' | 'javascript'): Promise<Measured> {
  const config = writePromptfooConfig(dir, n, assertion);
  const args = ['eval', '-c', config, '--no-cache', '--no-write', '--no-share', '--no-table', '--no-progress-bar'];
  return check(
    await measure(PROMPTFOO_BIN, args, { cwd: dir, env: promptfooEnv(join(dir, 'pf-home')) }),
    `promptfoo eval, ${assertion} (N=${n})`,
  );
}

function promptfooVersion(): string {
  try {
    const pkg = JSON.parse(
      readFileSync(join(ROOT, 'integrations/promptfoo/node_modules/promptfoo/package.json'), 'utf8'),
    ) as { version: string };
    return pkg.version;
  } catch {
    return '?';
  }
}

function row(what: string, n: number, runs: Measured[], logBytes: (number | null)[] = []): MatrixRow {
  const rss = runs.map((r) => r.peakRssMiB).filter((x): x is number => x !== null);
  const bytes = logBytes.filter((x): x is number => x !== null);
  return {
    what,
    n,
    runs: runs.length,
    wallS: median(runs.map((r) => r.wallS)),
    rssMiB: rss.length ? Math.max(...rss) : null,
    logBytesPerCase: bytes.length ? median(bytes) / n : null,
  };
}

export interface MatrixOptions {
  /** Sizes at which every workload runs (once; from 20,000 cases the realistic one `rounds` times, alternating with promptfoo). */
  sizes: number[];
  /** Size at which only the realistic workload runs (once); 0 to skip. */
  big: number;
  rounds: number;
  /** Also run promptfoo (contains) once at `big` (minutes, and GBs of memory). */
  promptfooBig: boolean;
}

const DEFAULTS: MatrixOptions = { sizes: [2_000, 20_000], big: 100_000, rounds: 2, promptfooBig: false };

/**
 * The eval matrix: toolgauge's built CLI over N generated cases in YAML and JSON, with one grader and all, one model
 * turn and two (the tool result fed back), sim:oracle and the scripted provider; promptfoo over the same N prompts
 * with a file provider giving the scripted reply, its `contains` assertion (headline) and its JavaScript assertion.
 * For each: wall time (median), peak RSS (max) and, for toolgauge, bytes of run.jsonl per case. The realistic
 * workload (YAML, all graders, two turns, sim:oracle) and promptfoo run alternately (tg, pf contains, pf js, …) so
 * load drift on a shared machine hits every side.
 */
export async function benchEvalMatrix(options: Partial<MatrixOptions> = {}): Promise<BenchResult[]> {
  const opts = { ...DEFAULTS, ...options };
  const pf = havePromptfoo();
  const pfName = `promptfoo ${promptfooVersion()}`;
  const rows: MatrixRow[] = [];
  const failures: string[] = [];
  /** A run that failed is named under the table, and the matrix goes on. */
  const attempt = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (e) {
      failures.push(`${what}: ${e instanceof Error ? e.message.slice(0, 300) : String(e)}`);
      return undefined;
    }
  };
  const realistic = new Map<number, MatrixRow>();
  const pfRows = new Map<string, MatrixRow>();
  const sizes = [...opts.sizes, ...(opts.big ? [opts.big] : [])];
  for (const n of sizes) {
    const big = n === opts.big && !opts.sizes.includes(n);
    const dir = mkdtempSync(join(tmpdir(), `tg-matrix-${n}-`));
    try {
      writeSuites(dir, n);
      const tg: Measured[] = [];
      const tgBytes: (number | null)[] = [];
      const contains: Measured[] = [];
      const javascript: Measured[] = [];
      // Start-up dominates below 20,000 cases: one round there.
      const rounds = big || n < 20_000 ? 1 : opts.rounds;
      for (let r = 0; r < rounds; r++) {
        process.stderr.write(`bench: matrix N=${n} round ${r + 1}/${rounds}\n`);
        const { m, logBytes } = await runToolgauge(dir, REALISTIC, n);
        tg.push(m);
        tgBytes.push(logBytes);
        if (pf && (!big || opts.promptfooBig)) {
          const c = await attempt(`promptfoo contains, N=${n}`, () => runPromptfoo(dir, n, 'contains'));
          if (c) contains.push(c);
          if (!big) {
            const j = await attempt(`promptfoo javascript, N=${n}`, () => runPromptfoo(dir, n, 'javascript'));
            if (j) javascript.push(j);
          }
        }
      }
      const real = row(workloadName(REALISTIC), n, tg, tgBytes);
      rows.push(real);
      realistic.set(n, real);
      if (contains.length) {
        const c = row(`${pfName}, contains assertion`, n, contains);
        rows.push(c);
        pfRows.set(`contains ${n}`, c);
      }
      if (javascript.length) {
        const j = row(`${pfName}, JavaScript assertion`, n, javascript);
        rows.push(j);
        pfRows.set(`javascript ${n}`, j);
      }
      if (big) continue;
      for (const w of WORKLOADS) {
        if (isRealistic(w)) continue;
        const r = await attempt(`${workloadName(w)}, N=${n}`, () => runToolgauge(dir, w, n));
        if (r) rows.push(row(workloadName(w), n, [r.m], [r.logBytes]));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return headline(rows, realistic, pfRows, opts, pf, failures);
}

function headline(
  rows: MatrixRow[],
  realistic: Map<number, MatrixRow>,
  pfRows: Map<string, MatrixRow>,
  opts: MatrixOptions,
  pf: boolean,
  failures: string[],
): BenchResult[] {
  const out: BenchResult[] = [];
  const desc = (r: MatrixRow) =>
    `${fmt(r.n / r.wallS)} cases/s (median wall ${r.wallS.toFixed(2)} s of ${r.runs}), peak RSS ${r.rssMiB?.toFixed(0) ?? '?'} MiB`;
  for (const n of opts.sizes) {
    const tg = realistic.get(n);
    if (!tg) continue;
    const large = n >= 20_000;
    for (const assertion of ['contains', 'javascript'] as const) {
      const p = pfRows.get(`${assertion} ${n}`);
      if (!p) {
        if (!pf && assertion === 'contains')
          out.push({
            name: `(b) realistic workload, N=${fmt(n)}`,
            value: Number((n / tg.wallS).toFixed(0)),
            unit: 'cases/s',
            target: large ? '≥ 20× promptfoo' : 'report',
            met: null,
            detail: `toolgauge ${desc(tg)}; promptfoo not installed (npm ci --prefix integrations/promptfoo), no ratio`,
          });
        continue;
      }
      const ratio = p.wallS / tg.wallS;
      const rssRatio = tg.rssMiB !== null && p.rssMiB !== null ? tg.rssMiB / p.rssMiB : null;
      const headlineRow = assertion === 'contains';
      const target = headlineRow && large;
      out.push({
        name: `(b) realistic workload vs promptfoo (${assertion} assertion), N=${fmt(n)}`,
        value: Number(ratio.toFixed(2)),
        unit: '× promptfoo',
        target: target ? '≥ 20×' : 'report',
        met: target ? ratio >= 20 : null,
        detail: `toolgauge (${workloadName(REALISTIC)}) ${desc(tg)}; promptfoo (${assertion}) ${desc(p)}; alternating rounds`,
      });
      out.push({
        name: `(b) peak RSS, realistic workload vs promptfoo (${assertion} assertion), N=${fmt(n)}`,
        value: rssRatio === null ? null : Number(rssRatio.toFixed(3)),
        unit: '× promptfoo',
        target: target ? '≤ 0.2×' : 'report',
        met: target && rssRatio !== null ? rssRatio <= 0.2 : null,
        detail: `toolgauge ${tg.rssMiB?.toFixed(0) ?? '?'} MiB, promptfoo ${p.rssMiB?.toFixed(0) ?? '?'} MiB`,
      });
    }
  }
  const bigRow = opts.big ? realistic.get(opts.big) : undefined;
  const mid = realistic.get(20_000);
  if (bigRow) {
    out.push({
      name: `(e) peak RSS at ${fmt(opts.big)} cases, realistic workload`,
      value: bigRow.rssMiB === null ? null : Math.round(bigRow.rssMiB),
      unit: 'MiB',
      target: '≤ 200 MB',
      met: bigRow.rssMiB === null ? null : bigRow.rssMiB * 1.048576 <= 200,
      detail: `${workloadName(REALISTIC)}; wall ${bigRow.wallS.toFixed(1)} s (${fmt(opts.big / bigRow.wallS)} cases/s), no token-count cache`,
    });
    if (mid?.rssMiB && bigRow.rssMiB) {
      const growth = bigRow.rssMiB / mid.rssMiB;
      out.push({
        name: `(e) peak RSS growth from 20,000 to ${fmt(opts.big)} cases, realistic workload`,
        value: Number(growth.toFixed(2)),
        unit: '×',
        target: '≤ 1.2× (flat within 20%)',
        met: growth <= 1.2,
        detail: `${mid.rssMiB.toFixed(0)} MiB → ${bigRow.rssMiB.toFixed(0)} MiB`,
      });
    }
  }
  const logRow = bigRow ?? mid;
  if (logRow?.logBytesPerCase) {
    out.push({
      name: 'run log per case, realistic workload',
      value: Number((logRow.logBytesPerCase / 1024).toFixed(2)),
      unit: 'KiB/case',
      target: '≤ 1.5 KB/case',
      met: logRow.logBytesPerCase <= 1500,
      detail: `run.jsonl of the ${fmt(logRow.n)}-case run: ${fmt(logRow.logBytesPerCase)} bytes per case (two model turns, every grade)`,
    });
  }
  out.push({
    name: 'eval matrix',
    value: null,
    unit: '',
    target: '',
    met: null,
    detail: `${rows.length} rows, in the table "Eval matrix" below`,
    section: {
      title: 'Eval matrix',
      markdown: [matrixTable(rows, opts), ...(failures.length ? ['', `Failed: ${failures.join('; ')}`] : [])].join(
        '\n',
      ),
    },
  });
  return out;
}

function matrixTable(rows: MatrixRow[], opts: MatrixOptions): string {
  const lines = [
    '| workload | N | cases/s | median wall | peak RSS | run log per case | runs |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.what} | ${fmt(r.n)} | ${fmt(r.n / r.wallS)} | ${r.wallS.toFixed(2)} s | ${r.rssMiB?.toFixed(0) ?? '?'} MiB | ${r.logBytesPerCase === null ? '—' : `${fmt(r.logBytesPerCase)} B`} | ${r.runs} |`,
    ),
    '',
    `Every workload ran at N = ${opts.sizes.map((n) => fmt(n)).join(' and ')}; ` +
      (opts.big
        ? `at N = ${fmt(opts.big)} only the realistic workload (YAML, all graders, two turns, sim:oracle)${opts.promptfooBig ? ' and promptfoo with its contains assertion' : '; promptfoo was not run at this size (minutes per run and GBs of memory on this machine)'}. `
        : '') +
      'toolgauge: the built CLI, one renderer (full-details), concurrency 4, no token-count cache, every report written. ' +
      'promptfoo: the same prompts, a file provider giving the scripted reply, `--no-cache --no-write --no-share ' +
      '--no-table --no-progress-bar`, one model call per case.',
  ];
  return lines.join('\n');
}
