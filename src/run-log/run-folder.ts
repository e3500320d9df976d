import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CaseRecord, RunFooter, RunHeader } from './schema.js';
import { ToolgaugeError } from '../errors.js';
import { readRunLog } from './reader.js';

/** `<dir>/run.jsonl`, or a one-line usage error naming the flag/argument and the fix. */
export function runLogOf(dir: string, what: string): string {
  const file = join(resolve(dir), 'run.jsonl');
  if (!existsSync(file))
    throw new ToolgaugeError('USAGE', `${what} ${dir}: no run.jsonl there (pass a reports/<run-id> folder)`);
  return file;
}

/** The header of a run log (its first record). */
export async function readHeader(file: string): Promise<RunHeader> {
  for await (const r of readRunLog(file)) {
    if (r.type === 'header') return r;
    break;
  }
  throw new ToolgaugeError('USAGE', `${file}: the first record is not a run header; is this a toolgauge run log?`);
}

/** Streams the case records (and remembers the footer, if the run wrote one). */
export async function* caseRecords(file: string, seen?: { footer?: RunFooter }): AsyncGenerator<CaseRecord> {
  for await (const r of readRunLog(file)) {
    if (r.type === 'case') yield r;
    else if (r.type === 'footer' && seen) seen.footer = r;
  }
}
