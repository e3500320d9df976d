import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { RunRecord } from './schema.js';
import { ToolgaugeError } from '../errors.js';

/** Streams the records of a run.jsonl; memory stays flat however long the run. A torn last line is skipped. */
export async function* readRunLog(file: string): AsyncGenerator<RunRecord> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNo = 0;
  let pendingError: ToolgaugeError | undefined;
  try {
    for await (const line of lines) {
      lineNo++;
      if (!line.trim()) continue;
      if (pendingError) throw pendingError;
      try {
        yield JSON.parse(line) as RunRecord;
      } catch {
        // Only the last line may be torn (a crash mid-write); anything earlier is corruption.
        pendingError = new ToolgaugeError('USAGE', `${file}:${lineNo}: not a JSON record; the run log is corrupt`);
      }
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ToolgaugeError('USAGE', `${file}: run log not found (expected reports/<run-id>/run.jsonl)`);
    }
    throw e;
  }
}
