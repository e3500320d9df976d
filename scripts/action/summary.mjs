// Step 4 of the toolgauge action: the job's step summary — the verdict, then the run's summary.md (regressions first,
// then the matrix), then where the full report is.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendSummary, input, verdictOf } from './action-io.mjs';

const code = Number(input('EXIT_CODE', '3'));
const runDir = input('RUN_DIR');
const shard = input('SHARD');
const artifact = input('ARTIFACT_NAME', 'toolgauge-report');
const icon = code === 0 ? '✅' : code === 1 ? '❌' : '⚠️';
const parts = [`## ${icon} toolgauge${shard ? ` (shard ${shard})` : ''}: ${verdictOf(code)} (exit ${code})\n\n`];
if (shard && code === 1) parts.push('The gate is applied once, to the merged run; a shard only has to finish.\n\n');
const summary = runDir ? join(runDir, 'summary.md') : '';
if (summary && existsSync(summary)) parts.push(readFileSync(summary, 'utf8').trimEnd(), '\n\n');
else parts.push('No run summary was written (see the step log).\n\n');
if (runDir) parts.push(`Full report: \`report.html\` in the artifact **${artifact}**.\n`);
appendSummary(parts.join(''));
