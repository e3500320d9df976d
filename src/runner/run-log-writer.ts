import type { RunRecord } from '../contracts/run-log.js';
import { LineWriter } from '../graders/offline/line-writer.js';

/**
 * Appends records to run.jsonl with synchronous writes of whole lines, so a record is either fully on disk or
 * absent: an interrupted run leaves a valid log of every case that finished. Lines finished in the same turn of
 * the event loop go out in one write (a syscall per record was ~8% of a zero-latency run), encoded straight into
 * LineWriter's buffer; `close` flushes.
 */
export class RunLogWriter {
  private readonly lines: LineWriter;
  private flushScheduled = false;

  constructor(
    readonly file: string,
    mode: 'create' | 'append' = 'create',
  ) {
    this.lines = new LineWriter(file, mode);
  }

  write(record: RunRecord): void {
    this.lines.write(record);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes every pending line now. */
  flush(): void {
    this.flushScheduled = false;
    this.lines.flush();
  }

  close(): void {
    this.lines.close();
  }
}
