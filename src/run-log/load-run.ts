import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CaseRecord, RunHeader } from './schema.js';
import { ToolgaugeError } from '../errors.js';
import { RunAggregate } from './aggregate.js';
import { readRunLog } from './reader.js';

export interface LoadedRun {
  runDir: string;
  runLog: string;
  header: RunHeader;
  aggregate: RunAggregate;
  /** No footer, or a footer that says so. */
  interrupted: boolean;
}

/** A run folder (reports/<run-id>) or its run.jsonl → the paths. A one-line error naming the argument otherwise. */
export function runPaths(arg: string, what: string): { runDir: string; runLog: string } {
  const p = resolve(arg);
  if (existsSync(p) && statSync(p).isDirectory()) {
    const runLog = join(p, 'run.jsonl');
    if (!existsSync(runLog))
      throw new ToolgaugeError('USAGE', `${what} ${arg}: no run.jsonl in that folder (pass a reports/<run-id> folder)`);
    return { runDir: p, runLog };
  }
  if (p.endsWith('.jsonl') && existsSync(p)) return { runDir: resolve(p, '..'), runLog: p };
  throw new ToolgaugeError('USAGE', `${what} ${arg}: not found (pass a reports/<run-id> folder or its run.jsonl)`);
}

/** The case records of a run log, streamed. */
export async function* caseRecords(runLog: string): AsyncGenerator<CaseRecord> {
  for await (const r of readRunLog(runLog)) if (r.type === 'case') yield r;
}

/** Streams a run log once into its aggregate (counts only). */
export async function loadRun(arg: string, what = 'run'): Promise<LoadedRun> {
  const { runDir, runLog } = runPaths(arg, what);
  let header: RunHeader | undefined;
  let aggregate: RunAggregate | undefined;
  let interrupted = true;
  for await (const r of readRunLog(runLog)) {
    if (r.type === 'header') {
      header ??= r;
      aggregate ??= new RunAggregate(r);
    } else if (r.type === 'case') {
      if (!aggregate)
        throw new ToolgaugeError('USAGE', `${runLog}: case record before the header; the run log is corrupt`);
      aggregate.add(r);
    } else interrupted = r.interrupted;
  }
  if (!header || !aggregate) throw new ToolgaugeError('USAGE', `${runLog}: no header record; not a toolgauge run log`);
  return { runDir, runLog, header, aggregate, interrupted };
}
