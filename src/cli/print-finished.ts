import { appendFileSync } from 'node:fs';
import type { FinishedRun } from '../gate/finish-run.js';

/**
 * What every command that makes a run prints at its end: the summary on stdout (with `quiet`, only its verdict and
 * matrix: the whole of it is in summary.md) and appended to $GITHUB_STEP_SUMMARY in Actions, then the gate's lines on
 * stderr.
 */
export function printFinished(finished: FinishedRun, opts: { quiet?: boolean } = {}): void {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, finished.summary);
  process.stdout.write(`\n${opts.quiet ? finished.brief : finished.summary}`);
  for (const line of finished.lines) process.stderr.write(`${line}\n`);
}
