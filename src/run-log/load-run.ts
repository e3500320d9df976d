import { ToolgaugeError } from '../errors.js';
import { RunAggregate } from './aggregate.js';
import { readRunLog } from './reader.js';
import { runPaths } from './run-folder.js';
import type { RunFooter, RunHeader } from './schema.js';

export interface LoadedRun {
  runDir: string;
  runLog: string;
  header: RunHeader;
  aggregate: RunAggregate;
  /** No footer, or a footer that says so. */
  interrupted: boolean;
  /** The log's last footer, if it has one. */
  footer?: RunFooter;
}

/** Streams a run log once into its aggregate (counts only). */
export async function loadRun(arg: string, what = 'run'): Promise<LoadedRun> {
  const { runDir, runLog } = runPaths(arg, what);
  let header: RunHeader | undefined;
  let aggregate: RunAggregate | undefined;
  let interrupted = true;
  let footer: RunFooter | undefined;
  for await (const r of readRunLog(runLog)) {
    if (r.type === 'header') {
      header ??= r;
      aggregate ??= new RunAggregate(r);
    } else if (r.type === 'case') (aggregate as RunAggregate).add(r);
    else {
      interrupted = r.interrupted;
      footer = r;
    }
  }
  if (!header || !aggregate) throw new ToolgaugeError('USAGE', `${runLog}: no header record; not a toolgauge run log`);
  return { runDir, runLog, header, aggregate, interrupted, ...(footer ? { footer } : {}) };
}
