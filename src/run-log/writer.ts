import { closeSync, openSync, readSync } from 'node:fs';
import type { ToolgaugeError } from '../errors.js';
import { BufferedFile } from '../util/buffered-file.js';
import { jsonText } from '../util/json-text.js';
import { BlobEncoder } from './blob-encoder.js';
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
 * blob line before the first record that refers to it (run-log/blob-encoder.ts), so the log stays self-contained and
 * append-only. A writer opened to append (a resumed run) writes again a blob the file may already hold: the reader
 * takes the repeated line as it is, and a record never refers to a blob not written before it. Records are packed
 * against the log's header (the first header written, or for a writer that appends, the header the file begins
 * with), as the reader will read them.
 */
export interface RunLogOptions {
  /**
   * Store a grade met before in the log once, as a blob (packing rule g; default on). Worth it where grades repeat
   * (a simulated persona answers from the expectations, so its grades and their reasons recur); off for recorded
   * replies graded offline, whose reasons quote each reply's own arguments: there the lookups cost the write path
   * more (~1.5 µs a record on a cold pass) than the ~100 bytes a record they save.
   */
  gradeBlobs?: boolean;
  /**
   * Called once when a write fails (a full disk): the log then ends on the last whole line that reached the disk,
   * and every later `write` or `close` throws that failure. Lines go out in a later turn of the event loop, so a
   * failure there reaches the caller only through this.
   */
  onFailure?: (failure: ToolgaugeError) => void;
}

export class RunLogWriter {
  private readonly out: BufferedFile;
  private flushScheduled = false;
  private readonly blobs: BlobEncoder;
  private header = false;
  /** The end (in bytes written) of each case line not yet known to be on disk, and the case lines known to be. */
  private pendingCases: number[] = [];
  private savedCases = 0;

  constructor(
    readonly file: string,
    mode: 'create' | 'append' = 'create',
    private readonly options: RunLogOptions = {},
  ) {
    this.blobs = new BlobEncoder((line) => this.line(line), options.gradeBlobs ?? true);
    if (mode === 'append') {
      const header = firstHeader(file);
      if (header) this.useHeader(header);
    }
    this.out = new BufferedFile(file, { size: 2 << 20, mode, wholeLines: true });
  }

  /** Appends a record (its line goes out with the others of this turn of the event loop). */
  write(record: RunRecord): void {
    if (this.out.failure) throw this.out.failure;
    if (record.type === 'header' && !this.header) this.useHeader(record);
    this.guard(() => this.line(record.type === 'case' ? this.blobs.encode(record) : record));
    if (record.type === 'case') this.pendingCases.push(this.out.bytes);
  }

  /** The failure that stopped this log (a full disk), if one did. */
  get failure(): ToolgaugeError | undefined {
    return this.out.failure;
  }

  /** How many case records this writer has put on disk whole (after a failure: those the log still holds). */
  get casesOnDisk(): number {
    const on = this.out.flushedBytes;
    let n = this.savedCases;
    for (const end of this.pendingCases) if (end <= on) n++;
    return n;
  }

  private useHeader(header: unknown): void {
    this.header = true;
    this.blobs.useHeader(header);
  }

  private line(value: unknown): void {
    // One write call per line: the buffer only ever flushes whole lines.
    this.out.write(jsonText(value) as string, true);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes every pending line now; a failure is reported to `onFailure` (never thrown into the event loop). */
  flush(): void {
    this.flushScheduled = false;
    if (this.out.failure) return;
    try {
      this.guard(() => this.out.flush());
    } catch {
      // reported to onFailure; the next write or close throws it again
    }
  }

  /** Flushes, fsyncs and closes; throws the log's failure if it has one. */
  close(): void {
    this.guard(() => this.out.close(true));
  }

  /** Runs a write; a failure of the file is counted, reported once and thrown. */
  private guard(write: () => void): void {
    try {
      write();
    } catch (e) {
      const failure = this.out.failure;
      if (!failure) throw e;
      if (!this.reported) {
        this.reported = true;
        this.options.onFailure?.(failure);
      }
      throw failure;
    } finally {
      this.settle();
    }
  }

  private reported = false;

  /** Counts the case lines now on disk. */
  private settle(): void {
    if (this.pendingCases.length === 0 || this.out.failure) return;
    const on = this.out.flushedBytes;
    let n = 0;
    while (n < this.pendingCases.length && (this.pendingCases[n] as number) <= on) n++;
    if (n === 0) return;
    this.savedCases += n;
    this.pendingCases.splice(0, n);
  }
}

/** The header a log begins with (its first line), or undefined: no file, or a first line that is no header. */
function firstHeader(file: string): Record<string, unknown> | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const end = chunk.subarray(0, n).indexOf(10);
      chunks.push(Buffer.from(chunk.subarray(0, end < 0 ? n : end)));
      if (end >= 0) break;
    }
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const header = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    return header?.type === 'header' ? header : undefined;
  } catch {
    return undefined; // not JSON: the reader refuses the log anyway
  } finally {
    closeSync(fd);
  }
}
