import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSuite } from '../src/config/load-suite.js';
import { RUN_LOG_FORMAT } from '../src/contracts/run-log.js';
import { graders } from '../src/graders/index.js';
import { gradeOutputs } from '../src/graders/offline/grade-outputs.js';
import type { BenchResult } from './types.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RECORDED = join(ROOT, 'tests', 'fixtures', 'bfcl-recorded');
const TOTAL = 20_000;
const TARGET = 50_000;

export interface OfflineGradingResult extends BenchResult {
  peakRssMb: number;
}

/**
 * Issue 8: offline grading throughput. The 2,356 recorded BFCL replies are repeated to 20,000 lines and graded
 * with every built-in grader against the imported suites, exactly as `toolgauge grade` does (validate pass, parse,
 * grade, run.jsonl written line by line). Timed: the grading work only (suite files are loaded beforehand; process
 * start excluded). Target ≥ 50,000 cases/s.
 */
export async function benchOfflineGrading(): Promise<OfflineGradingResult> {
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
  const dir = mkdtempSync(join(tmpdir(), 'tg-bench-grade-'));
  const jobs = [...byCategory.entries()].map(([category, lines]) => {
    const count = Math.round((TOTAL * lines.length) / recorded);
    const outputs = join(dir, `${category}.jsonl`);
    writeFileSync(outputs, `${Array.from({ length: count }, (_, i) => lines[i % lines.length]).join('\n')}\n`);
    return { count, outputs, suite: loadSuite(join(ROOT, 'suites', 'bfcl', `${category}.yaml`)) };
  });
  const cases = jobs.reduce((n, j) => n + j.count, 0);
  const t0 = performance.now();
  for (const [i, job] of jobs.entries()) {
    await gradeOutputs({
      suite: job.suite,
      outputsFile: job.outputs,
      runDir: join(dir, `run-${i}`),
      header: {
        type: 'header',
        format: RUN_LOG_FORMAT,
        runId: `bench-${i}`,
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
  }
  const seconds = (performance.now() - t0) / 1000;
  rmSync(dir, { recursive: true, force: true });
  const value = Math.round(cases / seconds);
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  return {
    name: 'offline grading',
    value,
    unit: 'cases/s',
    target: `≥ ${TARGET.toLocaleString('en')} cases/s`,
    met: value >= TARGET,
    detail: `${cases} recorded BFCL outputs (2,356 repeated) × all graders, run.jsonl written; ${seconds.toFixed(2)} s; peak RSS ${peakRssMb} MB`,
    peakRssMb,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await benchOfflineGrading();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
