import { appendFileSync } from 'node:fs';
import type { RunResult } from '../api/run-result.js';
import { visibleInline } from '../util/visible-text.js';

/**
 * What every command that makes a run prints at its end: the summary on stdout (with `quiet`, only its verdict and
 * matrix: the whole of it is in summary.md) and appended to $GITHUB_STEP_SUMMARY in Actions, then the gate's lines on
 * stderr.
 */
export function printFinished(
  run: Pick<RunResult, 'summary' | 'brief' | 'verdict'>,
  opts: { quiet?: boolean } = {},
): void {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, run.summary);
  process.stdout.write(`\n${opts.quiet ? run.brief : run.summary}`);
  // each gate line is one line: a label or a baseline's run id holding a line feed cannot add a line of its own
  for (const line of run.verdict.lines) process.stderr.write(`${visibleInline(line)}\n`);
}
