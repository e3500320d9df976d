import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CassetteStore } from '../replay/cassette-store.js';
import { CASSETTE_FILE } from '../replay/cassettes.js';
import { cassettesFromRunLog } from '../replay/cassettes-from-run.js';
import { runKeys } from '../replay/failing-keys.js';
import { readHeader } from '../run-log/reader.js';
import { runLogOf } from '../run-log/run-folder.js';
import type { RunHeader } from '../run-log/schema.js';
import { evaluate } from './evaluate.js';
import type { EvaluateControl, EvaluateOptions, EvaluateResult } from './evaluate-types.js';

/** What `toolgauge replay` takes besides the run folder. */
export interface ReplayOptions {
  /** Only the cases that failed a grader or hit an error. */
  failures?: boolean;
  /** Call the live providers (recording new cassettes) instead of replaying the run's exchanges. */
  live?: boolean;
  concurrency?: number;
  /** As evaluate's: only the run's cases matching any glob / having any tag. */
  filter?: string[];
  tag?: string[];
}

/** A replay: the new run (none when there was nothing to re-run), and how its failures compare with the source's. */
export interface ReplayResult {
  /** The replayed run; undefined when the source has no (failing) case to re-run. */
  run?: EvaluateResult;
  /** The source run's id. */
  source: string;
  /** Plan keys of the cases replayed, of those failing now, and of those that failed in the source run. */
  replayed: ReadonlySet<string>;
  failing: ReadonlySet<string>;
  wereFailing: ReadonlySet<string>;
  /** 0 when there was nothing to re-run, else the replayed run's exit code. */
  exitCode: number;
}

/**
 * `toolgauge replay` as a function: a finished run's cases run again through evaluate() with the run's own config,
 * into a new run folder. By default every model answer comes from the run's cassettes.jsonl (or, for a run made
 * without cassettes, from the exchanges its run.jsonl holds), so nothing touches the network; `live` asks the
 * providers again. `control` is evaluate()'s.
 */
export async function replay(
  runDir: string,
  options: ReplayOptions = {},
  control: EvaluateControl = {},
): Promise<ReplayResult> {
  const runLog = runLogOf(runDir, 'replay');
  const header = await readHeader(runLog);
  const onlyKeys = await runKeys(runLog, options.failures === true);
  const none = new Set<string>();
  if (onlyKeys.size === 0)
    return { source: header.runId, replayed: none, failing: none, wereFailing: none, exitCode: 0 };
  const common: EvaluateOptions = {
    baseRun: header,
    onlyKeys,
    subset: options.failures ? `the cases that failed in ${header.runId}` : `the cases of ${header.runId}`,
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.filter ? { filter: options.filter } : {}),
    ...(options.tag ? { tag: options.tag } : {}),
  };
  const run = await replayRun(runDir, runLog, header, options, (o) => evaluate({ ...common, ...o }, control));
  const wereFailing = options.failures ? onlyKeys : await runKeys(runLog, true);
  // an interrupted replay is compared with nothing: its own log is part of the plan
  const replayed = run.interrupted ? none : await runKeys(run.runLog, false);
  const failing = run.interrupted ? none : await runKeys(run.runLog, true);
  return { run, source: header.runId, replayed, failing, wereFailing, exitCode: run.exitCode };
}

/** The replayed run: live, from the run's cassettes, or from cassettes rebuilt from its run log. */
async function replayRun(
  runDir: string,
  runLog: string,
  header: RunHeader,
  options: ReplayOptions,
  run: (cassettes: EvaluateOptions) => Promise<EvaluateResult>,
): Promise<EvaluateResult> {
  if (options.live) return run({ record: true });
  const recorded = join(resolve(runDir), CASSETTE_FILE);
  if (existsSync(recorded)) return run({ replay: true, cassettes: recorded });
  const scratch = mkdtempSync(join(tmpdir(), 'toolgauge-replay-'));
  try {
    const file = join(scratch, CASSETTE_FILE);
    await cassettesFromRunLog(runLog, header, new CassetteStore(file));
    return await run({ replay: true, cassettes: file });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
