import { appendFileSync } from 'node:fs';
import type { FinishedRun } from '../gate/finish-run.js';
import { visibleInline } from '../util/visible-text.js';

/**
 * What every command that makes a run prints at its end: the summary on stdout (with `quiet`, only its verdict and
 * matrix: the whole of it is in summary.md) and appended to $GITHUB_STEP_SUMMARY in Actions, then the gate's lines on
 * stderr.
 */
export function printFinished(
  finished: Pick<FinishedRun, 'summary' | 'brief' | 'lines'>,
  opts: { quiet?: boolean } = {},
): void {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, finished.summary);
  process.stdout.write(`\n${opts.quiet ? finished.brief : finished.summary}`);
  // each gate line is one line: a label or a baseline's run id holding a line feed cannot add a line of its own
  for (const line of finished.lines) process.stderr.write(`${visibleInline(line)}\n`);
}
