import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CassetteStore } from '../replay/cassette-store.js';
import { CASSETTE_FILE } from '../replay/cassettes.js';
import { cassettesFromRunLog } from '../replay/cassettes-from-run.js';
import { runKeys } from '../replay/failing-keys.js';
import { readHeader } from '../run-log/reader.js';
import { runLogOf } from '../run-log/run-folder.js';
import { evalCommand } from './eval-command.js';

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
    ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    ...(flags.quiet ? { quiet: true } : {}),
    ...(flags.filter ? { filter: flags.filter } : {}),
    ...(flags.tag ? { tag: flags.tag } : {}),
  };
  if (flags.live) return evalCommand({ ...common, record: true });
  const recorded = join(resolve(runDir), CASSETTE_FILE);
  if (existsSync(recorded)) return evalCommand({ ...common, replay: true, cassettes: recorded });
  const scratch = mkdtempSync(join(tmpdir(), 'toolgauge-replay-'));
  try {
    const file = join(scratch, CASSETTE_FILE);
    await cassettesFromRunLog(runLog, header, new CassetteStore(file));
    return await evalCommand({ ...common, replay: true, cassettes: file });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
