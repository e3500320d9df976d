import { EXIT_INTERRUPTED, ToolgaugeError } from '../errors.js';

export { EXIT_INTERRUPTED };

const interrupted = () => new ToolgaugeError('ABORTED', 'interrupted by the user');

/**
 * Turns the first Ctrl-C (or SIGTERM) into an abort of `controller`, so the command stops after the work in hand
 * and keeps every finished result; a second one exits at once. For work whose pieces end in moments (grading a
 * line). Returns the function that removes the handlers.
 */
export function abortOnInterrupt(controller: AbortController, stopping: string): () => void {
  return interruptInStages([
    { say: `${stopping} (Ctrl-C again to quit at once)`, act: () => controller.abort(interrupted()) },
  ]);
}

/** One stage of an interruption: what is said on stderr, and what is done. */
export interface InterruptStage {
  say: string;
  act: () => void;
}

/**
 * Ctrl-C (or SIGTERM) in stages: the n-th signal prints `interrupted: <say>` and runs the n-th stage; the signal
 * after the last stage exits at once with 130. `eval` has two stages: stop starting cases (those in flight finish),
 * then abort those in flight. Returns the function that removes the handlers.
 */
export function interruptInStages(stages: InterruptStage[]): () => void {
  let interrupts = 0;
  const onSignal = () => {
    const stage = stages[interrupts++];
    if (!stage) process.exit(EXIT_INTERRUPTED);
    process.stderr.write(`\ninterrupted: ${stage.say}\n`);
    stage.act();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/** The two stages of an eval's interruption, on the run's `stop` and `abort` controllers. */
export function evalInterruptStages(stop: AbortController, abort: AbortController): InterruptStage[] {
  return [
    {
      say: 'no new case starts; the cases in flight finish (within their timeouts) and are saved, then the reports are written (Ctrl-C again to abort the cases in flight)',
      act: () => stop.abort(interrupted()),
    },
    {
      say: 'aborting the cases in flight (they are not saved: --resume runs them); the reports are written for the finished cases (Ctrl-C again to quit at once)',
      act: () => abort.abort(interrupted()),
    },
  ];
}
