import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EvaluateResult } from '../api/evaluate-types.js';
import { EXIT_INTERRUPTED } from '../errors.js';
import { CassetteStore } from '../replay/cassette-store.js';
import { CASSETTE_FILE } from '../replay/cassettes.js';
import { cassettesFromRunLog } from '../replay/cassettes-from-run.js';
import { runKeys } from '../replay/failing-keys.js';
import { readHeader } from '../run-log/reader.js';
import { runLogOf } from '../run-log/run-folder.js';
import type { RunHeader } from '../run-log/schema.js';
import { type EvalFlags, runEvalCommand } from './eval-command.js';

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
 * `toolgauge replay <run-dir>`: runs a finished run's cases again with its config, into a new run folder. By
 * default every model answer comes from the run's cassettes.jsonl (or, for a run made without --record, from the
 * exchanges its run.jsonl holds), so nothing touches the network; `--live` asks the providers again.
 */
export async function replayCommand(runDir: string, flags: ReplayFlags): Promise<number> {
  const runLog = runLogOf(runDir, 'replay');
  const header = await readHeader(runLog);
  const onlyKeys = await runKeys(runLog, flags.failures === true);
  if (onlyKeys.size === 0) {
    process.stderr.write(`replay: no ${flags.failures ? 'failing ' : ''}cases in ${runDir}; nothing to re-run\n`);
    return 0;
  }
  const common = {
    baseRun: header,
    onlyKeys,
    subset: flags.failures ? `the cases that failed in ${header.runId}` : `the cases of ${header.runId}`,
    ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    ...(flags.quiet ? { quiet: true } : {}),
    ...(flags.filter ? { filter: flags.filter } : {}),
    ...(flags.tag ? { tag: flags.tag } : {}),
  };
  const outcome = await replayRun(runDir, runLog, header, flags, common);
  if (outcome.exitCode !== EXIT_INTERRUPTED) {
    const wereFailing = flags.failures ? onlyKeys : await runKeys(runLog, true);
    process.stderr.write(
      `${await stillFailing(runLogOf(outcome.runDir, 'replay'), wereFailing, header.runId, flags)}\n`,
    );
  }
  return outcome.exitCode;
}

/** The replayed run: live, from the run's cassettes, or from cassettes rebuilt from its run log. */
async function replayRun(
  runDir: string,
  runLog: string,
  header: RunHeader,
  flags: ReplayFlags,
  common: EvalFlags,
): Promise<EvaluateResult> {
  if (flags.live) return runEvalCommand({ ...common, record: true });
  const recorded = join(resolve(runDir), CASSETTE_FILE);
  if (existsSync(recorded)) return runEvalCommand({ ...common, replay: true, cassettes: recorded });
  const scratch = mkdtempSync(join(tmpdir(), 'toolgauge-replay-'));
  try {
    const file = join(scratch, CASSETTE_FILE);
    await cassettesFromRunLog(runLog, header, new CassetteStore(file));
    return await runEvalCommand({ ...common, replay: true, cassettes: file });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * How the replay ended against the run it replayed: with --failures, how many of the replayed cases still fail; else
 * how many fail and how many of those failed before.
 */
async function stillFailing(
  newLog: string,
  wereFailing: ReadonlySet<string>,
  source: string,
  flags: ReplayFlags,
): Promise<string> {
  const replayed = await runKeys(newLog, false);
  const failing = await runKeys(newLog, true);
  if (flags.failures) {
    return `replay: ${failing.size} of ${replayed.size} replayed cases still fail (were failing in ${source})`;
  }
  const before = [...failing].filter((k) => wereFailing.has(k)).length;
  return `replay: ${failing.size} of ${replayed.size} replayed cases fail (${before} of them were failing in ${source})`;
}
