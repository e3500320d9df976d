import { resolve } from 'node:path';
import { grade } from '../api/grade.js';
import { REPORT_FILES } from '../report/report-sink.js';
import { displayPath } from '../util/display-path.js';
import { abortOnInterrupt } from './interrupt.js';
import { printFinished } from './print-finished.js';
import { Progress } from './progress.js';

export interface GradeFlags {
  suite: string;
  outputs: string;
  /** Label of the renderer column (default `recorded`). */
  renderer?: string;
  /** Text protocol of `output` lines: python-call (default for imported BFCL suites), xml-tags (default), json, native. */
  protocol?: string;
  grader?: string[];
  /** Reports folder (default `reports`); the run goes to <out>/<run-id>/. */
  out?: string;
  /** `--shard i/n`: grade only the lines whose case hashes to shard i of n (as eval partitions cases). */
  shard?: string;
  quiet?: boolean;
}

/**
 * `toolgauge grade --suite S --outputs F.jsonl [--renderer R] [--protocol P] [--grader G…] [--out DIR] [--shard i/n]`:
 * grade() with Ctrl-C as its interruption, the progress on stderr and the summary printed. Exit 0 (2 on bad input,
 * 130 when interrupted: the lines graded so far are kept and reported).
 */
export async function gradeCommand(flags: GradeFlags): Promise<number> {
  // Ctrl-C stops the grading once the outputs are read (before, it ends the process as usual)
  const controller = new AbortController();
  let stopListening: (() => void) | undefined;
  let progress: Progress | undefined;
  let result: Awaited<ReturnType<typeof grade>>;
  try {
    result = await grade(
      {
        suite: flags.suite,
        outputs: flags.outputs,
        ...(flags.renderer !== undefined ? { renderer: flags.renderer } : {}),
        ...(flags.protocol !== undefined ? { protocol: flags.protocol } : {}),
        ...(flags.grader ? { graders: flags.grader } : {}),
        ...(flags.out !== undefined ? { out: flags.out } : {}),
        ...(flags.shard !== undefined ? { shard: flags.shard } : {}),
      },
      {
        signal: controller.signal,
        onInput() {
          stopListening = abortOnInterrupt(controller, 'stopping after the lines being graded');
        },
        onStart({ planned, runDir, header }) {
          const shard = header.shard;
          const part = shard ? ` (shard ${shard.index}/${shard.count})` : '';
          const source = flags.outputs === '-' ? 'stdin' : displayPath(resolve(flags.outputs));
          process.stderr.write(
            `toolgauge: grading ${planned} line(s)${part} of ${source} against ${header.suites[0]?.name} → ${displayPath(runDir)}\n`,
          );
          progress = new Progress(planned, process.stderr, flags.quiet);
        },
        onRecord: (record, { done }) => progress?.update(record, done),
      },
    );
  } finally {
    stopListening?.();
  }
  progress?.end();
  // -q hides the progress only, as eval's does: the summary is the command's answer
  printFinished(result, { quiet: flags.quiet === true });
  process.stderr.write(`grade: wrote run.jsonl, ${REPORT_FILES.join(', ')} in ${displayPath(result.runDir)}\n`);
  if (result.interrupted) {
    process.stderr.write(
      `grade: interrupted after ${result.aggregate.total} of the file's lines; every graded line is kept\n`,
    );
  }
  return result.exitCode;
}
