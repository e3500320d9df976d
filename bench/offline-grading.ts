import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { RunAggregate } from '../src/run-log/aggregate.js';
import type { RunRecord } from '../src/run-log/schema.js';
import type { BenchResult } from './types.js';

// The compiled library (dist/src, built by `npm run bench`), as `toolgauge grade` runs it: not the TypeScript sources
// through tsx, whose per-closure helpers cost ~12% of a grader's time.
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src');
const { loadSuite } = (await import(
  join(DIST, 'config/load-suite.js')
)) as typeof import('../src/config/load-suite.js');
const { RUN_LOG_FORMAT } = (await import(join(DIST, 'run-log/schema.js'))) as typeof import('../src/run-log/schema.js');
const { graders } = (await import(join(DIST, 'graders/index.js'))) as typeof import('../src/graders/index.js');
const { gradeOutputs } = (await import(
  join(DIST, 'offline/grade-outputs.js')
)) as typeof import('../src/offline/grade-outputs.js');
const { writeReports } = (await import(
  join(DIST, 'report/write-reports.js')
)) as typeof import('../src/report/write-reports.js');
const { lineBatches } = (await import(
  join(DIST, 'offline/line-batches.js')
)) as typeof import('../src/offline/line-batches.js');
const { RunLogWriter } = (await import(join(DIST, 'run-log/writer.js'))) as typeof import('../src/run-log/writer.js');

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RECORDED = join(ROOT, 'tests', 'fixtures', 'bfcl-recorded');
const TOTAL = 20_000;
const TARGET = 50_000;

export interface OfflineGradingResult extends BenchResult {
  peakRssMb: number;
  /** CPU time (user + system) of the timed grading, ms. */
  cpuMs: number;
  /** Every report written from run.jsonl (as `toolgauge report` does; `grade` writes them as it goes), ms; not in `value`. */
  reportMs: number;
  /** The same lines with the parsing and grading taken out (see floorPass), cases/s: what no grader can beat. */
  floor: number;
}

/**
 * The ceiling of this machine for the run log as it is: each outputs file read once and every line JSON-parsed,
 * then the finished run-log records of the timed pass (held in memory, untimed) serialised, UTF-8-encoded and
 * written through the same RunLogWriter, fsync included. No reply is parsed and no grader runs, and the file is
 * read once where `gradeOutputs` reads it twice (validation first), so real grading can only be slower.
 */
async function floorPass(jobs: { outputs: string; distinct: number }[], dir: string): Promise<number> {
  // Only the records of the distinct lines are kept (the files repeat them in cycles): serialising the same object
  // again is the same work, and 20,000 records held at once would slow the collector down and bias the floor low.
  const records = jobs.map((job, i) =>
    readFileSync(join(dir, `run-${i}`, 'run.jsonl'), 'utf8')
      .split('\n')
      .slice(1, 1 + job.distinct)
      .map((l) => JSON.parse(l) as RunRecord),
  );
  const t0 = performance.now();
  let cases = 0;
  for (const [i, job] of jobs.entries()) {
    const writer = new RunLogWriter(join(dir, `floor-${i}.jsonl`));
    const out = records[i] as RunRecord[];
    let n = 0;
    for await (const lines of lineBatches(job.outputs)) {
      for (const line of lines) {
        JSON.parse(line);
        writer.write(out[n++ % out.length] as RunRecord);
        cases++;
      }
      writer.flush();
    }
    writer.close();
  }
  return Math.round(cases / ((performance.now() - t0) / 1000));
}

/**
 * A full garbage collection before timing, so the garbage of loading the suites (1.6 MB of YAML) is not collected
 * inside the timed region and billed to grading.
 */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

interface Job {
  count: number;
  /** How many of the lines are distinct (the recorded replies repeat in cycles). */
  distinct: number;
  outputs: string;
  suite: ReturnType<typeof loadSuite>;
}

/** One pass of `gradeOutputs` over every job, each into its own run directory under `dir`. */
async function gradeAll(jobs: Job[], dir: string, tag: string): Promise<RunAggregate[]> {
  const aggregates: RunAggregate[] = [];
  for (const [i, job] of jobs.entries()) {
    const { aggregate } = await gradeOutputs({
      suite: job.suite,
      outputsFile: job.outputs,
      runDir: join(dir, `${tag}-${i}`),
      header: {
        type: 'header',
        format: RUN_LOG_FORMAT,
        runId: `bench-${tag}-${i}`,
        toolgaugeVersion: 'bench',
        startedAt: new Date().toISOString(),
        gitCommit: null,
        configFile: job.suite.file,
        config: { repeats: 1 },
      },
      renderer: 'recorded',
      textProtocol: 'python-call',
      graders: Object.values(graders),
    });
    aggregates.push(aggregate);
  }
  return aggregates;
}

