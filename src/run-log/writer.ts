import { BufferedFile } from '../util/buffered-file.js';
import { jsonText } from '../util/json-text.js';
import { BlobEncoder } from './blobs.js';
import type { RunRecord } from './schema.js';

/**
 * Appends records to run.jsonl (`JSON.stringify(record)` + LF, written by jsonText: a record holding a value nested
 * thousands of levels deep, as a model can write, is written like any other) with synchronous writes of whole lines, so a record
 * is either fully on disk or absent: an interrupted run leaves a valid log of every case that finished. Lines
 * finished in the same turn of the event loop go out in one write (a syscall per record was ~8% of a zero-latency
 * run), encoded straight into a 2 MiB buffer: joining pending strings first copied every byte once more (~15% of
 * offline grading) and made a two-byte string of every line holding a non-ASCII character. `close` flushes and
 * fsyncs. Used by eval, offline grading, regrade and merge.
 *
 * Records are given whole and written in the current format (2): each system prompt and tool list goes out once, as a
 * blob line before the first record that refers to it (run-log/blobs.ts), so the log stays self-contained and
 * append-only. A writer opened to append (a resumed run) writes again a blob the file may already hold: the reader
 * takes the repeated line as it is, and a record never refers to a blob not written before it.
 */
export class RunLogWriter {
  private readonly out: BufferedFile;
  private flushScheduled = false;
  private readonly blobs = new BlobEncoder((line) => this.line(line));

  constructor(
    readonly file: string,
    mode: 'create' | 'append' = 'create',
  ) {
    this.out = new BufferedFile(file, { size: 2 << 20, mode });
  }

  write(record: RunRecord): void {
    this.line(record.type === 'case' ? this.blobs.encode(record) : record);
  }

  private line(value: unknown): void {
    // One write call per line: the buffer only ever flushes whole lines.
    this.out.write(jsonText(value) as string, true);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes every pending line now. */
  flush(): void {
    this.flushScheduled = false;
    this.out.flush();
  }

  close(): void {
    this.out.close(true);
  }
}
