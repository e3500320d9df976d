import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath } from '../config/load-yaml.js';
import { applyGate, type GateConfig } from '../gate/gate.js';
import type { RunAggregate } from '../report/aggregate.js';
import { renderSummary } from '../report/summary.js';

/** Writes summary.md beside a run log written offline (merge, regrade), prints it and returns the gate's exit code. */
export function finishRun(aggregate: RunAggregate, runDir: string, interrupted: boolean): number {
  const gate = (aggregate.header.config.gate ?? { maxInfraErrorRate: 0.2 }) as GateConfig;
  const verdict = applyGate(aggregate, gate);
  const summary = renderSummary(aggregate, { runDir: displayPath(runDir), interrupted, gateLines: verdict.lines });
  writeFileSync(join(runDir, 'summary.md'), summary);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, summary);
  process.stdout.write(`${summary}\n`);
  for (const line of verdict.lines) process.stderr.write(`${line}\n`);
  return verdict.exitCode;
}
