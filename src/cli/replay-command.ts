import { replay } from '../api/replay.js';
import { printedEval } from './eval-command.js';

export interface ReplayFlags {
  /** Only the cases that failed a grader or hit an error. */
  failures?: boolean;
  /** Call the live providers (recording new cassettes) instead of replaying the run's exchanges. */
  live?: boolean;
  concurrency?: number;
  quiet?: boolean;
  /** `--filter <glob>` (repeatable), as eval's: only the run's cases matching any. */
  filter?: string[];
  /** `--tag <tag>` (repeatable), as eval's: only the run's cases having any. */
  tag?: string[];
}

/**
 * `toolgauge replay <run-dir>`: replay(), printed as eval prints its run, then how the replay ended against the run
 * it replayed: with --failures, how many of the replayed cases still fail; else how many fail and how many of those
 * failed before.
 */
export async function replayCommand(runDir: string, flags: ReplayFlags): Promise<number> {
  const { quiet, ...options } = flags;
  const done = await printedEval(
    quiet,
    (control) => replay(runDir, options, control),
    (r) => r.run,
  );
  if (!done.run) {
    process.stderr.write(`replay: no ${flags.failures ? 'failing ' : ''}cases in ${runDir}; nothing to re-run\n`);
    return 0;
  }
  if (!done.run.interrupted) {
    const { failing, replayed, wereFailing, source } = done;
    const before = [...failing].filter((k) => wereFailing.has(k)).length;
    process.stderr.write(
      flags.failures
        ? `replay: ${failing.size} of ${replayed.size} replayed cases still fail (were failing in ${source})\n`
        : `replay: ${failing.size} of ${replayed.size} replayed cases fail (${before} of them were failing in ${source})\n`,
    );
  }
  return done.exitCode;
}
