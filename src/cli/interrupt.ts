import { EXIT_INTERRUPTED, ToolgaugeError } from '../errors.js';

export { EXIT_INTERRUPTED };

/**
 * Turns the first Ctrl-C (or SIGTERM) into an abort of `controller`, so the command stops after the work in hand
 * and keeps every finished result; a second one exits at once. Returns the function that removes the handlers.
 */
export function abortOnInterrupt(controller: AbortController, stopping: string): () => void {
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT_INTERRUPTED);
    process.stderr.write(`\ninterrupted: ${stopping} (Ctrl-C again to quit at once)\n`);
    controller.abort(new ToolgaugeError('ABORTED', 'interrupted by the user'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
