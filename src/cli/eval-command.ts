import { evaluate } from '../api/evaluate.js';
import type { EvaluateControl, EvaluateOptions, EvaluateResult, EvaluateStart } from '../api/evaluate-types.js';
import { displayPath } from '../util/display-path.js';
import { evalInterruptStages, interruptInStages } from './interrupt.js';
import { printFinished } from './print-finished.js';
import { Progress } from './progress.js';

export interface EvalFlags extends EvaluateOptions {
  config?: string;
  quiet?: boolean;
}

export async function evalCommand(flags: EvalFlags): Promise<number> {
  return (await runEvalCommand(flags)).exitCode;
}

/**
 * `toolgauge eval`: evaluate() with Ctrl-C as its interruption, the start line and the progress on stderr, the
 * summary and the gate's lines printed; returns the result (evalCommand: its exit code). init prints the same way.
 */
export function runEvalCommand(flags: EvalFlags): Promise<EvaluateResult> {
  return printedEval(
    flags.quiet,
    (control) => evaluate(flags, control),
    (result) => result,
  );
}

/**
 * A call that runs an eval (evaluate, replay), printed as `toolgauge eval` prints: Ctrl-C in two stages, the start
 * line, the progress, then the summary, the gate's lines and how to resume an interrupted run.
 */
export async function printedEval<T>(
  quiet: boolean | undefined,
  call: (control: EvaluateControl) => Promise<T>,
  runOf: (value: T) => EvaluateResult | undefined,
): Promise<T> {
  // Ctrl-C: first no new case starts (those in flight finish and are saved), then those in flight are aborted. The
  // handlers are installed as the cases are about to start (before, Ctrl-C ends the process as usual).
  const stop = new AbortController();
  const abort = new AbortController();
  let stopListening: (() => void) | undefined;
  let progress: Progress | undefined;
  let value: T;
  try {
    value = await call({
      signal: stop.signal,
      abortSignal: abort.signal,
      onNote: (line) => process.stderr.write(`${line}\n`),
      onStart: (start) => {
        stopListening = interruptInStages(evalInterruptStages(stop, abort));
        progress = new Progress(start.total, process.stderr, quiet);
        process.stderr.write(`${startLine(start)}\n`);
      },
      onRecord: (record, { done }) => progress?.update(record, done),
    });
  } finally {
    stopListening?.();
  }
  const result = runOf(value);
  if (!result) return value;
  printFinished(result, { quiet: quiet === true });
  if (result.interrupted) {
    process.stderr.write(
      `Run interrupted: ${result.aggregate.total} finished cases are saved in ${displayPath(result.runLog)}.\nResume with: toolgauge eval --resume ${displayPath(result.runDir)}\n`,
    );
  }
  return value;
}

/** The run's first line: how many cases, of which plan, and where they go. */
function startLine(start: EvaluateStart): string {
  const matrix = `${start.suites} suite(s) × ${start.strategies} renderer(s) × ${start.providers} provider(s) × ${start.repeats} repeat(s)`;
  // a shard or a replay runs part of the plan: the count says which part, the matrix what it is part of
  const what =
    start.total === start.full && !start.part
      ? `${start.total} cases (${matrix})`
      : `${start.total} of the ${start.full} cases of ${matrix}${start.part ? ` (${start.part})` : ''}`;
  return `toolgauge: ${what} → ${displayPath(start.runDir)}`;
}
