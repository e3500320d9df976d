import { EXIT_INTERNAL, EXIT_USAGE } from '../errors.js';
import { failureReason } from '../util/write-failure.js';

type Stream = NodeJS.WriteStream;

/**
 * What becomes of a write error of standard output or standard error.
 *
 * A reader that goes away (`toolgauge eval | head -3`, a closed terminal, a CI log that stops reading) makes the next
 * write fail with EPIPE; unhandled, that error would kill the run half-way with exit code 1 (the gate's "failed") and
 * no reports. Output is only a view of the run: once its reader is gone, what would have been written there is
 * dropped, the run goes on to its end (run log, every report), and the exit code stays the command's own.
 *
 * Any other write error (`toolgauge schema > file-on-a-full-disk`, `> /dev/full`) means the output the user asked
 * for is incomplete: the command still runs to its end, then one line on stderr says so and the exit code is 3 (an
 * exit code of 2 or 130, or 3 already, is kept). A file's writes are synchronous and their error is delivered a tick
 * later, so the exit hook also reads the stream's `errored`, for a command that ends at once.
 */
export function watchOutputStreams(): void {
  const failures = new Map<Stream, unknown>();
  const note = (stream: Stream, e: unknown) => {
    if ((e as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') return;
    if (!failures.has(stream)) failures.set(stream, e);
  };
  for (const stream of [process.stdout, process.stderr]) stream.on('error', (e) => note(stream, e));
  process.on('exit', (code) => {
    for (const stream of [process.stdout, process.stderr]) if (stream.errored) note(stream, stream.errored);
    if (failures.size === 0) return;
    const out = failures.get(process.stdout);
    // (nothing can be said when standard error itself fails)
    if (out !== undefined && !failures.has(process.stderr)) {
      try {
        process.stderr.write(
          `toolgauge: cannot write to standard output: ${failureReason(out)}; the output is incomplete\n`,
        );
      } catch {}
    }
    if (code !== EXIT_USAGE && code !== EXIT_INTERNAL && code !== 130) process.exitCode = EXIT_INTERNAL;
  });
}