/** The recorded BFCL replies repeated to {@link TOTAL} lines, one outputs file per category in `dir`, with its suite. */
function prepareJobs(dir: string): Job[] {
  const byCategory = new Map<string, string[]>();
  for (const model of readdirSync(RECORDED, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(RECORDED, model.name))) {
      const lines = readFileSync(join(RECORDED, model.name, file), 'utf8')
        .split('\n')
        .filter(Boolean);
      const category = file.replace(/\.jsonl$/, '');
      byCategory.set(category, [...(byCategory.get(category) ?? []), ...lines]);
    }
  }
  const recorded = [...byCategory.values()].reduce((n, l) => n + l.length, 0);
  return [...byCategory.entries()].map(([category, lines]) => {
    const count = Math.round((TOTAL * lines.length) / recorded);
    const outputs = join(dir, `${category}.jsonl`);
    writeFileSync(outputs, `${Array.from({ length: count }, (_, i) => lines[i % lines.length]).join('\n')}\n`);
    return {
      count,
      distinct: Math.min(count, lines.length),
      outputs,
      suite: loadSuite(join(ROOT, 'suites', 'bfcl', `${category}.yaml`)),
    };
  });
}

/** The timed pass: one cold `gradeOutputs` per job after a full garbage collection; wall seconds and CPU time. */
async function timedPass(
  jobs: Job[],
  dir: string,
): Promise<{ cases: number; seconds: number; cpuMs: number; aggregates: RunAggregate[] }> {
  const cases = jobs.reduce((n, j) => n + j.count, 0);
  collectGarbage();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const aggregates = await gradeAll(jobs, dir, 'run');
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { cases, seconds, cpuMs: Math.round((cpu.user + cpu.system) / 1000), aggregates };
}

/**
 * Issue 6: offline grading throughput. The 2,356 recorded BFCL replies are repeated to 20,000 lines and graded
 * with every built-in grader against the imported suites, exactly as `toolgauge grade` does. Timed (`value`): one
 * cold pass of `gradeOutputs` per suite: reading the outputs file twice (validation pass, grading pass), parsing each
 * reply, every grader, the aggregate, and run.jsonl written and fsynced. Not timed: process start, module loading,
 * loading the suites, writing the outputs files. The report phase (every report written from run.jsonl) is timed
 * separately (`reportMs`). Results are not cached across lines: a repeated line is graded again in full.
 * Target ≥ 50,000 cases/s.
 */
export async function benchOfflineGrading(): Promise<OfflineGradingResult> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-bench-grade-'));
  const jobs = prepareJobs(dir);
  const { cases, seconds, cpuMs, aggregates } = await timedPass(jobs, dir);
  const r0 = performance.now();
  for (const [i, aggregate] of aggregates.entries()) {
    const runDir = join(dir, `run-${i}`);
    await writeReports({
      runDir,
      runLog: join(runDir, 'run.jsonl'),
      displayDir: runDir,
      aggregate,
      interrupted: false,
    });
  }
  const reportMs = Math.round(performance.now() - r0);
  const value = Math.round(cases / seconds);
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  // After the peak RSS was read. Best of three: the floor is a bound, so the machine's noise should not lower it.
  const floor = Math.max(await floorPass(jobs, dir), await floorPass(jobs, dir), await floorPass(jobs, dir));
  // Context, not the figure (and after the peak RSS was read): the same work again in this process, its code
  // now compiled and warm.
  const w0 = performance.now();
  await gradeAll(jobs, dir, 'warm');
  const warm = Math.round(cases / ((performance.now() - w0) / 1000));
  rmSync(dir, { recursive: true, force: true });
  return {
    name: 'offline grading',
    value,
    unit: 'cases/s',
    target: `≥ ${TARGET.toLocaleString('en')} cases/s`,
    met: value >= TARGET,
    detail:
      `${cases} recorded BFCL outputs (2,356 repeated) × all graders, compiled build, one cold pass: read + validate + ` +
      `parse + grade + ` +
      `run.jsonl written; ${seconds.toFixed(2)} s (CPU ${(cpuMs / 1000).toFixed(2)} s); ` +
      `every report written from run.jsonl afterwards (as toolgauge report does) ${reportMs} ms, not included; a second pass in the same process (code warm) ` +
      `${warm.toLocaleString('en')} cases/s; the floor of the same lines with no parsing or grading (read once, ` +
      `JSON.parse, the finished records serialised and written) ${floor.toLocaleString('en')} cases/s; peak RSS ${peakRssMb} MB`,
    peakRssMb,
    cpuMs,
    reportMs,
    floor,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--timed-only')) {
    // The timed pass alone, for a comparison in fresh processes (bench/schema-subset.ts): {cases, seconds, cpuMs}.
    const dir = mkdtempSync(join(tmpdir(), 'tg-bench-grade-'));
    try {
      const { cases, seconds, cpuMs } = await timedPass(prepareJobs(dir), dir);
      process.stdout.write(`${JSON.stringify({ cases, seconds, cpuMs })}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    const result = await benchOfflineGrading();
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}
