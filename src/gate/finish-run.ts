import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath } from '../config/load-yaml.js';
import { writeReports } from '../report/write-reports.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import { applyGate, type GateConfig } from './gate.js';

/**
 * Writes the reports of a run log made offline (merge, regrade) with the same writers as `eval`, prints the
 * summary and returns the gate's exit code.
 */
export async function finishRun(aggregate: RunAggregate, runDir: string, interrupted: boolean): Promise<number> {
  const gate = (aggregate.header.config.gate ?? { maxInfraErrorRate: 0.2 }) as GateConfig;
  const verdict = applyGate(aggregate, gate);
  const summary = await writeReports({
    runDir,
    runLog: join(runDir, 'run.jsonl'),
    displayDir: displayPath(runDir),
    aggregate,
    interrupted,
    gate: verdict,
  });
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, summary);
  process.stdout.write(`${summary}\n`);
  for (const line of verdict.lines) process.stderr.write(`${line}\n`);
  return verdict.exitCode;
}
