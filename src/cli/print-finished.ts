import { appendFileSync } from 'node:fs';
import type { FinishedRun } from '../gate/finish-run.js';

/**
 * What every command that makes a run prints at its end: the summary on stdout (and appended to
 * $GITHUB_STEP_SUMMARY in Actions), then the gate's lines on stderr.
 */
export function printFinished(finished: FinishedRun): void {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, finished.summary);
  process.stdout.write(`\n${finished.summary}`);
  for (const line of finished.lines) process.stderr.write(`${line}\n`);
}
