import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ToolgaugeError } from '../errors.js';
import { loadRun } from '../run-log/load-run.js';
import { type RunSnapshot, readSnapshot, snapshotOf } from './snapshot.js';

/**
 * A baseline.json, a run's run.json, a run folder or a run.jsonl → its snapshot. A run folder's run.json is
 * used when present; otherwise its run.jsonl is streamed.
 */
export async function loadSnapshot(arg: string, what: string): Promise<RunSnapshot> {
  const p = resolve(arg);
  if (!existsSync(p))
    throw new ToolgaugeError(
      'USAGE',
      `${what} ${arg}: not found (pass reports/baseline.json, a reports/<run-id> folder or its run.jsonl)`,
    );
  const isDir = statSync(p).isDirectory();
  if (!isDir && !p.endsWith('.json') && !p.endsWith('.jsonl')) {
    throw new ToolgaugeError(
      'USAGE',
      `${what} ${arg}: not a baseline or a run (pass reports/baseline.json, a reports/<run-id> folder or its run.jsonl)`,
    );
  }
  if (isDir && existsSync(join(p, 'run.json'))) {
    return readSnapshot(join(p, 'run.json')) as RunSnapshot;
  }
  if (p.endsWith('.json')) {
    const s = readSnapshot(p);
    if (!s) throw new ToolgaugeError('USAGE', `${what} ${arg}: not found`);
    return s;
  }
  return snapshotOf((await loadRun(arg, what)).aggregate);
}
