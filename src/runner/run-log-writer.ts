import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunRecord } from '../contracts/run-log.js';

/**
 * Appends records to run.jsonl, one synchronous write per line, so a record is either fully on disk or
 * absent: an interrupted run leaves a valid log of every case that finished.
 */
export class RunLogWriter {
  private fd: number | undefined;

  constructor(
    readonly file: string,
    mode: 'create' | 'append' = 'create',
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, mode === 'create' ? 'w' : 'a');
  }

  write(record: RunRecord): void {
    if (this.fd === undefined) throw new Error(`run log ${this.file} is closed`);
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
  }

  close(): void {
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }
}
