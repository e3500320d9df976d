import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ToolgaugeError } from '../errors.js';

/** The run log's name in a run folder (reports/<run-id>/run.jsonl). */
export const RUN_LOG_FILE = 'run.jsonl';

/** The run log of a run folder. */
export function runLogPath(runDir: string): string {
  return join(runDir, RUN_LOG_FILE);
}

/** `<dir>/run.jsonl`, or a one-line usage error naming the flag/argument and the fix. */
export function runLogOf(dir: string, what: string): string {
  const file = runLogPath(resolve(dir));
  if (!existsSync(file))
    throw new ToolgaugeError('USAGE', `${what} ${dir}: no run.jsonl there (pass a reports/<run-id> folder)`);
  return file;
}

/** A run folder (reports/<run-id>) or its run.jsonl → the paths. A one-line error naming the argument otherwise. */
export function runPaths(arg: string, what: string): { runDir: string; runLog: string } {
  const p = resolve(arg);
  if (existsSync(p) && statSync(p).isDirectory()) {
    const runLog = runLogPath(p);
    if (!existsSync(runLog))
      throw new ToolgaugeError('USAGE', `${what} ${arg}: no run.jsonl in that folder (pass a reports/<run-id> folder)`);
    return { runDir: p, runLog };
  }
  if (p.endsWith('.jsonl') && existsSync(p)) return { runDir: resolve(p, '..'), runLog: p };
  if (existsSync(p)) {
    throw new ToolgaugeError('USAGE', `${what} ${arg}: not a run (pass a reports/<run-id> folder or its run.jsonl)`);
  }
  throw new ToolgaugeError('USAGE', `${what} ${arg}: not found (pass a reports/<run-id> folder or its run.jsonl)`);
}
